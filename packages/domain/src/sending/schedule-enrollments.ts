import {
  bumpPlanVersion,
  campaignDayBookingsFrom,
  campaignPlanSettings,
  contactTimezonesOf,
  countEnabledCredentials,
  deleteScheduledSendsOf,
  enabledCampaignCredentials,
  executor,
  insertScheduledSends,
  lastStep1DueAts,
  lockHeldStep1Sends,
  lockMailbox,
  mailboxBookingsFrom,
  mailboxesSharedWithOtherCampaigns,
  markEnrollmentsDispatched,
  preferIndexScans,
  stepDelays,
  type CampaignPlanRow,
  type Executor,
  type PlannedCredentialRow,
  type RawClient,
  type ScheduledSendColumns,
} from "@outreach/db";
import { inboxProvider, type RecipientProvider } from "../audience/mail-provider.js";
import { credentialRamp, dailyLimitOn } from "./daily-limit.js";
import { planScheduleChunk, utcDay, type CampaignCap, type CredentialStream, type JitterScope } from "./schedule-plan.js";
import { parseSchedule, scheduleZone, sendDay, type SendSchedule } from "./send-window.js";
import type { Tx } from "../tx.js";

export interface ScheduleResult {
  scheduled: number;
  firstDueAt: Date | null;
  lastStep1DueAt: Date | null;
}

/**
 * The credential streams one job holds between its chunks, with the campaign's
 * planVersion its last chunk left: while no other chunk planned onto the
 * campaign meanwhile, the next chunk continues from them instead of reading the
 * bookings back from step_sends (a read that grows with the batch).
 */
export interface PlanCarry {
  version: number;
  streams: CredentialStream[];
}

/**
 * Where a plan's statements go: a Prisma client or transaction, or a pg
 * connection in a transaction (the dispatcher's bulk path: big parameter arrays
 * go through the driver as they are). Both run through one Executor: every
 * statement is plain SQL with positional parameters, so both run the same
 * text; results use only types both map alike (text, int, boolean,
 * timestamptz, jsonb).
 */
export type PlanTx = Tx | RawClient;

/** What the planner needs of a campaign: its window and jitter scope. */
interface PlanSettings {
  accountId: string;
  schedule: SendSchedule | null;
  jitterScope: JitterScope;
}

function toPlanSettings(campaign: { accountId: string; schedule: unknown; jitterScope: string }): PlanSettings {
  return { accountId: campaign.accountId, schedule: parseSchedule(campaign.schedule), jitterScope: campaign.jitterScope === "inbox" ? "inbox" : "batch" };
}

async function campaignRow(sql: Executor, campaignId: string): Promise<CampaignPlanRow> {
  const row = await campaignPlanSettings(sql, campaignId);
  if (!row) throw new Error(`campaign ${campaignId} not found`);
  return row;
}

type CredentialRow = PlannedCredentialRow;

/** A mailbox: the same SMTP host and username (case-insensitive) within an account. */
export function mailboxKey(c: { smtpHost: string; smtpUsername: string }): string {
  return `${c.smtpHost.toLowerCase()} ${c.smtpUsername.toLowerCase()}`;
}

/**
 * The campaign's enabled inboxes to plan on: those not paused by a spike
 * (paused_until), or all of them while every one is paused (their sends then
 * wait for the pause to end).
 */
async function plannableCredentials(sql: Executor, campaignId: string, now: Date): Promise<CredentialRow[]> {
  const credentials = await enabledCampaignCredentials(sql, campaignId);
  const unpaused = credentials.filter((c) => !c.pausedUntil || c.pausedUntil <= now);
  return unpaused.length > 0 ? unpaused : credentials;
}

/** The campaign's enabled credentials with their mailboxes' bookings from (about) today on. */
async function loadStreams(sql: Executor, campaignId: string, settings: PlanSettings, now: Date): Promise<CredentialStream[]> {
  const credentials = await plannableCredentials(sql, campaignId, now);
  if (credentials.length === 0) return [];
  return withBookings(sql, campaignId, settings, credentials, now);
}

/**
 * Step-1 bookings per mailbox and day, counting every credential of the account on those mailboxes (every campaign's),
 * and the answers to replies sent through them (each counts like a step-1 send on its day).
 */
async function mailboxBookings(sql: Executor, accountId: string, mailboxes: string[], now: Date): Promise<Map<string, Map<string, number>>> {
  // a day of any zone that can still be today somewhere (UTC-12 .. UTC+14)
  const from = utcDay(new Date(now.getTime() - 86_400_000));
  const rows = await mailboxBookingsFrom(sql, accountId, mailboxes, from);
  const byMailbox = new Map(mailboxes.map((m) => [m, new Map<string, number>()]));
  for (const r of rows) byMailbox.get(r.mailbox)?.set(r.day, r.n);
  return byMailbox;
}

