import { blockedAddressCondition } from "./blocklist-entries.js";
import { columns, type RowOf } from "./columns.js";
import { executor, fromDb, type PrismaQueryable, type Queryable } from "./executor.js";
import { isoTimeSql } from "./iso-time.js";

/*
 * Statements on step_sends (one durable row per enrollment and step: the
 * send's schedule and state) that the API runs: counts of held sends, the
 * forecast, a mailbox's day, the step a relay report is about; the
 * planner's; and the sending engine's (claim, release, record, sweeps: see
 * below).
 */

export const heldSendsAndStepsColumns = columns({ held: "int4", steps: "int4" });
export type HeldSendsAndSteps = RowOf<typeof heldSendsAndStepsColumns>;

/** The campaign's held sends (step 1 still scheduled) and its number of steps, in one statement. */
export async function countHeldSendsAndSteps(q: Queryable, campaignId: string): Promise<HeldSendsAndSteps> {
  const [row] = await executor(q).rows<HeldSendsAndSteps>(
    `
    SELECT (SELECT count(*)::int FROM step_sends WHERE "campaignId" = $1::uuid AND "stepPosition" = 1 AND state = 'scheduled') AS held,
           (SELECT count(*)::int FROM sequence_steps WHERE "campaignId" = $2::uuid) AS steps`,
    [campaignId, campaignId],
  );
  return row!;
}

export const countColumns = columns({ n: "int4" });

/** The campaign's held sends (step 1 still scheduled), those created before `createdBefore` when given. */
export async function countHeldStep1Sends(q: Queryable, campaignId: string, createdBefore?: Date): Promise<number> {
  const [row] = await executor(q).rows<RowOf<typeof countColumns>>(
    `
    SELECT count(*)::int AS n FROM step_sends
    WHERE "campaignId" = $1::uuid AND "stepPosition" = 1 AND state = 'scheduled'
      AND "createdAt" < COALESCE($2::timestamptz, 'infinity')`,
    [campaignId, createdBefore ?? null],
  );
  return row!.n;
}

export const forecastDayColumns = columns({ date: "text", step_1: "int4", follow_ups: "int4", overdue: "int4", undispatched: "int4" });
export type ForecastDayRow = RowOf<typeof forecastDayColumns>;

export interface ForecastRange {
  campaignId: string;
  /** the zone the days are counted in */
  zone: string;
  /** the opening of the first day and of the day after the last */
  start: Date;
  end: Date;
  /** the first and last days, YYYY-MM-DD */
  firstDay: string;
  lastDay: string;
}

/**
 * Sends still to go out (scheduled or queued) per day of the range, every day
 * present, each row also carrying the scheduled sends due before the range
 * (overdue) and the campaign's pending enrollments no dispatch has planned
 * (undispatched). One aggregate statement.
 */
export async function forecastSendDays(q: Queryable, range: ForecastRange): Promise<ForecastDayRow[]> {
  const { campaignId, zone, start, end, firstDay, lastDay } = range;
  return executor(q).rows<ForecastDayRow>(
    `
    WITH buckets AS (
      SELECT ("dueAt" AT TIME ZONE $1)::date AS day,
             count(*) FILTER (WHERE "stepPosition" = 1) AS step_1,
             count(*) FILTER (WHERE "stepPosition" > 1) AS follow_ups
      FROM step_sends
      WHERE "campaignId" = $2::uuid AND state IN ('scheduled', 'queued') AND "dueAt" >= $3 AND "dueAt" < $4
      GROUP BY 1
    )
    SELECT to_char(g.day, 'YYYY-MM-DD') AS date,
           COALESCE(b.step_1, 0)::int AS step_1,
           COALESCE(b.follow_ups, 0)::int AS follow_ups,
           (SELECT count(*) FROM step_sends
             WHERE "campaignId" = $5::uuid AND state = 'scheduled' AND "dueAt" < $6)::int AS overdue,
           (SELECT count(*) FROM enrollments
             WHERE "campaignId" = $7::uuid AND status = 'pending' AND "dispatchedAt" IS NULL AND "stoppedAt" IS NULL)::int AS undispatched
    FROM generate_series($8::date, $9::date, interval '1 day') AS g(day)
    LEFT JOIN buckets b ON b.day = g.day::date
    ORDER BY g.day`,
    [zone, campaignId, start, end, campaignId, start, campaignId, firstDay, lastDay],
  );
}

export const mailboxUsageColumns = columns({ used: "int4" });

/**
 * What a mailbox (an account's SMTP host and username, "host username"
 * lower-cased) has used of a day: its step sends booked on that day that have
 * not ended cancelled or failed, and its answers to replies that have not failed.
 */
export async function countMailboxDayUsage(q: Queryable, accountId: string, mailbox: string, day: string): Promise<number> {
  const [usage] = await executor(q).rows<RowOf<typeof mailboxUsageColumns>>(
    `
    SELECT (
      (SELECT count(*) FROM step_sends s JOIN smtp_credentials k ON k.id = s."credentialId"
       WHERE k."accountId" = $1::uuid AND lower(k."smtpHost") || ' ' || lower(k."smtpUsername") = $2
         AND s."limitDay" = $3::date AND s.state NOT IN ('cancelled', 'failed'))
      + (SELECT count(*) FROM reply_answers a JOIN smtp_credentials k ON k.id = a."credentialId"
       WHERE k."accountId" = $4::uuid AND lower(k."smtpHost") || ' ' || lower(k."smtpUsername") = $5
         AND a."limitDay" = $6::date AND a.state <> 'failed')
    )::int AS used`,
    [accountId, mailbox, day, accountId, mailbox, day],
  );
  return usage?.used ?? 0;
}

export const reportedSendColumns = columns({
  id: "uuid",
  accountId: "uuid",
  enrollmentId: "uuid",
  contactId: "uuid",
  credentialId: "uuid?",
  state: "text",
  bounceUnverified: "bool",
});
export type ReportedSendRow = RowOf<typeof reportedSendColumns>;

/** The step sent with one of these Message-IDs (as stored, and bare): `lock` holds its row until the transaction ends. */
export async function findSendByMessageId(q: Queryable, messageIds: string[], lock: boolean): Promise<ReportedSendRow | null> {
  const forUpdate = lock ? "FOR UPDATE OF s" : "";
  const rows = await executor(q).rows<ReportedSendRow>(
    `SELECT s.id, s."accountId", s."enrollmentId", e."contactId", s."credentialId", s.state::text AS state, s."bounceUnverified"
       FROM step_sends s JOIN enrollments e ON e.id = s."enrollmentId"
       WHERE s."messageId" = ANY($1::text[])
       LIMIT 1 ${forUpdate}`,
    [messageIds],
  );
  return rows[0] ?? null;
}

/** The most recent step sent (or bounced) to the address, in any account, sent before `sentBefore` when given: `lock` holds its row. */
export async function findLastSendTo(q: Queryable, email: string, sentBefore: Date | null, lock: boolean): Promise<ReportedSendRow | null> {
  const forUpdate = lock ? "FOR UPDATE OF s" : "";
  const rows = await executor(q).rows<ReportedSendRow>(
    `SELECT s.id, s."accountId", s."enrollmentId", e."contactId", s."credentialId", s.state::text AS state, s."bounceUnverified"
     FROM contacts c
     JOIN enrollments e ON e."contactId" = c.id
     JOIN step_sends s ON s."enrollmentId" = e.id
     WHERE c.email = $1 AND s.state IN ('sent', 'bounced') AND ($2::timestamptz IS NULL OR s."sentAt" <= $2::timestamptz)
     ORDER BY s."sentAt" DESC NULLS LAST, s.id DESC
     LIMIT 1 ${forUpdate}`,
    [email, sentBefore],
  );
  return rows[0] ?? null;
}

