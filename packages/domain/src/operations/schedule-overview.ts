import { accountsForSchedule, accountsWithOpenSends, campaignsForSchedule, imapInboxesOfAccounts, inFlightSendCounts, scheduledSendCounts, type Db } from "@outreach/db";

/** Which inboxes an imap-poller replica holds the lease of (InboxLeases.heldOf). */
export interface InboxLeaseLookup {
  heldOf(inboxIds: string[]): Promise<Set<string>>;
}

/** Step sends not finished yet, by where they stand. */
export interface SendCounts {
  /** scheduled, due now (dueAt <= now), to be released */
  due: number;
  /** scheduled for later */
  later: number;
  /** released to a send queue, not claimed yet */
  queued: number;
  /** claimed by a sender, in SMTP */
  sending: number;
  /** scheduled, but not released while the campaign or the account holds them (see heldBecause) */
  held: number;
}

export interface CampaignSchedule {
  campaignId: string;
  name: string;
  status: string;
  pausedReason: string | null;
  /** why none of its scheduled sends is released (account suspended, campaign paused, re-plan running); null when they go as they fall due */
  heldBecause: string | null;
  counts: SendCounts;
  /** seconds since its oldest due send fell due (not released yet); null when none is due or they are held */
  oldestDueAgeSeconds: number | null;
}

export interface InboxWatch {
  /** inboxes with IMAP settings */
  withImap: number;
  /** held by an imap-poller replica (connected, or connecting) */
  watched: number;
  /** of an active campaign, and no replica holds them: backing off, stopped, or past IMAP_MAX_CONNECTIONS */
  unwatched: number;
  /** of a campaign that is not active: not watched by design */
  idle: number;
}

export interface AccountSchedule {
  accountId: string;
  email: string;
  suspendedAt: Date | null;
  suspendedReason: string | null;
  /** its campaigns' counts summed */
  counts: SendCounts;
  oldestDueAgeSeconds: number | null;
  /** null when the leases could not be read (no Redis given) */
  inboxes: InboxWatch | null;
  /** the campaigns with sends not finished, oldest due first */
  campaigns: CampaignSchedule[];
}

export interface ScheduleOverview {
  generatedAt: Date;
  accounts: AccountSchedule[];
  /** more accounts have sends not finished than were listed (raise the limit, or ask for one account) */
  hasMore: boolean;
  /** why the inboxes' leases could not be read (their counts are then null), else null */
  inboxLeasesError: string | null;
}

export interface ScheduleOverviewOptions {
  /** one account only (listed even with nothing to send); otherwise the accounts with sends not finished, by id */
  accountId?: string;
  /** accounts listed at most (default 100) */
  limit?: number;
  now?: Date;
}

export const DEFAULT_SCHEDULE_ACCOUNTS = 100;
export const MAX_SCHEDULE_ACCOUNTS = 1000;

const emptyCounts = (): SendCounts => ({ due: 0, later: 0, queued: 0, sending: 0, held: 0 });

function heldBecause(account: { suspendedAt: Date | null }, campaign: { status: string; pausedReason: string | null; resumeReplanBefore: Date | null }): string | null {
  if (account.suspendedAt) return "account suspended";
  if (campaign.resumeReplanBefore) return "re-plan in progress";
  if (campaign.status === "paused") return campaign.pausedReason ? `campaign paused (${campaign.pausedReason})` : "campaign paused";
  if (campaign.status !== "active") return `campaign ${campaign.status}`;
  return null;
}

const ageSeconds = (since: Date | null, now: Date) => (since && since <= now ? Math.floor((now.getTime() - since.getTime()) / 1000) : null);

async function inboxWatch(db: Db, leases: InboxLeaseLookup | null, accountIds: string[]): Promise<{ watch: Map<string, InboxWatch>; error: string | null }> {
  const out = new Map<string, InboxWatch>();
  if (!leases) return { watch: out, error: "no Redis to read the inbox leases from" };
  // the account's campaigns (by their account index), then their inboxes (by campaign)
  const inboxes = await imapInboxesOfAccounts(db, accountIds);
  let held: Set<string>;
  try {
    held = await leases.heldOf(inboxes.map((inbox) => inbox.id));
  } catch (err) {
    // the sends' counts are still worth showing
    return { watch: out, error: `the inbox leases could not be read: ${(err as Error).message}` };
  }
  for (const accountId of accountIds) out.set(accountId, { withImap: 0, watched: 0, unwatched: 0, idle: 0 });
  for (const inbox of inboxes) {
    const watch = out.get(inbox.accountId)!;
    watch.withImap += 1;
    if (held.has(inbox.id)) watch.watched += 1;
    else if (inbox.active) watch.unwatched += 1;
    else watch.idle += 1;
  }
  return { watch: out, error: null };
}

/**
 * What is waiting to be sent, per account and per campaign: due, later,
 * queued, sending and held sends, how late the oldest due one is, and the
 * accounts' inboxes watched for replies or not. Reads indexes only: the
 * scheduled sends' (accountId, campaignId, dueAt) partial index, grouped, and
 * the in-flight partial index (packages/db/sql/indexes/step_sends.sql);
 * campaigns and accounts by primary key.
 * With `accountId`, that account alone (null when it does not exist).
 * Behind both `GET /admin/schedule` and `pnpm ops schedule`.
 */