/**
 * The campaign's daily_limit with its step-1 bookings per day (from a day that
 * can still be today somewhere on), or null without one. Read for every chunk:
 * the planner holds the campaign's row lock, so no other plan books onto the
 * campaign meanwhile.
 */
async function campaignCapOf(sql: Executor, campaignId: string, campaign: CampaignPlanRow, now: Date): Promise<CampaignCap | null> {
  if (campaign.dailyLimit === null) return null;
  const rows = await campaignDayBookingsFrom(sql, campaignId, utcDay(new Date(now.getTime() - 86_400_000)));
  return { dailyLimit: campaign.dailyLimit, booked: new Map(rows.map((r) => [r.day, r.n])) };
}

async function withBookings(sql: Executor, campaignId: string, settings: PlanSettings, credentials: CredentialRow[], now: Date): Promise<CredentialStream[]> {
  const ids = credentials.map((c) => c.id);
  const bookings = await mailboxBookings(sql, settings.accountId, [...new Set(credentials.map(mailboxKey))], now);
  // the last step-1 send per credential and zone (the contact's zone only matters with use_contact_timezone)
  const byContactZone = settings.schedule?.useContactTimezone === true;
  const last = await lastStep1DueAts(sql, ids, campaignId, byContactZone);
  return credentials.map((c) => {
    const lastByZone = new Map<string, Date>();
    let lastDueAt: Date | null = null;
    for (const l of last) {
      if (l.credentialId !== c.id) continue;
      const zone = scheduleZone(settings.schedule, l.timezone);
      if (!lastByZone.has(zone) || lastByZone.get(zone)! < l.last) lastByZone.set(zone, l.last);
      if (!lastDueAt || lastDueAt < l.last) lastDueAt = l.last;
    }
    return { id: c.id, dailyLimit: c.dailyLimit, mailbox: mailboxKey(c), ramp: credentialRamp(c), booked: bookings.get(mailboxKey(c))!, lastDueAt, lastByZone, provider: inboxProvider(c) };
  });
}

/** An enabled credential's day: its daily_limit today (ramp included) and the sends its mailbox has booked today. */
export interface CredentialDay {
  id: string;
  dailyLimit: number;
  booked: number;
}

/** Each enabled credential's day, today in the campaign's zone, counted on its mailbox (every credential of the account on it). */
export async function credentialDaysToday(tx: Tx, campaignId: string, now = new Date()): Promise<CredentialDay[]> {
  const sql = executor(tx);
  const settings = toPlanSettings(await campaignRow(sql, campaignId));
  const streams = await loadStreams(sql, campaignId, settings, now);
  const today = sendDay(settings.schedule, scheduleZone(settings.schedule, null), now);
  return streams.map((s) => ({ id: s.id, dailyLimit: dailyLimitOn(s.dailyLimit, s.ramp, today), booked: s.booked.get(today) ?? 0 }));
}

/** True when every enabled credential has used today's daily_limit, or the campaign its own daily_limit (dispatch rule 4). */
export async function allCredentialsAtDailyLimit(tx: Tx, campaignId: string, now = new Date()): Promise<boolean> {
  if ((await credentialDaysToday(tx, campaignId, now)).every((day) => day.booked >= day.dailyLimit)) return true;
  return campaignCapReachedToday(tx, campaignId, now);
}

/** True when the campaign has a daily_limit and has booked that many step-1 sends today (in its schedule's zone). */
export async function campaignCapReachedToday(tx: Tx, campaignId: string, now = new Date()): Promise<boolean> {
  const sql = executor(tx);
  const campaign = await campaignRow(sql, campaignId);
  const cap = await campaignCapOf(sql, campaignId, campaign, now);
  if (!cap) return false;
  const schedule = parseSchedule(campaign.schedule);
  const today = sendDay(schedule, scheduleZone(schedule, null), now);
  return (cap.booked.get(today) ?? 0) >= cap.dailyLimit;
}

/**
 * Serializes planners booking onto the same mailboxes (two campaigns of one
 * account sharing an inbox hold different campaign locks). Taken in a fixed
 * order after the campaign lock, so two planners cannot wait on each other.
 */
async function lockMailboxes(sql: Executor, accountId: string, credentials: CredentialRow[]): Promise<void> {
  for (const mailbox of [...new Set(credentials.map(mailboxKey))].sort()) {
    await lockMailbox(sql, accountId, mailbox);
  }
}