export const mailboxBookingColumns = columns({ mailbox: "text", day: "text", n: "int4" });
export type MailboxBookingRow = RowOf<typeof mailboxBookingColumns>;

/**
 * Step-1 bookings per mailbox ("host username", lower-cased) and day from
 * `from` (YYYY-MM-DD) on, counting every inbox of the account on those
 * mailboxes (every campaign's) and the answers to replies sent through them.
 */
export async function mailboxBookingsFrom(q: Queryable, accountId: string, mailboxes: string[], from: string): Promise<MailboxBookingRow[]> {
  return executor(q).rows<MailboxBookingRow>(
    `SELECT mailbox, day, sum(n)::int AS n FROM (
       SELECT lower(k."smtpHost") || ' ' || lower(k."smtpUsername") AS mailbox, s."limitDay"::text AS day, count(*) AS n
       FROM smtp_credentials k JOIN step_sends s ON s."credentialId" = k.id
       WHERE k."accountId" = $1::uuid AND lower(k."smtpHost") || ' ' || lower(k."smtpUsername") = ANY($2::text[])
         AND s."limitDay" >= $3::date AND s.state NOT IN ('cancelled', 'failed')
       GROUP BY 1, 2
       UNION ALL
       SELECT lower(k."smtpHost") || ' ' || lower(k."smtpUsername"), a."limitDay"::text, count(*)
       FROM smtp_credentials k JOIN reply_answers a ON a."credentialId" = k.id
       WHERE k."accountId" = $1::uuid AND lower(k."smtpHost") || ' ' || lower(k."smtpUsername") = ANY($2::text[])
         AND a."limitDay" >= $3::date AND a.state <> 'failed'
       GROUP BY 1, 2
     ) b
     GROUP BY 1, 2`,
    [accountId, mailboxes, from],
  );
}

export const campaignDayBookingColumns = columns({ day: "text", n: "int4" });
export type CampaignDayBookingRow = RowOf<typeof campaignDayBookingColumns>;

/**
 * A campaign's step-1 bookings per day from `from` (YYYY-MM-DD) on, across all
 * its inboxes, counted as a mailbox's are (limitDay set, not cancelled or
 * failed), leaving out the send `except` when given (one being moved): what
 * its campaign-wide daily_limit is checked against.
 */
export async function campaignDayBookingsFrom(q: Queryable, campaignId: string, from: string, except: string | null = null): Promise<CampaignDayBookingRow[]> {
  return executor(q).rows<CampaignDayBookingRow>(
    `SELECT s."limitDay"::text AS day, count(*)::int AS n
     FROM step_sends s
     WHERE s."campaignId" = $1::uuid AND s."limitDay" >= $2::date AND s.state NOT IN ('cancelled', 'failed')
       AND ($3::uuid IS NULL OR s.id <> $3::uuid)
     GROUP BY 1`,
    [campaignId, from, except],
  );
}

export const lastStep1Columns = columns({ credentialId: "text", timezone: "text?", last: "timestamptz!" });
export type LastStep1Row = RowOf<typeof lastStep1Columns>;

/**
 * The last step-1 send still to go out per inbox of the campaign (and per
 * contact time zone with `byContactZone`; the zone is NULL without).
 */
export async function lastStep1DueAts(q: Queryable, credentialIds: string[], campaignId: string, byContactZone: boolean): Promise<LastStep1Row[]> {
  return executor(q).rows<LastStep1Row>(
    `SELECT s."credentialId"::text AS "credentialId", ${byContactZone ? `c.timezone` : `NULL::text`} AS timezone, max(s."dueAt") AS last
     FROM step_sends s ${byContactZone ? `JOIN enrollments e ON e.id = s."enrollmentId" JOIN contacts c ON c.id = e."contactId"` : ``}
     WHERE s."credentialId" = ANY($1::uuid[]) AND s."campaignId" = $2::uuid AND s."stepPosition" = 1 AND s.state IN ('scheduled', 'queued', 'sending')
     GROUP BY 1, 2`,
    [credentialIds, campaignId],
  );
}

/** The step rows of a plan as parallel columns (what the INSERT takes, without an object per row). */
export interface ScheduledSendColumns {
  enrollmentIds: string[];
  positions: number[];
  credentialIds: string[];
  /** ISO times */
  dueAts: string[];
  /** YYYY-MM-DD: the day the send counts on (step 1), null for later steps */
  limitDays: Array<string | null>;
}

/** Inserts the rows, scheduled, in one statement (unnest of the columns). */
export async function insertScheduledSends(q: Queryable, accountId: string, campaignId: string, rows: ScheduledSendColumns): Promise<number> {
  return executor(q).execute(
    `INSERT INTO step_sends ("accountId", "campaignId", "enrollmentId", "stepPosition", "credentialId", "dueAt", "limitDay", state, "updatedAt")
     SELECT $1::uuid, $2::uuid, e, p, c, d, l, 'scheduled', now()
     FROM unnest($3::uuid[], $4::int[], $5::uuid[], $6::timestamptz[], $7::date[]) AS t(e, p, c, d, l)`,
    [accountId, campaignId, rows.enrollmentIds, rows.positions, rows.credentialIds, rows.dueAts, rows.limitDays],
  );
}

export const heldStep1Columns = columns({ id: "text", enrollmentId: "text", dueAt: "timestamptz" });
export type HeldStep1Row = RowOf<typeof heldStep1Columns>;

export interface HeldStep1Filter {
  /** only this inbox's */
  credentialId?: string;
  /** only those created before */
  createdBefore?: Date;
  /** keyset: after this one in (dueAt, id) order */
  after?: { dueAt: Date; id: string } | null;
  /** at most this many */
  limit?: number;
}

/** The campaign's held sends (step 1 still scheduled), filtered as asked, in (dueAt, id) order: the statement's tail and its parameters ($1 the campaign). */
function heldStep1Where(campaignId: string, options: HeldStep1Filter): { sql: string; params: unknown[] } {
  const params: unknown[] = [campaignId];
  const param = (value: unknown) => `$${params.push(value)}`;
  const sql = `FROM step_sends
     WHERE "campaignId" = $1::uuid AND "stepPosition" = 1 AND state = 'scheduled'
       ${options.credentialId ? `AND "credentialId" = ${param(options.credentialId)}::uuid` : ""}
       ${options.createdBefore ? `AND "createdAt" < ${param(options.createdBefore.toISOString())}::timestamptz` : ""}
       ${options.after ? `AND ("dueAt", id) > (${param(options.after.dueAt.toISOString())}::timestamptz, ${param(options.after.id)}::uuid)` : ""}
     ORDER BY "dueAt", id
     ${options.limit !== undefined ? `LIMIT ${param(options.limit)}::int` : ""}`;
  return { sql, params };
}

