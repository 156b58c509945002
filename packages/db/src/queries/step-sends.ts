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