/** True when another campaign of the account has a credential on one of these mailboxes (their bookings can change between chunks). */
async function mailboxesShared(sql: Executor, accountId: string, campaignId: string, credentials: CredentialRow[]): Promise<boolean> {
  return mailboxesSharedWithOtherCampaigns(sql, accountId, campaignId, [...new Set(credentials.map(mailboxKey))]);
}

const sameRamp = (s: CredentialStream, c: CredentialRow) => {
  const r = credentialRamp(c);
  return (!s.ramp && !r) || (!!s.ramp && !!r && s.ramp.startPerDay === r.startPerDay && s.ramp.increasePerDay === r.increasePerDay && s.ramp.startedAt.getTime() === r.startedAt.getTime());
};

/**
 * The streams to plan this chunk on: the carried ones when nothing else planned
 * onto the campaign since (same planVersion) and its enabled inboxes are the
 * same, else read back from step_sends. Mailboxes shared with other campaigns
 * always get their bookings read again (those campaigns may have booked since).
 */
async function currentStreams(sql: Executor, campaignId: string, settings: PlanSettings, version: number, now: Date, carry: PlanCarry | null | undefined): Promise<CredentialStream[]> {
  const credentials = await plannableCredentials(sql, campaignId, now);
  if (credentials.length === 0) return [];
  await lockMailboxes(sql, settings.accountId, credentials);
  const same =
    carry &&
    carry.version === version &&
    carry.streams.length === credentials.length &&
    carry.streams.every((s, i) => s.id === credentials[i]!.id && s.dailyLimit === credentials[i]!.dailyLimit && s.mailbox === mailboxKey(credentials[i]!) && sameRamp(s, credentials[i]!));
  if (!same) return withBookings(sql, campaignId, settings, credentials, now);
  if (!(await mailboxesShared(sql, settings.accountId, campaignId, credentials))) return carry.streams;
  const bookings = await mailboxBookings(sql, settings.accountId, [...new Set(credentials.map(mailboxKey))], now);
  return carry.streams.map((s) => ({ ...s, booked: bookings.get(s.mailbox!)! }));
}

/** The contacts' time zones of these enrollments (only read when the schedule follows them). */
async function contactTimezones(sql: Executor, schedule: SendSchedule | null, enrollmentIds: string[]): Promise<Map<string, string | null> | undefined> {
  if (!schedule?.useContactTimezone) return undefined;
  const rows = await contactTimezonesOf(sql, enrollmentIds);
  return new Map(rows.map((r) => [r.id, r.timezone]));
}

export interface ScheduleChunkResult extends ScheduleResult {
  /** the streams after this chunk, for the next chunk of the same job (only once this transaction has committed) */
  carry: PlanCarry | null;
}

const INSERT_ROWS = 10_000;

// the dispatcher sets it too, before it locks a page (see packages/db)
export { preferIndexScans };

/** The step rows of a chunk as parallel columns: what the INSERT takes, without an object per row. */
type SendColumns = ScheduledSendColumns;

const emptyColumns = (): SendColumns => ({ enrollmentIds: [], positions: [], credentialIds: [], dueAts: [], limitDays: [] });

/**
 * Creates the per-step send rows of these enrollments (in this order) and marks
 * them dispatched. Call inside a transaction that holds the campaign row lock,
 * so two planners of one campaign cannot book the same daily capacity; keep the
 * list to one chunk (DISPATCH_CHUNK_SIZE rows), it is planned in memory.
 * `carry` is what the previous chunk of the same job returned;
 * `options.recipientProviders` the recipients' providers the dispatcher looked
 * up (match_recipient_provider), by enrollment id.
 */
