import { DateTime } from "luxon";
import { countsByCategory, type ReplyCategory } from "@outreach/core";
import {
  domainHealthStatuses,
  enrollmentBatchStats,
  enrollmentSkipCounts,
  recentBouncedEnrollments,
  recentFailedSends,
  replyCategoryCounts,
  stepSendCredentialStats,
  variantSendStats,
  type Db,
  type SmtpCredential,
  type VariantStatsRow,
} from "@outreach/db";
import { credentialRamp, dailyLimitOn, emailDomain, parseSchedule, parseStepVariants, scheduleZone } from "@outreach/domain";

/** Enrollment counts by current status: every enrollment is in exactly one. */
export interface StatusCounts {
  total: number;
  pending: number;
  sent: number;
  opened: number;
  replied: number;
  bounced: number;
  unsubscribed: number;
}

export interface BatchStats extends StatusCounts {
  batchNumber: number;
}

export interface CredentialStats {
  credential: SmtpCredential;
  /** sends of every step today */
  sendsToday: number;
  /** step-1 sends today: what daily_limit counts */
  step1SendsToday: number;
  /** today's limit: daily_limit, lowered by the credential's ramp */
  dailyLimitToday: number;
  sendsTotal: number;
  /** sends whose delivery outcome is unknown (counted in sendsTotal too) */
  sendsUnconfirmed: number;
  bounces: number;
  bounceRate: number;
  /** the stored health report of the from_email's domain (GET /domains/:domain/health); null when never checked */
  domainHealth: { status: string; checkedAt: Date } | null;
}

/** Something the campaign's owner should fix: a credential sending from a domain whose health report fails. */
export interface CampaignWarning {
  code: "sender_domain_failing";
  domain: string;
  message: string;
}

export interface RecentBounce {
  enrollmentId: string;
  contactId: string;
  email: string;
  bounceReason: string | null;
  bouncedAt: Date | null;
}

/** A step send that ended failed: never sent (or, interrupted mid-SMTP, never resent), with why. */
export interface RecentFailure {
  enrollmentId: string;
  contactId: string;
  email: string;
  stepPosition: number;
  reason: string | null;
  failedAt: Date;
}

/** One A/B variant's sends and what they drew (see getCampaignStats for the crediting rule). */
export interface VariantStats {
  stepPosition: number;
  variantId: string;
  subject: string;
  weight: number;
  sent: number;
  opened: number;
  replied: number;
  clicked: number;
  bounced: number;
  rates: { openRate: number; replyRate: number; clickRate: number; bounceRate: number };
}

export interface CampaignStats {
  totals: StatusCounts;
  /** enrollments that clicked a tracked link (first click), and those stopped by a colleague's reply or a block */
  clicked: number;
  stopped: number;
  /** step sends recorded as sent whose delivery outcome is unknown (see DeliveryOutcome) */
  sentUnconfirmed: number;
  rates: { bounceRate: number; openRate: number; replyRate: number; clickRate: number };
  variants: VariantStats[];
  perBatch: BatchStats[];
  recentBounces: RecentBounce[];
  /** step sends that ended failed, and the most recent of them with their reason */
  sendsFailed: number;
  recentFailures: RecentFailure[];
  credentials: CredentialStats[];
  /** the campaign's replies and auto-replies by category */
  repliesByCategory: Record<ReplyCategory, number>;
  warnings: CampaignWarning[];
  skipped: { mxInvalid: number; crossCampaignDuplicate: number; blocklisted: number; conditionNotMet: number; disposable: number; roleAccount: number };
}

const RECENT_BOUNCES = 20;
const RECENT_FAILURES = 20;

/** n / d as a percentage with 2 decimals; 0 when nothing was counted. */
export function percent(n: number, d: number): number {
  return d === 0 ? 0 : Math.round((n * 10_000) / d) / 100;
}

/** Today in the campaign's schedule time zone (UTC without a schedule): the day its daily limits count. */
function today(schedule: unknown, now: Date): { day: string; start: Date; end: Date } {
  const local = DateTime.fromJSDate(now, { zone: scheduleZone(parseSchedule(schedule), null) }).startOf("day");
  return { day: local.toISODate()!, start: local.toJSDate(), end: local.plus({ days: 1 }).toJSDate() };
}

