import { Prisma } from "@outreach/db";
import { credentialRamp, dailyLimitOn } from "./daily-limit.js";
import { planScheduleChunk, utcDay, type CredentialStream, type JitterScope } from "./schedule-plan.js";
import { parseSchedule, scheduleZone, sendDay, type SendSchedule } from "./send-window.js";
import type { Tx } from "./tx.js";

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

/** What the planner needs of a campaign: its window and jitter scope. */
interface PlanSettings {
  accountId: string;
  schedule: SendSchedule | null;
  jitterScope: JitterScope;
}

function toPlanSettings(campaign: { accountId: string; schedule: unknown; jitterScope: string }): PlanSettings {
  return { accountId: campaign.accountId, schedule: parseSchedule(campaign.schedule), jitterScope: campaign.jitterScope === "inbox" ? "inbox" : "batch" };
}

async function planSettings(tx: Tx, campaignId: string): Promise<PlanSettings> {
  return toPlanSettings(await tx.campaign.findUniqueOrThrow({ where: { id: campaignId }, select: { accountId: true, schedule: true, jitterScope: true } }));
}

const credentialFields = { id: true, dailyLimit: true, smtpHost: true, smtpUsername: true, rampStartPerDay: true, rampIncreasePerDay: true, rampStartedAt: true } as const;
type CredentialRow = { id: string; dailyLimit: number; smtpHost: string; smtpUsername: string; rampStartPerDay: number | null; rampIncreasePerDay: number | null; rampStartedAt: Date | null };

/** A mailbox: the same SMTP host and username (case-insensitive) within an account. */
export function mailboxKey(c: { smtpHost: string; smtpUsername: string }): string {
  return `${c.smtpHost.toLowerCase()} ${c.smtpUsername.toLowerCase()}`;
}

async function enabledCredentials(tx: Tx, campaignId: string): Promise<CredentialRow[]> {
  return tx.smtpCredential.findMany({ where: { campaignId, disabledAt: null }, select: credentialFields, orderBy: { createdAt: "asc" } });
}

/** The campaign's enabled credentials with their mailboxes' bookings from (about) today on. */
async function loadStreams(tx: Tx, campaignId: string, settings: PlanSettings, now: Date): Promise<CredentialStream[]> {
  const credentials = await enabledCredentials(tx, campaignId);
  if (credentials.length === 0) return [];
  return withBookings(tx, campaignId, settings, credentials, now);
}

/** Step-1 bookings per mailbox and day, counting every credential of the account on those mailboxes (every campaign's). */
async function mailboxBookings(tx: Tx, accountId: string, mailboxes: string[], now: Date): Promise<Map<string, Map<string, number>>> {
  // a day of any zone that can still be today somewhere (UTC-12 .. UTC+14)
  const from = utcDay(new Date(now.getTime() - 86_400_000));
  const rows = await tx.$queryRaw<Array<{ mailbox: string; day: Date; n: bigint }>>`
    SELECT lower(k."smtpHost") || ' ' || lower(k."smtpUsername") AS mailbox, s."limitDay" AS day, count(*) AS n
    FROM smtp_credentials k JOIN step_sends s ON s."credentialId" = k.id
    WHERE k."accountId" = ${accountId}::uuid AND lower(k."smtpHost") || ' ' || lower(k."smtpUsername") = ANY(${mailboxes}::text[])
      AND s."limitDay" >= ${from}::date AND s.state NOT IN ('cancelled', 'failed')
    GROUP BY 1, 2`;
  const byMailbox = new Map(mailboxes.map((m) => [m, new Map<string, number>()]));
  for (const r of rows) byMailbox.get(r.mailbox)?.set(utcDay(r.day), Number(r.n));
  return byMailbox;
}