export async function readScheduleOverview(db: Db, leases: InboxLeaseLookup | null, options: ScheduleOverviewOptions = {}): Promise<ScheduleOverview | null> {
  const now = options.now ?? new Date();
  const limit = Math.min(Math.max(1, options.limit ?? DEFAULT_SCHEDULE_ACCOUNTS), MAX_SCHEDULE_ACCOUNTS);
  let accountIds: string[];
  let hasMore = false;
  if (options.accountId !== undefined) {
    accountIds = [options.accountId];
  } else {
    accountIds = await accountsWithOpenSends(db, limit);
    hasMore = accountIds.length > limit;
    accountIds = accountIds.slice(0, limit);
  }
  const accounts = accountIds.length ? await accountsForSchedule(db, accountIds) : [];
  if (options.accountId !== undefined && accounts.length === 0) return null;
  if (accounts.length === 0) return { generatedAt: now, accounts: [], hasMore, inboxLeasesError: null };

  const [scheduled, inflight, { watch, error: inboxLeasesError }] = await Promise.all([
    scheduledSendCounts(db, accountIds, now),
    inFlightSendCounts(db, accountIds),
    inboxWatch(db, leases, accountIds),
  ]);
  const campaignIds = [...new Set([...scheduled, ...inflight].map((row) => row.campaignId))];
  const campaigns = campaignIds.length ? await campaignsForSchedule(db, campaignIds) : [];
  const campaignById = new Map(campaigns.map((c) => [c.id, c]));

  return {
    generatedAt: now,
    hasMore,
    inboxLeasesError,
    accounts: accounts.map((account) => {
      const rows = new Map<string, CampaignSchedule>();
      const campaignOf = (campaignId: string): CampaignSchedule | undefined => {
        const campaign = campaignById.get(campaignId);
        // deleted meanwhile: its sends went with it
        if (!campaign) return undefined;
        let row = rows.get(campaignId);
        if (!row) {
          row = {
            campaignId,
            name: campaign.name,
            status: campaign.status,
            pausedReason: campaign.pausedReason,
            heldBecause: heldBecause(account, campaign),
            counts: emptyCounts(),
            oldestDueAgeSeconds: null,
          };
          rows.set(campaignId, row);
        }
        return row;
      };
      for (const s of scheduled) {
        if (s.accountId !== account.id) continue;
        const row = campaignOf(s.campaignId);
        if (!row) continue;
        if (row.heldBecause) row.counts.held += s.due + s.later;
        else {
          row.counts.due += s.due;
          row.counts.later += s.later;
          row.oldestDueAgeSeconds = s.due > 0 ? ageSeconds(s.oldest, now) : null;
        }
      }
      for (const s of inflight) {
        if (s.accountId !== account.id) continue;
        const row = campaignOf(s.campaignId);
        if (!row) continue;
        row.counts.queued += s.queued;
        row.counts.sending += s.sending;
      }
      const list = [...rows.values()].sort((a, b) => (b.oldestDueAgeSeconds ?? -1) - (a.oldestDueAgeSeconds ?? -1) || a.campaignId.localeCompare(b.campaignId));
      const counts = emptyCounts();
      for (const row of list) for (const key of Object.keys(counts) as Array<keyof SendCounts>) counts[key] += row.counts[key];
      const ages = list.map((row) => row.oldestDueAgeSeconds).filter((age): age is number => age !== null);
      return {
        accountId: account.id,
        email: account.email,
        suspendedAt: account.suspendedAt,
        suspendedReason: account.suspendedReason,
        counts,
        oldestDueAgeSeconds: ages.length ? Math.max(...ages) : null,
        inboxes: watch.get(account.id) ?? null,
        campaigns: list,
      };
    }),
  };
}

const countsJson = (counts: SendCounts) => ({ due: counts.due, later: counts.later, queued: counts.queued, sending: counts.sending, held: counts.held });

/** The overview as JSON (snake_case, as the API speaks): GET /admin/schedule and `pnpm ops schedule --json`. */
export function scheduleOverviewJson(overview: ScheduleOverview) {
  return {
    generated_at: overview.generatedAt.toISOString(),
    has_more: overview.hasMore,
    inbox_leases_error: overview.inboxLeasesError,
    accounts: overview.accounts.map((account) => ({
      account_id: account.accountId,
      email: account.email,
      suspended_at: account.suspendedAt?.toISOString() ?? null,
      suspended_reason: account.suspendedReason,
      ...countsJson(account.counts),
      oldest_due_age_seconds: account.oldestDueAgeSeconds,
      inboxes: account.inboxes && { with_imap: account.inboxes.withImap, watched: account.inboxes.watched, unwatched: account.inboxes.unwatched, idle: account.inboxes.idle },
      campaigns: account.campaigns.map((campaign) => ({
        campaign_id: campaign.campaignId,
        name: campaign.name,
        status: campaign.status,
        paused_reason: campaign.pausedReason,
        held_because: campaign.heldBecause,
        ...countsJson(campaign.counts),
        oldest_due_age_seconds: campaign.oldestDueAgeSeconds,
      })),
    })),
  };
}