export async function scheduleEnrollments(
  tx: PlanTx,
  campaignId: string,
  enrollmentIds: string[],
  now = new Date(),
  carry?: PlanCarry | null,
  options: { recipientProviders?: Map<string, RecipientProvider> } = {},
): Promise<ScheduleChunkResult> {
  const nothing = { scheduled: 0, firstDueAt: null, lastStep1DueAt: null, carry: carry ?? null };
  if (enrollmentIds.length === 0) return nothing;
  const sql = executor(tx);
  const campaign = await campaignRow(sql, campaignId);
  const stepDelaysMinutes = await stepDelays(sql, campaignId);
  await preferIndexScans(sql);
  const settings = toPlanSettings(campaign);
  const credentials = await currentStreams(sql, campaignId, settings, campaign.planVersion, now, carry);
  if (credentials.length === 0 || stepDelaysMinutes.length === 0) return { ...nothing, carry: null };
  const { sends, streams } = planScheduleChunk({
    now,
    minWaitSeconds: campaign.minWaitSeconds,
    maxWaitSeconds: campaign.maxWaitSeconds,
    stepDelaysMinutes,
    credentials,
    enrollmentIds,
    schedule: settings.schedule,
    jitterScope: settings.jitterScope,
    contactTimezones: await contactTimezones(sql, settings.schedule, enrollmentIds),
    campaignCap: await campaignCapOf(sql, campaignId, campaign, now),
    recipientProviders: options.recipientProviders,
  });

  // one pass: the step rows in INSERT_ROWS pieces, step 1's enrollment and credential aside
  const dispatched = { ids: [] as string[], credentialIds: [] as string[] };
  let first = Infinity;
  let last = -Infinity;
  let rows = emptyColumns();
  for (let i = 0; i < sends.length; i++) {
    const s = sends[i]!;
    rows.enrollmentIds.push(s.enrollmentId);
    rows.positions.push(s.stepPosition);
    rows.credentialIds.push(s.credentialId);
    rows.dueAts.push(s.dueAt.toISOString());
    rows.limitDays.push(s.limitDay);
    if (s.stepPosition === 1) {
      dispatched.ids.push(s.enrollmentId);
      dispatched.credentialIds.push(s.credentialId);
      const t = s.dueAt.getTime();
      if (t < first) first = t;
      if (t > last) last = t;
    }
    if (rows.positions.length === INSERT_ROWS || i === sends.length - 1) {
      await insertScheduledSends(sql, campaign.accountId, campaignId, rows);
      rows = emptyColumns();
    }
  }
  sends.length = 0;
  for (let i = 0; i < dispatched.ids.length; i += INSERT_ROWS) {
    await markEnrollmentsDispatched(sql, now.toISOString(), dispatched.ids.slice(i, i + INSERT_ROWS), dispatched.credentialIds.slice(i, i + INSERT_ROWS));
  }
  const version = await bumpPlanVersion(sql, campaignId);
  return { scheduled: dispatched.ids.length, firstDueAt: new Date(first), lastStep1DueAt: new Date(last), carry: { version, streams } };
}

export interface HeldSendsOptions {
  /** only the held sends of this credential (a disabled inbox's share) */
  credentialId?: string;
  /** only held sends created before this time (those not planned again yet by this re-plan) */
  createdBefore?: Date;
  /** keyset: held sends after this one in (dueAt, id) order */
  after?: { dueAt: Date; id: string } | null;
  /** at most this many enrollments (one chunk); all of them when omitted */
  limit?: number;
  now?: Date;
  carry?: PlanCarry | null;
  /** recipients' providers by enrollment id (match_recipient_provider), looked up before the transaction; absent: no preference */
  recipientProviders?: Map<string, RecipientProvider>;
}

export interface RescheduleResult extends ScheduleChunkResult {
  /** held step-1 sends found (and planned again) */
  held: number;
  /** the last of them in (dueAt, id) order: the keyset of the next chunk */
  last: { dueAt: Date; id: string } | null;
}

/**
 * Plans again the enrollments whose step 1 has not gone out (all of the campaign's,
 * or those on one credential), in their due order: on resume, their old times are
 * stale; when a credential is disabled, its share moves to the others. Later steps
 * follow. With `limit`, one chunk of them; call again with `after` set to the
 * returned `last` (and `createdBefore`, so rows planned again are not taken twice).
 */
export async function rescheduleHeldSends(tx: PlanTx, campaignId: string, options: HeldSendsOptions = {}): Promise<RescheduleResult> {
  const now = options.now ?? new Date();
  const none = { held: 0, last: null, scheduled: 0, firstDueAt: null, lastStep1DueAt: null, carry: options.carry ?? null };
  const sql = executor(tx);
  // with no inbox left there is nothing to plan onto: keep the rows as they are
  if ((await countEnabledCredentials(sql, campaignId)) === 0) return none;
  await preferIndexScans(sql);
  const held = await lockHeldStep1Sends(sql, campaignId, options);
  if (held.length === 0) return none;
  const enrollmentIds = held.map((h) => h.enrollmentId);
  await deleteScheduledSendsOf(sql, enrollmentIds);
  const scheduled = await scheduleEnrollments(tx, campaignId, enrollmentIds, now, options.carry, { recipientProviders: options.recipientProviders });
  const tail = held[held.length - 1]!;
  return { ...scheduled, held: held.length, last: { dueAt: tail.dueAt, id: tail.id } };
}