async function withBookings(tx: Tx, campaignId: string, settings: PlanSettings, credentials: CredentialRow[], now: Date): Promise<CredentialStream[]> {
  const ids = credentials.map((c) => c.id);
  const bookings = await mailboxBookings(tx, settings.accountId, [...new Set(credentials.map(mailboxKey))], now);
  // the last step-1 send per credential and zone (the contact's zone only matters with use_contact_timezone)
  const byContactZone = settings.schedule?.useContactTimezone === true;
  const last = await tx.$queryRaw<Array<{ credentialId: string; timezone: string | null; last: Date }>>`
    SELECT s."credentialId", ${byContactZone ? Prisma.sql`c.timezone` : Prisma.sql`NULL::text`} AS timezone, max(s."dueAt") AS last
    FROM step_sends s ${byContactZone ? Prisma.sql`JOIN enrollments e ON e.id = s."enrollmentId" JOIN contacts c ON c.id = e."contactId"` : Prisma.empty}
    WHERE s."credentialId" = ANY(${ids}::uuid[]) AND s."campaignId" = ${campaignId}::uuid AND s."stepPosition" = 1 AND s.state IN ('scheduled', 'queued', 'sending')
    GROUP BY 1, 2`;
  return credentials.map((c) => {
    const lastByZone = new Map<string, Date>();
    let lastDueAt: Date | null = null;
    for (const l of last) {
      if (l.credentialId !== c.id) continue;
      const zone = scheduleZone(settings.schedule, l.timezone);
      if (!lastByZone.has(zone) || lastByZone.get(zone)! < l.last) lastByZone.set(zone, l.last);
      if (!lastDueAt || lastDueAt < l.last) lastDueAt = l.last;
    }
    return { id: c.id, dailyLimit: c.dailyLimit, mailbox: mailboxKey(c), ramp: credentialRamp(c), booked: bookings.get(mailboxKey(c))!, lastDueAt, lastByZone };
  });
}

/** True when every enabled credential has used today's daily_limit (dispatch rule 4), today in the campaign's zone, on its mailbox, ramp included. */
export async function allCredentialsAtDailyLimit(tx: Tx, campaignId: string, now = new Date()): Promise<boolean> {
  const settings = await planSettings(tx, campaignId);
  const streams = await loadStreams(tx, campaignId, settings, now);
  const today = sendDay(settings.schedule, scheduleZone(settings.schedule, null), now);
  return streams.every((s) => (s.booked.get(today) ?? 0) >= dailyLimitOn(s.dailyLimit, s.ramp, today));
}

/**
 * Serializes planners booking onto the same mailboxes (two campaigns of one
 * account sharing an inbox hold different campaign locks). Taken in a fixed
 * order after the campaign lock, so two planners cannot wait on each other.
 */