/** Locks the campaign's held sends (step 1 still scheduled) FOR UPDATE, in (dueAt, id) order, filtered as asked. */
export async function lockHeldStep1Sends(q: Queryable, campaignId: string, options: HeldStep1Filter): Promise<HeldStep1Row[]> {
  const { sql, params } = heldStep1Where(campaignId, options);
  return executor(q).rows<HeldStep1Row>(`SELECT id::text AS id, "enrollmentId"::text AS "enrollmentId", "dueAt" ${sql} FOR UPDATE`, params);
}

export const heldStep1RecipientColumns = columns({ enrollmentId: "text", email: "text" });
export type HeldStep1Recipient = RowOf<typeof heldStep1RecipientColumns>;

/**
 * The recipients of the held sends lockHeldStep1Sends would lock with the same
 * filter, without a lock: read before a re-plan's transaction, for look-ups
 * that must not run inside it (the recipients' mail providers).
 */
export async function heldStep1Recipients(q: Queryable, campaignId: string, options: HeldStep1Filter): Promise<HeldStep1Recipient[]> {
  const { sql, params } = heldStep1Where(campaignId, options);
  return executor(q).rows<HeldStep1Recipient>(
    `SELECT h."enrollmentId"::text AS "enrollmentId", (SELECT c.email FROM enrollments e JOIN contacts c ON c.id = e."contactId" WHERE e.id = h."enrollmentId") AS email
     FROM (SELECT "enrollmentId", "dueAt", id ${sql}) h ORDER BY h."dueAt", h.id`,
    params,
  );
}

/** Deletes these enrollments' sends still scheduled (to plan them again). */
export async function deleteScheduledSendsOf(q: Queryable, enrollmentIds: string[]): Promise<number> {
  return executor(q).execute(`DELETE FROM step_sends s USING unnest($1::uuid[]) AS t(e) WHERE s."enrollmentId" = t.e AND s.state = 'scheduled'`, [enrollmentIds]);
}

// The engine's gauges, the credential health check, the inbound mail's matches, and the operator's schedule view.

export const openStepSendCountColumns = columns({ scheduled: "int4", queued: "int4", sending: "int4" });
export type OpenStepSendCounts = RowOf<typeof openStepSendCountColumns>;

/** Step sends not finished yet, by state (each counted from its partial index). */
export async function countOpenStepSendsByState(q: Queryable): Promise<OpenStepSendCounts | undefined> {
  const [row] = await executor(q).rows<OpenStepSendCounts>(`
    SELECT (SELECT count(*) FROM step_sends WHERE state = 'scheduled')::int AS scheduled,
           (SELECT count(*) FROM step_sends WHERE state = 'queued')::int AS queued,
           (SELECT count(*) FROM step_sends WHERE state = 'sending')::int AS sending`);
  return row;
}

export const oldestDueSendColumns = columns({ oldest: "timestamptz?" });

/** The dueAt of the oldest scheduled send due by `now` of an active campaign of an account not suspended (one index probe per active campaign): null when none. */
export async function oldestDueReleasableSend(q: Queryable, now: Date): Promise<Date | null> {
  const [row] = await executor(q).rows<RowOf<typeof oldestDueSendColumns>>(
    `
    SELECT min(due."dueAt") AS oldest
    FROM campaigns c
    CROSS JOIN LATERAL (
      SELECT s."dueAt" FROM step_sends s
      WHERE s."accountId" = c."accountId" AND s."campaignId" = c.id AND s.state = 'scheduled'
      ORDER BY s."dueAt" LIMIT 1
    ) due
    WHERE c.status = 'active' AND due."dueAt" <= $1
      AND NOT EXISTS (SELECT 1 FROM accounts a WHERE a.id = c."accountId" AND a."suspendedAt" IS NOT NULL)`,
    [now],
  );
  return row?.oldest ?? null;
}

export const credentialBounceCountColumns = columns({ sends: "int4", bounces: "int4" });
export type CredentialBounceCount = RowOf<typeof credentialBounceCountColumns>;

/** The credential's sends that reached SMTP (sent or bounced) and its verified bounces. */
export async function countCredentialSendsAndBounces(q: Queryable, credentialId: string): Promise<CredentialBounceCount> {
  const [row] = await executor(q).rows<CredentialBounceCount>(
    `
    SELECT count(*) FILTER (WHERE state IN ('sent', 'bounced'))::int AS sends, count(*) FILTER (WHERE state = 'bounced' AND NOT "bounceUnverified")::int AS bounces
    FROM step_sends WHERE "credentialId" = $1::uuid AND state IN ('sent', 'bounced')`,
    [credentialId],
  );
  return row!;
}

export const credentialRecentHealthColumns = columns({ sends: "int4", bounces: "int4", complaints: "int4" });
export type CredentialRecentHealth = RowOf<typeof credentialRecentHealthColumns>;

/**
 * An inbox's recent record, for its spike check: the sends that reached SMTP
 * since `since` (by sentAt), those of them that bounced (verified bounces
 * only, as the bounce rate), and the spam complaints reported since then.
 */
export async function countCredentialRecentHealth(q: Queryable, credentialId: string, since: Date): Promise<CredentialRecentHealth> {
  const [row] = await executor(q).rows<CredentialRecentHealth>(
    `
    SELECT count(*) FILTER (WHERE state IN ('sent', 'bounced') AND "sentAt" >= $2)::int AS sends,
           count(*) FILTER (WHERE state = 'bounced' AND NOT "bounceUnverified" AND "sentAt" >= $2)::int AS bounces,
           count(*) FILTER (WHERE "complainedAt" >= $2)::int AS complaints
    FROM step_sends WHERE "credentialId" = $1::uuid AND state IN ('sent', 'bounced')`,
    [credentialId, since],
  );
  return row!;
}

export const complainedSendColumns = columns({ credentialId: "uuid?" });

/**
 * Marks a step as complained about (its first complaint report): the inbox it
 * went through (null when none is left), or undefined when it was already
 * marked (a replayed report) or there is no such step.
 */
export async function markSendComplained(q: Queryable, stepSendId: string, now: Date): Promise<{ credentialId: string | null } | undefined> {
  const [row] = await executor(q).rows<RowOf<typeof complainedSendColumns>>(`UPDATE step_sends SET "complainedAt" = $1 WHERE id = $2::uuid AND "complainedAt" IS NULL RETURNING "credentialId"`, [
    now,
    stepSendId,
  ]);
  return row;
}

export const sentStepColumns = columns({ id: "uuid", enrollmentId: "uuid", state: "text", credentialId: "uuid?" });
export type SentStepRow = RowOf<typeof sentStepColumns>;

/**
 * The account's step whose Message-ID is one of these (with <>), or whose id
 * is one of `stepSendIds` (the id our Message-IDs are made of, for a send
 * whose Message-ID is not recorded yet), the latest step first: null when none.
 */
export async function findStepByMessageIds(q: Queryable, accountId: string, messageIds: string[], stepSendIds: string[] = []): Promise<SentStepRow | null> {
  const rows = await executor(q).rows<SentStepRow>(
    `
    SELECT id, "enrollmentId", state::text AS state, "credentialId" FROM step_sends
    WHERE ("messageId" = ANY($1::text[]) OR id = ANY($3::uuid[])) AND "accountId" = $2::uuid
    ORDER BY "stepPosition" DESC
    LIMIT 1`,
    [messageIds, accountId, stepSendIds],
  );
  return rows[0] ?? null;
}

