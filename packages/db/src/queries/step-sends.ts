import { columns, type RowOf } from "./columns.js";
import { executor, type Queryable } from "./executor.js";

/*
 * Statements on step_sends (one durable row per enrollment and step: the
 * send's schedule and state) that the API runs: counts of held sends, the
 * forecast, a mailbox's day, the step a relay report is about. The engine's
 * own statements (plan, release, claim, record) are still in
 * packages/domain and the sender.
 */

export const heldSendsAndStepsColumns = columns({ held: "int4", steps: "int4" });
export type HeldSendsAndSteps = RowOf<typeof heldSendsAndStepsColumns>;

/** The campaign's held sends (step 1 still scheduled) and its number of steps, in one statement. */
export async function countHeldSendsAndSteps(q: Queryable, campaignId: string): Promise<HeldSendsAndSteps> {
  const [row] = await executor(q).rows<HeldSendsAndSteps>(`
    SELECT (SELECT count(*)::int FROM step_sends WHERE "campaignId" = $1::uuid AND "stepPosition" = 1 AND state = 'scheduled') AS held,
           (SELECT count(*)::int FROM sequence_steps WHERE "campaignId" = $2::uuid) AS steps`, [campaignId, campaignId]);
  return row!;
}

export const countColumns = columns({ n: "int4" });

/** The campaign's held sends (step 1 still scheduled), those created before `createdBefore` when given. */
export async function countHeldStep1Sends(q: Queryable, campaignId: string, createdBefore?: Date): Promise<number> {
  const [row] = await executor(q).rows<RowOf<typeof countColumns>>(`
    SELECT count(*)::int AS n FROM step_sends
    WHERE "campaignId" = $1::uuid AND "stepPosition" = 1 AND state = 'scheduled'
      AND "createdAt" < COALESCE($2::timestamptz, 'infinity')`, [campaignId, createdBefore ?? null]);
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
  return executor(q).rows<ForecastDayRow>(`
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
    ORDER BY g.day`, [zone, campaignId, start, end, campaignId, start, campaignId, firstDay, lastDay]);
}

export const mailboxUsageColumns = columns({ used: "int4" });

/**
 * What a mailbox (an account's SMTP host and username, "host username"
 * lower-cased) has used of a day: its step sends booked on that day that have
 * not ended cancelled or failed, and its answers to replies that have not failed.
 */
export async function countMailboxDayUsage(q: Queryable, accountId: string, mailbox: string, day: string): Promise<number> {
  const [usage] = await executor(q).rows<RowOf<typeof mailboxUsageColumns>>(`
    SELECT (
      (SELECT count(*) FROM step_sends s JOIN smtp_credentials k ON k.id = s."credentialId"
       WHERE k."accountId" = $1::uuid AND lower(k."smtpHost") || ' ' || lower(k."smtpUsername") = $2
         AND s."limitDay" = $3::date AND s.state NOT IN ('cancelled', 'failed'))
      + (SELECT count(*) FROM reply_answers a JOIN smtp_credentials k ON k.id = a."credentialId"
       WHERE k."accountId" = $4::uuid AND lower(k."smtpHost") || ' ' || lower(k."smtpUsername") = $5
         AND a."limitDay" = $6::date AND a.state <> 'failed')
    )::int AS used`, [accountId, mailbox, day, accountId, mailbox, day]);
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

/** Locks the campaign's held sends (step 1 still scheduled) FOR UPDATE, in (dueAt, id) order, filtered as asked. */
export async function lockHeldStep1Sends(q: Queryable, campaignId: string, options: HeldStep1Filter): Promise<HeldStep1Row[]> {
  const params: unknown[] = [campaignId];
  const param = (value: unknown) => `$${params.push(value)}`;
  return executor(q).rows<HeldStep1Row>(
    `SELECT id::text AS id, "enrollmentId"::text AS "enrollmentId", "dueAt" FROM step_sends
     WHERE "campaignId" = $1::uuid AND "stepPosition" = 1 AND state = 'scheduled'
       ${options.credentialId ? `AND "credentialId" = ${param(options.credentialId)}::uuid` : ""}
       ${options.createdBefore ? `AND "createdAt" < ${param(options.createdBefore.toISOString())}::timestamptz` : ""}
       ${options.after ? `AND ("dueAt", id) > (${param(options.after.dueAt.toISOString())}::timestamptz, ${param(options.after.id)}::uuid)` : ""}
     ORDER BY "dueAt", id
     ${options.limit !== undefined ? `LIMIT ${param(options.limit)}::int` : ""}
     FOR UPDATE`,
    params,
  );
}

/** Deletes these enrollments' sends still scheduled (to plan them again). */
export async function deleteScheduledSendsOf(q: Queryable, enrollmentIds: string[]): Promise<number> {
  return executor(q).execute(`DELETE FROM step_sends s USING unnest($1::uuid[]) AS t(e) WHERE s."enrollmentId" = t.e AND s.state = 'scheduled'`, [enrollmentIds]);
}