/**
 * A campaign's statistics, read in one snapshot: the counts per batch and per
 * inbox kept by the database's triggers (campaign_batch_counts,
 * campaign_inbox_counts), today's sends, and the most recent bounces and
 * failures, so the cost does not grow with the campaign.
 *
 * - totals and per_batch count enrollments by their current status (a
 *   replied enrollment is counted under replied only), so they add up to total,
 *   except that an enrollment stopped before it was sent (blocklisted, or a
 *   colleague replied) is not pending: it is counted in stopped only.
 * - open_rate and reply_rate are "ever" rates over enrollments that were sent
 *   (sentAt set): opened = openedAt or repliedAt set (a reply implies the mail
 *   was read, even when the pixel was blocked), replied = repliedAt set. An
 *   enrollment that later bounced or unsubscribed still counts if it had opened.
 * - bounce_rate is per send: bounced step sends / step sends that reached SMTP
 *   (state sent or bounced). It and totals.bounced include unverified bounces
 *   (a notice matched by recipient only: the enrollment did stop as bounced);
 *   credentials[].bounces / bounce_rate do not: they are the measure the
 *   credential health check compares with the threshold.
 * - clicked / click_rate: enrollments sent that clicked a tracked link (first
 *   click), over the same base as open_rate. stopped: enrollments stopped by a
 *   colleague's reply (stop_on_reply_scope domain) or a block since planning.
 * - variants: per A/B variant, its sends (sent = reached SMTP, bounced among
 *   them) and the opens, replies and clicks credited to it: an enrollment's
 *   first open (or its reply, when the pixel was blocked), reply and first
 *   click are credited to the last step sent to it before that moment.
 * - credentials: the same per credential; sends_today counts those whose sentAt
 *   is in the current day (in the schedule's time zone, UTC without one),
 *   step1_sends_today only the step-1 ones (what daily_limit counts), and
 *   daily_limit_today is that day's limit (daily_limit lowered by a ramp).
 * - sent_unconfirmed (totals, and per credential): step sends recorded as sent
 *   whose outcome is unknown (the connection dropped or timed out after the
 *   body was sent); they are never resent and also count as sends.
 * - sends_failed and recent_failures: step sends that ended failed (retries
 *   used up, a job that kept failing before its send was claimed, a send
 *   interrupted mid-SMTP), the most recent with the reason.
 */