/** The account's step sent from this inbox to this address (lower-cased) since `sentSince`, the most recent: null when none. */
export async function findStepSentTo(q: Queryable, credentialId: string, accountId: string, email: string, sentSince: Date): Promise<SentStepRow | null> {
  const rows = await executor(q).rows<SentStepRow>(
    `
    SELECT s.id, s."enrollmentId", s.state::text AS state, s."credentialId" FROM step_sends s
    JOIN enrollments e ON e.id = s."enrollmentId" JOIN contacts c ON c.id = e."contactId"
    WHERE s."credentialId" = $1::uuid AND s."accountId" = $2::uuid
      AND c.email = $3 AND s."sentAt" >= $4
    ORDER BY s."sentAt" DESC
    LIMIT 1`,
    [credentialId, accountId, email, sentSince],
  );
  return rows[0] ?? null;
}

export const stepBounceStateColumns = columns({ state: "text", bounceUnverified: "bool" });
export type StepBounceState = RowOf<typeof stepBounceStateColumns>;

/** Locks the step send FOR UPDATE: its state and whether its bounce is unverified, undefined when it is gone. */
export async function lockStepBounceState(q: Queryable, stepSendId: string): Promise<StepBounceState | undefined> {
  const [row] = await executor(q).rows<StepBounceState>(
    `
        SELECT state::text AS state, "bounceUnverified" FROM step_sends WHERE id = $1::uuid FOR UPDATE`,
    [stepSendId],
  );
  return row;
}

export const openSendAccountColumns = columns({ accountId: "uuid" });

/**
 * Accounts with sends not finished, in id order, at most `limit + 1`: a skip
 * scan over the scheduled sends' partial index (one probe per account) and
 * the in-flight partial index (at most 10 rows per account).
 */
export async function accountsWithOpenSends(q: Queryable, limit: number): Promise<string[]> {
  const rows = await executor(q).rows<RowOf<typeof openSendAccountColumns>>(
    `
    WITH RECURSIVE scheduled AS (
      (SELECT s."accountId", 1 AS n FROM step_sends s WHERE s.state = 'scheduled' ORDER BY s."accountId" LIMIT 1)
      UNION ALL
      SELECT nxt."accountId", p.n + 1 FROM scheduled p CROSS JOIN LATERAL (
        SELECT s."accountId" FROM step_sends s
        WHERE s.state = 'scheduled' AND s."accountId" > p."accountId"
        ORDER BY s."accountId" LIMIT 1) nxt
      WHERE p.n <= $1::int)
    SELECT "accountId" FROM scheduled
    UNION
    SELECT DISTINCT s."accountId" FROM step_sends s WHERE s.state IN ('queued', 'sending')
    ORDER BY 1 LIMIT $2::int`,
    [limit, limit + 1],
  );
  return rows.map((row) => row.accountId);
}

export const scheduledSendCountColumns = columns({ accountId: "uuid", campaignId: "uuid", due: "int4", later: "int4", oldest: "timestamptz" });
export type ScheduledSendCount = RowOf<typeof scheduledSendCountColumns>;

/** The accounts' scheduled sends per campaign: due by `now`, later, and the oldest dueAt. */
export async function scheduledSendCounts(q: Queryable, accountIds: string[], now: Date): Promise<ScheduledSendCount[]> {
  return executor(q).rows<ScheduledSendCount>(
    `
      SELECT s."accountId", s."campaignId",
             count(*) FILTER (WHERE s."dueAt" <= $1)::int AS due,
             count(*) FILTER (WHERE s."dueAt" > $2)::int AS later,
             min(s."dueAt") AS oldest
      FROM step_sends s
      WHERE s."accountId" = ANY($3::uuid[]) AND s.state = 'scheduled'
      GROUP BY s."accountId", s."campaignId"`,
    [now, now, accountIds],
  );
}

export const inFlightSendCountColumns = columns({ accountId: "uuid", campaignId: "uuid", queued: "int4", sending: "int4" });
export type InFlightSendCount = RowOf<typeof inFlightSendCountColumns>;

/** The accounts' queued and sending sends per campaign. */
export async function inFlightSendCounts(q: Queryable, accountIds: string[]): Promise<InFlightSendCount[]> {
  return executor(q).rows<InFlightSendCount>(
    `
      SELECT s."accountId", s."campaignId",
             count(*) FILTER (WHERE s.state = 'queued')::int AS queued,
             count(*) FILTER (WHERE s.state = 'sending')::int AS sending
      FROM step_sends s
      WHERE s."accountId" = ANY($1::uuid[]) AND s.state IN ('queued', 'sending')
      GROUP BY s."accountId", s."campaignId"`,
    [accountIds],
  );
}

/*
 * The sending engine's statements: a send claimed and read with everything
 * its sender needs, its outcome recorded, the release of due sends, the
 * sweeps of lost and interrupted sends.
 */

/** The columns of a send's context, read from the step send(s) of relation `s` (a table or a CTE). */
const SEND_CONTEXT_COLUMNS = `
    s.id, s.state::text AS state, s."accountId", s."stepPosition", s."dueAt", s.attempts, s."credentialId",
      e.id AS "enrollmentId", e.status::text AS "enrollmentStatus", e."credentialId" AS "enrollmentCredentialId", e."stoppedAt" IS NOT NULL AS "enrollmentStopped",
      e."openedAt" AS "enrollmentOpenedAt", e."clickedAt" AS "enrollmentClickedAt",
      c.id AS "contactId", c.email, c."firstName", c."lastName", c.company, c."customFields", c."unsubscribedAt", c.timezone AS "contactTimezone",
      ${blockedAddressCondition('s."accountId"', "c.email")} AS blocked,
      cam.id AS "campaignId", cam.status::text AS "campaignStatus", cam.schedule, cam."trackClicks", cam."trackingDomain", cam."unsubscribeFooter", cam."dailyLimit" AS "campaignDailyLimit",
      st.subject, st."bodyHtml", st.variants, st.condition, st."textOnly", first.subject AS "firstSubject",
      (SELECT jsonb_agg(jsonb_build_object('id', v.e->'id', 'subject', v.e->'subject', 'weight', v.e->'weight', 'bodyHtml', '') ORDER BY v.ord)
       FROM jsonb_array_elements(first.variants) WITH ORDINALITY AS v(e, ord)) AS "firstVariants",
      a."currentPeriodStart", a."currentPeriodEnd", a."suspendedAt" IS NOT NULL AS "accountSuspended",
      -- by the enrollment's key alone: ANDed with an index of sent rows, every sent row was read per claimed send
      ARRAY(SELECT p."messageId" FROM step_sends p
            WHERE p."enrollmentId" = e.id AND p."stepPosition" < s."stepPosition" AND p.state::text = 'sent' AND p."messageId" IS NOT NULL
            ORDER BY p."stepPosition") AS "previousMessageIds",
      (SELECT coalesce(json_agg(json_build_object(
          'id', cr.id, 'fromEmail', cr."fromEmail", 'fromName', cr."fromName", 'smtpHost', cr."smtpHost", 'smtpPort', cr."smtpPort",
          'smtpSecure', cr."smtpSecure", 'smtpUsername', cr."smtpUsername", 'smtpPasswordEnc', cr."smtpPasswordEnc",
          'oauthConnectionId', cr."oauthConnectionId",
          'oauthAuthFailed', EXISTS (SELECT 1 FROM oauth_connections oc WHERE oc.id = cr."oauthConnectionId" AND oc."authFailedAt" IS NOT NULL),
          'disabled', cr."disabledAt" IS NOT NULL, 'pausedUntil', cr."pausedUntil", 'hasError', cr."smtpLastError" IS NOT NULL, 'trackingDomain', cr."trackingDomain") ORDER BY cr."createdAt", cr.id), '[]'::json)
       FROM smtp_credentials cr WHERE cr."campaignId" = cam.id) AS credentials
    FROM s
    JOIN enrollments e ON e.id = s."enrollmentId"
    JOIN contacts c ON c.id = e."contactId"
    JOIN campaigns cam ON cam.id = s."campaignId"
    JOIN accounts a ON a.id = s."accountId"
    LEFT JOIN sequence_steps st ON st."campaignId" = cam.id AND st.position = s."stepPosition"
    LEFT JOIN sequence_steps first ON first."campaignId" = cam.id AND first.position = 1 AND s."stepPosition" > 1`;