async function lockMailboxes(tx: Tx, accountId: string, credentials: CredentialRow[]): Promise<void> {
  for (const mailbox of [...new Set(credentials.map(mailboxKey))].sort()) {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`mailbox ${accountId} ${mailbox}`}, 0))`;
  }
}

/** True when another campaign of the account has a credential on one of these mailboxes (their bookings can change between chunks). */
async function mailboxesShared(tx: Tx, accountId: string, campaignId: string, credentials: CredentialRow[]): Promise<boolean> {
  const [row] = await tx.$queryRaw<Array<{ shared: boolean }>>`
    SELECT EXISTS (SELECT 1 FROM smtp_credentials WHERE "accountId" = ${accountId}::uuid AND "campaignId" <> ${campaignId}::uuid
      AND lower("smtpHost") || ' ' || lower("smtpUsername") = ANY(${[...new Set(credentials.map(mailboxKey))]}::text[])) AS shared`;
  return row?.shared === true;
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
async function currentStreams(tx: Tx, campaignId: string, settings: PlanSettings, version: number, now: Date, carry: PlanCarry | null | undefined): Promise<CredentialStream[]> {
  const credentials = await enabledCredentials(tx, campaignId);
  if (credentials.length === 0) return [];
  await lockMailboxes(tx, settings.accountId, credentials);
  const same =
    carry &&
    carry.version === version &&
    carry.streams.length === credentials.length &&
    carry.streams.every((s, i) => s.id === credentials[i]!.id && s.dailyLimit === credentials[i]!.dailyLimit && s.mailbox === mailboxKey(credentials[i]!) && sameRamp(s, credentials[i]!));
  if (!same) return withBookings(tx, campaignId, settings, credentials, now);
  if (!(await mailboxesShared(tx, settings.accountId, campaignId, credentials))) return carry.streams;
  const bookings = await mailboxBookings(tx, settings.accountId, [...new Set(credentials.map(mailboxKey))], now);
  return carry.streams.map((s) => ({ ...s, booked: bookings.get(s.mailbox!)! }));
}

/** The contacts' time zones of these enrollments (only read when the schedule follows them). */
async function contactTimezones(tx: Tx, schedule: SendSchedule | null, enrollmentIds: string[]): Promise<Map<string, string | null> | undefined> {
  if (!schedule?.useContactTimezone) return undefined;
  const rows = await tx.$queryRaw<Array<{ id: string; timezone: string | null }>>`
    SELECT e.id, (SELECT c.timezone FROM contacts c WHERE c.id = e."contactId") AS timezone FROM enrollments e WHERE e.id = ANY(${enrollmentIds}::uuid[])`;
  return new Map(rows.map((r) => [r.id, r.timezone]));
}

export interface ScheduleChunkResult extends ScheduleResult {
  /** the streams after this chunk, for the next chunk of the same job (only once this transaction has committed) */
  carry: PlanCarry | null;
}

const INSERT_ROWS = 10_000;

/**
 * For the rest of this transaction, plan with the cost of a random page read
 * of cached data or an SSD. A chunk touches a few thousand rows by key in
 * tables of millions; with the default cost (4, a spinning disk) PostgreSQL
 * picks a whole-table scan (or hash join) for each chunk's key lists, so every
 * chunk reads the table again (measured at 250k enrollments: 374 ms against
 * 43 ms per 5,000-row chunk). SET LOCAL ends with the transaction, also through
 * a transaction-pooling PgBouncer.
 */
export async function preferIndexScans(tx: Tx): Promise<void> {
  await tx.$executeRawUnsafe(`SET LOCAL random_page_cost = 1.1`);
}

/**
 * Creates the per-step send rows of these enrollments (in this order) and marks
 * them dispatched. Call inside a transaction that holds the campaign row lock,
 * so two planners of one campaign cannot book the same daily capacity; keep the
 * list to one chunk (DISPATCH_CHUNK_SIZE rows), it is planned in memory.
 * `carry` is what the previous chunk of the same job returned.
 */
export async function scheduleEnrollments(tx: Tx, campaignId: string, enrollmentIds: string[], now = new Date(), carry?: PlanCarry | null): Promise<ScheduleChunkResult> {
  const nothing = { scheduled: 0, firstDueAt: null, lastStep1DueAt: null, carry: carry ?? null };
  if (enrollmentIds.length === 0) return nothing;
  const campaign = await tx.campaign.findUniqueOrThrow({
    where: { id: campaignId },
    select: {
      accountId: true,
      minWaitSeconds: true,
      maxWaitSeconds: true,
      planVersion: true,
      schedule: true,
      jitterScope: true,
      steps: { select: { position: true, delayMinutes: true }, orderBy: { position: "asc" } },
    },
  });
  await preferIndexScans(tx);
  const settings = toPlanSettings(campaign);
  const credentials = await currentStreams(tx, campaignId, settings, campaign.planVersion, now, carry);
  if (credentials.length === 0 || campaign.steps.length === 0) return { ...nothing, carry: null };
  const { sends, streams } = planScheduleChunk({
    now,
    minWaitSeconds: campaign.minWaitSeconds,
    maxWaitSeconds: campaign.maxWaitSeconds,
    stepDelaysMinutes: campaign.steps.map((s) => s.delayMinutes),
    credentials,
    enrollmentIds,
    schedule: settings.schedule,
    jitterScope: settings.jitterScope,
    contactTimezones: await contactTimezones(tx, settings.schedule, enrollmentIds),
  });

  for (let i = 0; i < sends.length; i += INSERT_ROWS) {
    const chunk = sends.slice(i, i + INSERT_ROWS);
    await tx.$executeRawUnsafe(
      `INSERT INTO step_sends ("accountId", "campaignId", "enrollmentId", "stepPosition", "credentialId", "dueAt", "limitDay", state, "updatedAt")
       SELECT $1::uuid, $2::uuid, e, p, c, d, l, 'scheduled', now()
       FROM unnest($3::uuid[], $4::int[], $5::uuid[], $6::timestamptz[], $7::date[]) AS t(e, p, c, d, l)`,
      campaign.accountId,
      campaignId,
      chunk.map((s) => s.enrollmentId),
      chunk.map((s) => s.stepPosition),
      chunk.map((s) => s.credentialId),
      chunk.map((s) => s.dueAt.toISOString()),
      chunk.map((s) => s.limitDay),
    );
  }
  const firstSteps = sends.filter((s) => s.stepPosition === 1);
  for (let i = 0; i < firstSteps.length; i += INSERT_ROWS) {
    const chunk = firstSteps.slice(i, i + INSERT_ROWS);
    await tx.$executeRawUnsafe(
      `UPDATE enrollments AS e SET "dispatchedAt" = $1::timestamptz, "credentialId" = t.c, "updatedAt" = now()
       FROM unnest($2::uuid[], $3::uuid[]) AS t(id, c) WHERE e.id = t.id`,
      now.toISOString(),
      chunk.map((s) => s.enrollmentId),
      chunk.map((s) => s.credentialId),
    );
  }
  const [bumped] = await tx.$queryRaw<[{ planVersion: number }]>`UPDATE campaigns SET "planVersion" = "planVersion" + 1 WHERE id = ${campaignId}::uuid RETURNING "planVersion"`;
  let first = Infinity;
  let last = -Infinity;
  for (const s of firstSteps) {
    const t = s.dueAt.getTime();
    if (t < first) first = t;
    if (t > last) last = t;
  }
  return { scheduled: firstSteps.length, firstDueAt: new Date(first), lastStep1DueAt: new Date(last), carry: { version: bumped.planVersion, streams } };
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
export async function rescheduleHeldSends(tx: Tx, campaignId: string, options: HeldSendsOptions = {}): Promise<RescheduleResult> {
  const now = options.now ?? new Date();
  const none = { held: 0, last: null, scheduled: 0, firstDueAt: null, lastStep1DueAt: null, carry: options.carry ?? null };
  // with no inbox left there is nothing to plan onto: keep the rows as they are
  if ((await tx.smtpCredential.count({ where: { campaignId, disabledAt: null } })) === 0) return none;
  await preferIndexScans(tx);
  const held = await tx.$queryRaw<Array<{ id: string; enrollmentId: string; dueAt: Date }>>`
    SELECT id, "enrollmentId", "dueAt" FROM step_sends
    WHERE "campaignId" = ${campaignId}::uuid AND "stepPosition" = 1 AND state = 'scheduled'
      ${options.credentialId ? Prisma.sql`AND "credentialId" = ${options.credentialId}::uuid` : Prisma.empty}
      ${options.createdBefore ? Prisma.sql`AND "createdAt" < ${options.createdBefore}` : Prisma.empty}
      ${options.after ? Prisma.sql`AND ("dueAt", id) > (${options.after.dueAt}::timestamptz, ${options.after.id}::uuid)` : Prisma.empty}
    ORDER BY "dueAt", id
    ${options.limit !== undefined ? Prisma.sql`LIMIT ${options.limit}` : Prisma.empty}
    FOR UPDATE`;
  if (held.length === 0) return none;
  const enrollmentIds = held.map((h) => h.enrollmentId);
  await tx.$executeRaw`DELETE FROM step_sends s USING unnest(${enrollmentIds}::uuid[]) AS t(e) WHERE s."enrollmentId" = t.e AND s.state = 'scheduled'`;
  const scheduled = await scheduleEnrollments(tx, campaignId, enrollmentIds, now, options.carry);
  const tail = held[held.length - 1]!;
  return { ...scheduled, held: held.length, last: { dueAt: tail.dueAt, id: tail.id } };
}