export async function getCampaignStats(
  db: Db,
  campaign: { id: string; schedule?: unknown; credentials: SmtpCredential[]; steps?: Array<{ position: number; variants: unknown }> },
  now = new Date(),
): Promise<CampaignStats> {
  const id = campaign.id;
  const day = today(campaign.schedule ?? null, now);
  const steps = (campaign.steps ?? []).map((step) => ({ position: step.position, variants: parseStepVariants(step.variants) }));
  const hasVariants = steps.some((step) => step.variants);
  // one snapshot; the variants (a window over all the campaign's sends) only for a campaign with variants
  const [batchRows, sendRows, bounceRows, failureRows, skipRows, variantRows, categoryRows] = await db.$transaction(
    async (tx) =>
      [
        await enrollmentBatchStats(tx, id),
        await stepSendCredentialStats(tx, id, day.start, day.end),
        await recentBouncedEnrollments(tx, id, RECENT_BOUNCES),
        await recentFailedSends(tx, id, RECENT_FAILURES),
        await enrollmentSkipCounts(tx, id),
        hasVariants ? await variantSendStats(tx, id) : ([] as VariantStatsRow[]),
        await replyCategoryCounts(tx, id),
      ] as const,
    { isolationLevel: "RepeatableRead" },
  );

  const totals: StatusCounts = { total: 0, pending: 0, sent: 0, opened: 0, replied: 0, bounced: 0, unsubscribed: 0 };
  let delivered = 0;
  let everOpened = 0;
  let everReplied = 0;
  let everClicked = 0;
  let stopped = 0;
  const perBatch = batchRows.map((row): BatchStats => {
    for (const key of Object.keys(totals) as Array<keyof StatusCounts>) totals[key] += row[key];
    delivered += row.delivered;
    everOpened += row.ever_opened;
    everReplied += row.ever_replied;
    everClicked += row.ever_clicked;
    stopped += row.stopped;
    const { batch_number, total, pending, sent, opened, replied, bounced, unsubscribed } = row;
    return { batchNumber: batch_number, total, pending, sent, opened, replied, bounced, unsubscribed };
  });

  const sends = sendRows.reduce((sum, row) => sum + row.sends, 0);
  const bounces = sendRows.reduce((sum, row) => sum + row.bounces, 0);
  const byCredential = new Map(sendRows.filter((row) => row.credential_id !== null).map((row) => [row.credential_id!, row]));
  const domains = [...new Set(campaign.credentials.map((credential) => emailDomain(credential.fromEmail)))];
  const accountId = campaign.credentials[0]?.accountId;
  const healthRows = accountId ? await domainHealthStatuses(db, accountId, domains) : [];
  const healthByDomain = new Map(healthRows.map((row) => [row.domain, { status: row.status, checkedAt: row.checkedAt }]));
  const warnings = healthRows
    .filter((row) => row.status === "fail")
    .map((row): CampaignWarning => ({
      code: "sender_domain_failing",
      domain: row.domain,
      message: `${row.domain}, a sending domain of this campaign, fails its health checks: see GET /domains/${row.domain}/health for what to fix.`,
    }));
  const credentials = campaign.credentials.map((credential): CredentialStats => {
    const row = byCredential.get(credential.id);
    return {
      domainHealth: healthByDomain.get(emailDomain(credential.fromEmail)) ?? null,
      credential,
      sendsToday: row?.sends_today ?? 0,
      step1SendsToday: row?.step1_sends_today ?? 0,
      dailyLimitToday: dailyLimitOn(credential.dailyLimit, credentialRamp(credential), day.day),
      sendsTotal: row?.sends ?? 0,
      sendsUnconfirmed: row?.unconfirmed ?? 0,
      bounces: row?.verified_bounces ?? 0,
      bounceRate: percent(row?.verified_bounces ?? 0, row?.sends ?? 0),
    };
  });

  const byVariant = new Map(variantRows.map((row) => [`${row.step_position} ${row.variant_id}`, row]));
  const variants = steps.flatMap((step) =>
    (step.variants ?? []).map((variant): VariantStats => {
      const row = byVariant.get(`${step.position} ${variant.id}`);
      const [sent, opened, replied, clicked, bounced] = [row?.sent ?? 0, row?.opened ?? 0, row?.replied ?? 0, row?.clicked ?? 0, row?.bounced ?? 0];
      return {
        stepPosition: step.position,
        variantId: variant.id,
        subject: variant.subject,
        weight: variant.weight,
        sent,
        opened,
        replied,
        clicked,
        bounced,
        rates: { openRate: percent(opened, sent), replyRate: percent(replied, sent), clickRate: percent(clicked, sent), bounceRate: percent(bounced, sent) },
      };
    }),
  );

  const skips = new Map(skipRows.map((row) => [row.kind, row.count]));
  return {
    totals,
    clicked: everClicked,
    stopped,
    sentUnconfirmed: sendRows.reduce((sum, row) => sum + row.unconfirmed, 0),
    rates: { bounceRate: percent(bounces, sends), openRate: percent(everOpened, delivered), replyRate: percent(everReplied, delivered), clickRate: percent(everClicked, delivered) },
    variants,
    perBatch,
    recentBounces: bounceRows.map((row) => ({
      enrollmentId: row.enrollment_id,
      contactId: row.contact_id,
      email: row.email,
      bounceReason: row.bounce_reason,
      bouncedAt: row.bounced_at,
    })),
    sendsFailed: sendRows.reduce((sum, row) => sum + row.failed, 0),
    recentFailures: failureRows.map((row) => ({
      enrollmentId: row.enrollment_id,
      contactId: row.contact_id,
      email: row.email,
      stepPosition: row.step_position,
      reason: row.reason,
      failedAt: row.failed_at,
    })),
    credentials,
    repliesByCategory: countsByCategory(categoryRows),
    warnings,
    skipped: {
      mxInvalid: skips.get("mx_invalid") ?? 0,
      crossCampaignDuplicate: skips.get("cross_campaign_duplicate") ?? 0,
      blocklisted: skips.get("blocklisted") ?? 0,
      conditionNotMet: skips.get("condition_not_met") ?? 0,
      disposable: skips.get("disposable") ?? 0,
      roleAccount: skips.get("role_account") ?? 0,
    },
  };
}