/**
 * A send with its enrollment (its first open and click, which a step's
 * condition is judged on), contact (blocked: its address is on the
 * account's blocklist), campaign, step (subject NULL when the step is gone),
 * step 1's subjects for a follow-up (firstSubject, firstVariants without
 * bodies), account, the Message-IDs of the earlier steps sent, and the
 * campaign's inboxes (credentials: a json array).
 */
export const sendContextColumns = columns({
  id: "uuid",
  state: "text",
  accountId: "uuid",
  stepPosition: "int4",
  dueAt: "timestamptz",
  attempts: "int4",
  credentialId: "uuid?",
  enrollmentId: "uuid",
  enrollmentStatus: "text",
  enrollmentCredentialId: "uuid?",
  enrollmentStopped: "bool",
  enrollmentOpenedAt: "timestamptz?",
  enrollmentClickedAt: "timestamptz?",
  contactId: "uuid",
  email: "text",
  firstName: "text?",
  lastName: "text?",
  company: "text?",
  customFields: "jsonb?",
  unsubscribedAt: "timestamptz?",
  contactTimezone: "text?",
  blocked: "bool",
  campaignId: "uuid",
  campaignStatus: "text",
  schedule: "jsonb?",
  trackClicks: "bool",
  trackingDomain: "text?",
  unsubscribeFooter: "text?",
  campaignDailyLimit: "int4?",
  subject: "text?",
  bodyHtml: "text?",
  variants: "jsonb?",
  condition: "text?",
  textOnly: "bool?",
  firstSubject: "text?",
  firstVariants: "jsonb?",
  currentPeriodStart: "timestamptz",
  currentPeriodEnd: "timestamptz",
  accountSuspended: "bool",
  previousMessageIds: "_text",
  credentials: "json",
});
export type SendContextRow = RowOf<typeof sendContextColumns>;

/** A send's context (see sendContextColumns), whatever its state: undefined when there is no such send. */
export async function sendContextOf(q: Queryable, stepSendId: string): Promise<SendContextRow | undefined> {
  const rows = await executor(q).rows<SendContextRow>(`WITH s AS (SELECT * FROM step_sends WHERE id = $1::uuid) SELECT ${SEND_CONTEXT_COLUMNS}`, [stepSendId]);
  return rows[0];
}

/**
 * Claims those of these sends still queued (queued -> sending: claimedAt,
 * claimedBy, one more attempt) and reads their contexts, in one statement on
 * the client's own pool (prepared: claim_and_load_sends). Sends in any other
 * state are not returned.
 */
export async function claimSendContexts(db: PrismaQueryable, stepSendIds: string[], claimedBy: string | null, now: Date): Promise<SendContextRow[]> {
  return fromDb(db).rows<SendContextRow>(
    `WITH s AS (
       UPDATE step_sends SET state = 'sending', "claimedAt" = $2::timestamptz, "claimedBy" = $3::text, attempts = attempts + 1, "updatedAt" = $2::timestamptz
       -- state compared as text: the ids are probed by primary key, not found by scanning an
       -- index range of the state, which fills with dead entries between vacuums of a busy table
       WHERE id = ANY($1::uuid[]) AND state::text = 'queued'
       RETURNING *)
     SELECT ${SEND_CONTEXT_COLUMNS}`,
    [stepSendIds, now, claimedBy],
    { name: "claim_and_load_sends" },
  );
}

/** Claims a queued send (queued -> sending: claimedAt, claimedBy, one more attempt): 1 when it was queued, else 0. */
export async function claimStepSend(q: Queryable, stepSendId: string, claimedBy: string | null, now: Date): Promise<number> {
  return executor(q).execute(
    `
    UPDATE step_sends SET state = 'sending', "claimedAt" = $1, "claimedBy" = $2, attempts = attempts + 1, "updatedAt" = $3
    WHERE id = $4::uuid AND state = 'queued'`,
    [now, claimedBy, now, stepSendId],
  );
}

/** A claimed send back to scheduled at `dueAt` with the reason, its claim dropped and `attemptsBack` taken off its attempts. */
export async function rescheduleClaimedSend(q: Queryable, stepSendId: string, dueAt: Date, reason: string, attemptsBack: number): Promise<number> {
  return executor(q).execute(
    `
    UPDATE step_sends SET state = 'scheduled', "dueAt" = $1, "lastError" = $2, "claimedAt" = NULL, "claimedBy" = NULL,
      attempts = attempts - $3, "updatedAt" = now()
    WHERE id = $4::uuid AND state = 'sending'`,
    [dueAt, reason, attemptsBack, stepSendId],
  );
}

/** A queued (released, unclaimed) send back to scheduled at `dueAt` with the reason. */
export async function rescheduleQueuedSend(q: Queryable, stepSendId: string, dueAt: Date, reason: string): Promise<number> {
  return executor(q).execute(
    `
    UPDATE step_sends SET state = 'scheduled', "dueAt" = $1, "lastError" = $2, "updatedAt" = now()
    WHERE id = $3::uuid AND state = 'queued'`,
    [dueAt, reason, stepSendId],
  );
}

/**
 * A released send back to scheduled at the sending window's `opening`
 * ("outside the sending window"), on `limitDay` (YYYY-MM-DD) when given:
 * `claimed`, a send in sending whose claim and attempt are undone; else a queued one.
 */
export async function deferSendToOpening(q: Queryable, stepSendId: string, opening: Date, limitDay: string | null, claimed: boolean): Promise<number> {
  return executor(q).execute(
    `
    UPDATE step_sends SET state = 'scheduled', "dueAt" = $1, "lastError" = 'outside the sending window',
      "limitDay" = COALESCE($2::date, "limitDay"), "updatedAt" = now(),
      "claimedAt" = CASE WHEN $3 THEN NULL ELSE "claimedAt" END, "claimedBy" = CASE WHEN $4 THEN NULL ELSE "claimedBy" END,
      attempts = attempts - $5::int
    WHERE id = $6::uuid AND state = $7::"StepSendState"`,
    [opening, limitDay, claimed, claimed, claimed ? 1 : 0, stepSendId, claimed ? "sending" : "queued"],
  );
}

/** Cancels a send not yet out (sending, queued or scheduled) with the reason. */
export async function cancelStepSend(q: Queryable, stepSendId: string, reason: string): Promise<number> {
  return executor(q).execute(`UPDATE step_sends SET state = 'cancelled', "lastError" = $1, "updatedAt" = now() WHERE id = $2::uuid AND state IN ('sending', 'queued', 'scheduled')`, [
    reason,
    stepSendId,
  ]);
}

/** Cancels these enrollments' steps not yet out (scheduled or queued) with the reason. */
export async function cancelPendingStepSends(q: Queryable, enrollmentIds: string[], reason: string): Promise<number> {
  return executor(q).execute(
    `
    UPDATE step_sends SET state = 'cancelled', "lastError" = $1, "updatedAt" = now()
    WHERE "enrollmentId" = ANY($2::uuid[]) AND state IN ('scheduled', 'queued')`,
    [reason, enrollmentIds],
  );
}

/** The sends recorded by recordSentSends, as parallel columns (one entry per send). */
export interface SentSendColumns {
  stepSendIds: string[];
  sentAts: Date[];
  messageIds: string[];
  credentialIds: string[];
  accountIds: string[];
  /** the billing period each send counts in */
  periodStarts: Date[];
  periodEnds: Date[];
  /** kept as the send's lastError */
  notes: Array<string | null>;
  /** DeliveryOutcome: "accepted" or "unknown" */
  outcomes: string[];
  variantIds: Array<string | null>;
}

export const sentSendColumns = columns({ stepSendId: "uuid", eventId: "uuid", movedLaterSteps: "bool" });
export type SentSendRow = RowOf<typeof sentSendColumns>;

/**
 * Records sends delivered to SMTP, in one statement on the client's own pool
 * (prepared: record_sent_batch): each send still in sending becomes sent, its
 * enrollment pending -> sent (and completed when no later step is left to
 * send: the start of its on_completion wait), its later scheduled steps moved so they keep
 * their delay after a late send, the billing period's count, and
 * enrollment.sent in the outbox (its data built here, field for field as
 * enrollmentSentData in packages/domain builds it: packages/domain/test/event-payloads.test.ts).
 * Per send written: its event id, and whether it moved later steps of a
 * campaign with a sending window. Sends not in sending are not returned and
 * nothing of theirs changes.
 */
export async function recordSentSends(db: PrismaQueryable, sends: SentSendColumns): Promise<SentSendRow[]> {
  return fromDb(db).rows<SentSendRow>(
    `WITH i AS (
       SELECT * FROM unnest($1::uuid[], $2::timestamptz[], $3::text[], $4::uuid[], $5::uuid[], $6::timestamptz[], $7::timestamptz[], $8::text[], $9::"DeliveryOutcome"[], $10::uuid[])
         AS t(id, "sentAt", "messageId", "credentialId", "accountId", "periodStart", "periodEnd", note, outcome, "variantId")),
     s AS (
       UPDATE step_sends AS u SET state = 'sent', "sentAt" = i."sentAt", "messageId" = i."messageId", "credentialId" = i."credentialId",
         "lastError" = i.note, outcome = i.outcome, "variantId" = i."variantId", "updatedAt" = i."sentAt"
       FROM i WHERE u.id = i.id AND u.state::text = 'sending' -- by primary key (see claimSendContexts)
       RETURNING u.id, u."enrollmentId", u."stepPosition", u."dueAt", u."campaignId", i."sentAt", i."credentialId", i."accountId", i."periodStart", i."periodEnd", i."variantId"),
     e AS (
       UPDATE enrollments AS n SET status = CASE WHEN n.status = 'pending' THEN 'sent'::"EnrollmentStatus" ELSE n.status END,
         "sentAt" = COALESCE(n."sentAt", s."sentAt"), "credentialId" = s."credentialId", "updatedAt" = s."sentAt",
         -- the enrollment's last step gone: the on_completion wait starts (one probe of the (enrollmentId, stepPosition) key)
         "completedAt" = CASE WHEN n."completedAt" IS NULL AND NOT EXISTS (
             SELECT 1 FROM step_sends r WHERE r."enrollmentId" = n.id AND r."stepPosition" > s."stepPosition" AND r.state IN ('scheduled', 'queued', 'sending'))
           THEN s."sentAt" ELSE n."completedAt" END
       FROM s WHERE n.id = s."enrollmentId"
       RETURNING n.id, n."contactId", n."campaignId", n.status, n."sentAt", n."repliedAt", n."bounceReason", n."accountId", s.id AS "stepSendId", s."variantId"),
     later AS (
       UPDATE step_sends AS l SET "dueAt" = s."sentAt" + (l."dueAt" - s."dueAt"), "updatedAt" = s."sentAt"
       FROM s WHERE l."enrollmentId" = s."enrollmentId" AND l."stepPosition" > s."stepPosition" AND l.state = 'scheduled' AND s."dueAt" < s."sentAt"
       RETURNING s.id AS "stepSendId"),
     usage AS (
       INSERT INTO usage_periods ("accountId", "periodStart", "periodEnd", sends)
       SELECT "accountId", "periodStart", max("periodEnd"), count(*) FROM s GROUP BY "accountId", "periodStart"
       ON CONFLICT ("accountId", "periodStart") DO UPDATE SET sends = usage_periods.sends + EXCLUDED.sends
       RETURNING 1),
     ev AS (
       INSERT INTO events ("accountId", type, data)
       SELECT e."accountId", 'enrollment.sent', jsonb_build_object(
         'enrollment_id', e.id, 'contact_id', e."contactId", 'contact_email', c.email, 'campaign_id', e."campaignId",
         'status', e.status, 'sent_at', ${isoTimeSql(`e."sentAt"`)},
         'replied_at', ${isoTimeSql(`e."repliedAt"`)}, 'bounce_reason', e."bounceReason",
         'variant_id', e."variantId")
       FROM e JOIN contacts c ON c.id = e."contactId"
       ORDER BY e."stepSendId"
       RETURNING id, (data->>'enrollment_id')::uuid AS "enrollmentId")
     SELECT e."stepSendId", ev.id AS "eventId",
       EXISTS (SELECT 1 FROM later WHERE later."stepSendId" = e."stepSendId") AND EXISTS (
         SELECT 1 FROM campaigns k WHERE k.id = e."campaignId" AND k.schedule IS NOT NULL AND k.schedule <> 'null'::jsonb) AS "movedLaterSteps"
     FROM e JOIN ev ON ev."enrollmentId" = e.id`,
    [sends.stepSendIds, sends.sentAts, sends.messageIds, sends.credentialIds, sends.accountIds, sends.periodStarts, sends.periodEnds, sends.notes, sends.outcomes, sends.variantIds],
    { name: "record_sent_batch" },
  );
}

export const sendEnrollmentColumns = columns({ enrollmentId: "uuid" });

/** A send failed as interrupted (lastError `interruptedError`) taken back to sending: its enrollment, or undefined when it is not such a send. */
export async function reviveInterruptedSend(q: Queryable, stepSendId: string, interruptedError: string): Promise<string | undefined> {
  const rows = await executor(q).rows<RowOf<typeof sendEnrollmentColumns>>(
    `
      UPDATE step_sends SET state = 'sending', "updatedAt" = now()
      WHERE id = $1::uuid AND state = 'failed' AND "lastError" = $2
      RETURNING "enrollmentId"`,
    [stepSendId, interruptedError],
  );
  return rows[0]?.enrollmentId;
}

/** The enrollment's steps cancelled with lastError `cancelledError` scheduled again (lastError cleared). */
export async function rescheduleCancelledSteps(q: Queryable, enrollmentId: string, cancelledError: string): Promise<number> {
  return executor(q).execute(
    `
        UPDATE step_sends SET state = 'scheduled', "lastError" = NULL, "updatedAt" = now()
        WHERE "enrollmentId" = $1::uuid AND state = 'cancelled' AND "lastError" = $2`,
    [enrollmentId, cancelledError],
  );
}

/**
 * A send bounced (sentAt kept or set to `now`, the reason, its inbox when
 * given, bounceUnverified = !verified) if it is sending or sent, or, for a
 * verified bounce, bounced unverified before.
 */
export async function markSendBounced(q: Queryable, bounce: { stepSendId: string; reason: string; credentialId: string | null; verified: boolean; now: Date }): Promise<number> {
  const { stepSendId, reason, credentialId, verified, now } = bounce;
  return executor(q).execute(
    `
      UPDATE step_sends SET state = 'bounced', "sentAt" = COALESCE("sentAt", $1), "lastError" = $2, "updatedAt" = $3,
        "credentialId" = COALESCE($4::uuid, "credentialId"), "bounceUnverified" = $5
      WHERE id = $6::uuid AND (state IN ('sending', 'sent') OR ($7 AND state = 'bounced' AND "bounceUnverified"))`,
    [now, reason, now, credentialId, !verified, stepSendId, verified],
  );
}

/** A send in sending skipped (its step's condition failed when it fell due) with the reason: 1 when it was sending, else 0. */
export async function skipSendingSend(q: Queryable, stepSendId: string, reason: string, now: Date): Promise<number> {
  return executor(q).execute(`UPDATE step_sends SET state = 'skipped', "lastError" = $1, "updatedAt" = $2 WHERE id = $3::uuid AND state = 'sending'`, [reason, now, stepSendId]);
}

/** A send in sending failed for good with the error. */
export async function failSendingSend(q: Queryable, stepSendId: string, error: string, now: Date): Promise<number> {
  return executor(q).execute(`UPDATE step_sends SET state = 'failed', "lastError" = $1, "updatedAt" = $2 WHERE id = $3::uuid AND state = 'sending'`, [error, now, stepSendId]);
}

/** The enrollment of a send, or undefined when there is no such send. */
export async function enrollmentOfSend(q: Queryable, stepSendId: string): Promise<string | undefined> {
  const [row] = await executor(q).rows<RowOf<typeof sendEnrollmentColumns>>(`SELECT "enrollmentId" FROM step_sends WHERE id = $1::uuid`, [stepSendId]);
  return row?.enrollmentId;
}

/**
 * Sends in sending claimed before `claimedBefore` or by one of `deadClaimers`
 * failed with `error` at `now`: their enrollments, one per send failed.
 */
export async function failSendingSendsOf(q: Queryable, error: string, now: Date, claimedBefore: Date, deadClaimers: string[]): Promise<string[]> {
  const rows = await executor(q).rows<RowOf<typeof sendEnrollmentColumns>>(
    `
    UPDATE step_sends SET state = 'failed', "lastError" = $1, "updatedAt" = $2
    WHERE state = 'sending' AND ("claimedAt" < $3 OR "claimedBy" = ANY($4::text[]))
    RETURNING "enrollmentId"`,
    [error, now, claimedBefore, deadClaimers],
  );
  return rows.map((row) => row.enrollmentId);
}

export const sendClaimerColumns = columns({ claimedBy: "text!" });

/** The processes holding sends in sending that they claimed before `claimedBefore`. */
export async function sendingSendClaimers(q: Queryable, claimedBefore: Date): Promise<string[]> {
  const rows = await executor(q).rows<RowOf<typeof sendClaimerColumns>>(
    `
    SELECT DISTINCT "claimedBy" FROM step_sends WHERE state = 'sending' AND "claimedBy" IS NOT NULL AND "claimedAt" < $1`,
    [claimedBefore],
  );
  return rows.map((row) => row.claimedBy);
}

export const releasedSendColumns = columns({ id: "uuid", accountId: "uuid", releasedAt: "timestamptz", credentialId: "uuid?", accountWasIdle: "bool" });
export type ReleasedSendRow = RowOf<typeof releasedSendColumns>;

/**
 * The SQL function release_due_sends (packages/db/sql/functions/release_due_sends.sql)
 * for one account, on the client's own pool (prepared: release_due_sends):
 * its due sends queued, at most `limit` minus what is in flight, those of
 * `preferCredentialId` first among the next `window` due ones.
 */
export async function releaseDueSendsFor(db: PrismaQueryable, accountId: string, now: Date, limit: number, preferCredentialId: string | null, window: number): Promise<ReleasedSendRow[]> {
  return fromDb(db).rows<ReleasedSendRow>(
    `SELECT id, "accountId", "releasedAt", "credentialId", "accountWasIdle"
     FROM release_due_sends($1::uuid, $2::timestamptz, $3::int, $4::uuid, $5::int)`,
    [accountId, now, limit, preferCredentialId, window],
    { name: "release_due_sends" },
  );
}

/** release_due_sends for each of the accounts (no preferred inbox), in one statement on the client's own pool (prepared: release_due_sends_of_accounts). */
export async function releaseDueSendsForAccounts(db: PrismaQueryable, accountIds: string[], now: Date, limit: number, window: number): Promise<ReleasedSendRow[]> {
  return fromDb(db).rows<ReleasedSendRow>(
    `SELECT r.id, r."accountId", r."releasedAt", r."credentialId", r."accountWasIdle"
     FROM unnest($1::uuid[]) AS a(id)
     CROSS JOIN LATERAL release_due_sends(a.id, $2::timestamptz, $3::int, NULL::uuid, $4::int) AS r`,
    [accountIds, now, limit, window],
    { name: "release_due_sends_of_accounts" },
  );
}

export const dueCampaignPairColumns = columns({ accountId: "uuid", campaignId: "uuid", due: "bool" });
export type DueCampaignPairRow = RowOf<typeof dueCampaignPairColumns>;

/**
 * A skip scan over the distinct (account, campaign) pairs with scheduled sends
 * (step_sends_due_campaign_idx) after the pair `after`, in order: each pair
 * once, `due` when its earliest send is due by `now`, its campaign active and
 * its account not suspended; at most `scanLimit` pairs, stopping once
 * `maxDue` due ones were found.
 */
export async function scanDueCampaignPairs(q: Queryable, now: Date, after: { accountId: string; campaignId: string }, scanLimit: number, maxDue: number): Promise<DueCampaignPairRow[]> {
  return executor(q).rows<DueCampaignPairRow>(
    `
    WITH RECURSIVE pairs AS (
      SELECT f."accountId", f."campaignId", f.due, 1 AS n, f.due::int AS found
      FROM (SELECT s."accountId", s."campaignId",
                   (s."dueAt" <= $1 AND (SELECT c.status FROM campaigns c WHERE c.id = s."campaignId") = 'active'
                    AND (SELECT a."suspendedAt" FROM accounts a WHERE a.id = s."accountId") IS NULL) AS due
            FROM step_sends s
            WHERE s.state = 'scheduled' AND (s."accountId", s."campaignId") > ($2::uuid, $3::uuid)
            ORDER BY s."accountId", s."campaignId", s."dueAt" LIMIT 1) f
      UNION ALL
      SELECT nxt."accountId", nxt."campaignId", nxt.due, p.n + 1, p.found + nxt.due::int
      FROM pairs p CROSS JOIN LATERAL (
        SELECT s."accountId", s."campaignId",
               (s."dueAt" <= $4 AND (SELECT c.status FROM campaigns c WHERE c.id = s."campaignId") = 'active'
                AND (SELECT a."suspendedAt" FROM accounts a WHERE a.id = s."accountId") IS NULL) AS due
        FROM step_sends s
        WHERE s.state = 'scheduled' AND (s."accountId", s."campaignId") > (p."accountId", p."campaignId")
        ORDER BY s."accountId", s."campaignId", s."dueAt" LIMIT 1) nxt
      WHERE p.n < $5::int AND p.found < $6::int)
    SELECT "accountId", "campaignId", due FROM pairs`,
    [now, after.accountId, after.campaignId, now, scanLimit, maxDue],
  );
}

export const staleQueuedSendColumns = columns({ id: "uuid", accountId: "uuid", releasedAt: "timestamptz" });
export type StaleQueuedSendRow = RowOf<typeof staleQueuedSendColumns>;

/** Up to `limit` sends queued (released) before `releasedBefore` and still queued, oldest first: releasedAt is their updatedAt. */
export async function queuedSendsReleasedBefore(q: Queryable, releasedBefore: Date, limit: number): Promise<StaleQueuedSendRow[]> {
  return executor(q).rows<StaleQueuedSendRow>(
    `
    SELECT id, "accountId", "updatedAt" AS "releasedAt" FROM step_sends
    WHERE state = 'queued' AND "updatedAt" < $1
    ORDER BY "updatedAt" LIMIT $2`,
    [releasedBefore, limit],
  );
}

/** Lost releases of queued sends as parallel columns: the send, the release (its updatedAt when queued, ISO), why. */
export interface LostReleaseColumns {
  ids: string[];
  releasedAts: string[];
  reasons: string[];
}

export const requeuedSendColumns = columns({ enrollmentId: "uuid", failed: "bool" });
export type RequeuedSendRow = RowOf<typeof requeuedSendColumns>;

/**
 * Sends still queued from the same release back to scheduled with the reason;
 * `countFailure`: the release counts as a failure of the send, which fails
 * instead at its `maxFailures`-th (lastError says so). Per send changed: its
 * enrollment, and whether it failed.
 */
export async function requeueLostReleases(q: Queryable, lost: LostReleaseColumns, countFailure: boolean, maxFailures: number, now: Date): Promise<RequeuedSendRow[]> {
  return executor(q).rows<RequeuedSendRow>(
    `
    UPDATE step_sends AS s SET
      "releaseFailures" = s."releaseFailures" + $1::int,
      state = CASE WHEN $2 AND s."releaseFailures" + 1 >= $3 THEN 'failed'::"StepSendState" ELSE 'scheduled'::"StepSendState" END,
      "lastError" = left(CASE WHEN $4 AND s."releaseFailures" + 1 >= $5
        THEN 'its job ended ' || (s."releaseFailures" + 1) || ' times without sending; last: ' || lost.reason
        ELSE lost.reason END, 1000),
      "updatedAt" = $6
    FROM unnest($7::uuid[], $8::timestamptz[], $9::text[]) AS lost(id, "releasedAt", reason)
    WHERE s.id = lost.id AND s.state = 'queued' AND s."updatedAt" = lost."releasedAt"
    RETURNING s."enrollmentId", s.state = 'failed' AS failed`,
    [countFailure ? 1 : 0, countFailure, maxFailures, countFailure, maxFailures, now, lost.ids, lost.releasedAts, lost.reasons],
  );
}

export const sendToFitColumns = columns({ id: "uuid", dueAt: "timestamptz", schedule: "jsonb!", timezone: "text?" });
export type SendToFitRow = RowOf<typeof sendToFitColumns>;

/**
 * The scheduled sends to fit into the sending window of the send's campaign
 * (none when it has no schedule), with the schedule and the contact's zone:
 * "followUps", the enrollment's later steps; "retry", the send itself.
 */
export async function sendsToFitInWindow(q: Queryable, stepSendId: string, which: "followUps" | "retry"): Promise<SendToFitRow[]> {
  const sends = which === "followUps" ? `l."enrollmentId" = s."enrollmentId" AND l."stepPosition" > s."stepPosition"` : `l.id = s.id`;
  return executor(q).rows<SendToFitRow>(
    `
    SELECT l.id, l."dueAt", k.schedule, c.timezone
    FROM step_sends s
    JOIN campaigns k ON k.id = s."campaignId" AND k.schedule IS NOT NULL AND k.schedule <> 'null'::jsonb
    JOIN step_sends l ON ${sends} AND l.state = 'scheduled'
    JOIN enrollments e ON e.id = s."enrollmentId"
    JOIN contacts c ON c.id = e."contactId"
    WHERE s.id = $1::uuid`,
    [stepSendId],
  );
}

/** A scheduled send moved to `dueAt`. */
export async function moveScheduledSend(q: Queryable, stepSendId: string, dueAt: Date): Promise<number> {
  return executor(q).execute(`UPDATE step_sends SET "dueAt" = $1, "updatedAt" = now() WHERE id = $2::uuid AND state = 'scheduled'`, [dueAt, stepSendId]);
}

export const sentVariantColumns = columns({ variantId: "uuid?" });

/** The A/B variant of the latest step sent (or bounced) to the enrollment: null without one. */
export async function latestSentVariant(q: Queryable, enrollmentId: string): Promise<string | null> {
  const rows = await executor(q).rows<RowOf<typeof sentVariantColumns>>(
    `
    SELECT "variantId" FROM step_sends WHERE "enrollmentId" = $1::uuid AND state IN ('sent', 'bounced')
    ORDER BY "stepPosition" DESC LIMIT 1`,
    [enrollmentId],
  );
  return rows[0]?.variantId ?? null;
}

export const sentTemplateColumns = columns({ bodyHtml: "text", variants: "jsonb?", variantId: "text?" });
export type SentTemplateRow = RowOf<typeof sentTemplateColumns>;

/** The step templates of the enrollment's sends that went out or may have (sending, sent, bounced, failed), with the variant sent. */
export async function sentStepTemplates(q: Queryable, enrollmentId: string): Promise<SentTemplateRow[]> {
  return executor(q).rows<SentTemplateRow>(
    `
    SELECT st."bodyHtml", st.variants, s."variantId"::text AS "variantId"
    FROM step_sends s JOIN sequence_steps st ON st."campaignId" = s."campaignId" AND st.position = s."stepPosition"
    WHERE s."enrollmentId" = $1::uuid AND s.state IN ('sending', 'sent', 'bounced', 'failed')`,
    [enrollmentId],
  );
}

export const lockedSendIdColumns = columns({ id: "uuid" });

/**
 * Locks FOR UPDATE, in id order, the steps not yet out (scheduled, queued) of
 * the contact's enrollments whose status is one of `statuses`: their ids.
 */
export async function lockPendingSendsOfContact(q: Queryable, contactId: string, statuses: readonly string[]): Promise<string[]> {
  const rows = await executor(q).rows<RowOf<typeof lockedSendIdColumns>>(
    `
    SELECT s.id FROM step_sends s JOIN enrollments e ON e.id = s."enrollmentId"
    WHERE e."contactId" = $1::uuid AND e.status::text = ANY($2::text[]) AND s.state IN ('scheduled', 'queued')
    ORDER BY s.id
    FOR UPDATE OF s`,
    [contactId, statuses],
  );
  return rows.map((row) => row.id);
}
