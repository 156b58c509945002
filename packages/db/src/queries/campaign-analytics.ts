import { columns, type RowOf } from "./columns.js";
import { executor, type Queryable } from "./executor.js";

/*
 * The reads of GET /campaigns/:id/analytics: what happened in a campaign, at
 * the finest grain the endpoint groups by (step, A/B variant, day of the
 * campaign's zone). The caller sums the rows into its groups and reads both
 * statements in one snapshot (a REPEATABLE READ transaction).
 */

export interface AnalyticsRange {
  campaignId: string;
  /** events at or after `from` and before `to`; null leaves that side open */
  from: Date | null;
  to: Date | null;
  /** the IANA zone days are counted in */
  zone: string;
  /** campaignEventCounts: the day of each event (else null), so the step and variant views skip the zone conversion */
  byDay: boolean;
}

/**
 * For the rest of this transaction, how the analytics statements are planned:
 * no JIT compilation (their cost estimates trigger it, and compiling took
 * longer, 0.5 s, than it saved), and parallel workers for the per-event probes
 * of campaignEventCounts, which the default parallel_tuple_cost (0.1, over
 * the estimated events) keeps serial (at 1M sends: 900 ms serial, 580 ms with
 * two workers).
 */
export async function planAnalyticsReads(q: Queryable): Promise<void> {
  // set_config(..., true): SET LOCAL, both in one statement
  await executor(q).execute(`SELECT set_config('jit', 'off', true), set_config('parallel_tuple_cost', '0.01', true)`);
}

/** Delivered to SMTP: sent, or bounced after being sent (a send refused during the SMTP session never got a Message-ID). The predicate of step_sends_delivered_idx. */
const DELIVERED = `s."sentAt" IS NOT NULL AND (s.state = 'sent' OR (s.state = 'bounced' AND s."messageId" IS NOT NULL))`;
const IN_RANGE = `($2::timestamptz IS NULL OR s."sentAt" >= $2::timestamptz) AND ($3::timestamptz IS NULL OR s."sentAt" < $3::timestamptz)`;

export const analyticsSendColumns = columns({ step: "int4", variant_id: "text?", day: "text?", sent: "int4" });
export type AnalyticsSendRow = RowOf<typeof analyticsSendColumns>;

/**
 * The campaign's steps delivered to SMTP, per step and variant (day null):
 * sent, or bounced after being sent. A send refused during the SMTP session
 * is bounced too but was never given a Message-ID (recordSentSends sets it;
 * markSendBounced does not), so it is not counted. An index-only scan of
 * step_sends_delivered_idx.
 */
export async function campaignSendCounts(q: Queryable, range: AnalyticsRange): Promise<AnalyticsSendRow[]> {
  return executor(q).rows<AnalyticsSendRow>(
    `
      SELECT step, variant_id::text, NULL::text AS day, sent::int
      FROM (
        SELECT s."stepPosition" AS step, s."variantId" AS variant_id, count(*) AS sent
        FROM step_sends s
        WHERE s."campaignId" = $1::uuid AND ${DELIVERED} AND ${IN_RANGE}
        GROUP BY 1, 2) c`,
    [range.campaignId, range.from, range.to],
  );
}

/**
 * The same per step, variant and day of the zone. Each day's sends are read as
 * a range of step_sends_delivered_idx (the day's start and end in the zone),
 * so no row's time is converted (converting and formatting every row's time
 * took twice as long at 1M sends).
 */
export async function campaignDailySendCounts(q: Queryable, range: AnalyticsRange): Promise<AnalyticsSendRow[]> {
  return executor(q).rows<AnalyticsSendRow>(
    `
      WITH bounds AS (
        SELECT min(s."sentAt") AS lo, max(s."sentAt") AS hi
        FROM step_sends s
        WHERE s."campaignId" = $1::uuid AND ${DELIVERED} AND ${IN_RANGE}),
      days AS (
        SELECT d::date AS day, d::timestamp AT TIME ZONE $4::text AS starts, (d + interval '1 day')::timestamp AT TIME ZONE $4::text AS ends
        FROM bounds, generate_series((bounds.lo AT TIME ZONE $4::text)::date, (bounds.hi AT TIME ZONE $4::text)::date, interval '1 day') d)
      SELECT step, variant_id::text, to_char(day, 'YYYY-MM-DD') AS day, sent::int
      FROM (
        SELECT s."stepPosition" AS step, s."variantId" AS variant_id, days.day, count(*) AS sent
        FROM days
        JOIN step_sends s ON s."campaignId" = $1::uuid AND s."sentAt" >= days.starts AND s."sentAt" < days.ends AND ${DELIVERED} AND ${IN_RANGE}
        GROUP BY 1, 2, 3) c`,
    [range.campaignId, range.from, range.to, range.zone],
  );
}

/**
 * kind: opened | clicked | replied | bounced | unsubscribed, or reply:<category>
 * (an inbound reply or auto-reply, `other` when it has no category).
 */
export const analyticsEventColumns = columns({ kind: "text", step: "int4", variant_id: "text?", day: "text?", count: "int4" });
export type AnalyticsEventRow = RowOf<typeof analyticsEventColumns>;

/**
 * What the campaign's enrollments did, per kind, step, variant and (with
 * byDay) day of the event: the first open, the first click, the reply, the
 * bounce and the unsubscribe of each enrollment (its timestamps), and every
 * reply or auto-reply matched to one (inbound_messages, by category). Each is
 * credited to the step last sent to the enrollment at or before the event
 * (the greatest sentAt <= the event's time, one probe of
 * step_sends_sent_enrollment_idx; a send refused by SMTP counts here, so its
 * bounce goes to its own step), or, when every send is later than the event
 * (clocks apart), to its earliest step. An enrollment that never had a send
 * is not counted.
 */
export async function campaignEventCounts(q: Queryable, range: AnalyticsRange): Promise<AnalyticsEventRow[]> {
  return executor(q).rows<AnalyticsEventRow>(
    `
      WITH ev AS (
        SELECT e.id AS enrollment_id, k.kind, k.at
        FROM enrollments e
        CROSS JOIN LATERAL (VALUES ('opened', e."openedAt"), ('clicked', e."clickedAt"), ('replied', e."repliedAt"),
                                   ('bounced', e."bouncedAt"), ('unsubscribed', e."unsubscribedAt")) AS k(kind, at)
        WHERE e."campaignId" = $1::uuid AND k.at IS NOT NULL
          AND ($2::timestamptz IS NULL OR k.at >= $2::timestamptz) AND ($3::timestamptz IS NULL OR k.at < $3::timestamptz)
        UNION ALL
        SELECT m."enrollmentId", 'reply:' || COALESCE(m.category, 'other'), m."receivedAt"
        FROM inbound_messages m
        WHERE m."campaignId" = $1::uuid AND m.kind IN ('reply', 'auto_reply') AND m."enrollmentId" IS NOT NULL
          AND ($2::timestamptz IS NULL OR m."receivedAt" >= $2::timestamptz) AND ($3::timestamptz IS NULL OR m."receivedAt" < $3::timestamptz)),
      counted AS (
        SELECT ev.kind, COALESCE(last."stepPosition", earliest."stepPosition") AS step, COALESCE(last."variantId", earliest."variantId") AS variant_id,
          CASE WHEN $4::boolean THEN (ev.at AT TIME ZONE $5::text)::date END AS day, count(*) AS n
        FROM ev
        LEFT JOIN LATERAL (
          SELECT "stepPosition", "variantId" FROM step_sends
          WHERE "enrollmentId" = ev.enrollment_id AND "sentAt" IS NOT NULL AND "sentAt" <= ev.at
          ORDER BY "sentAt" DESC LIMIT 1) last ON true
        LEFT JOIN LATERAL (
          SELECT "stepPosition", "variantId" FROM step_sends
          WHERE last."stepPosition" IS NULL AND "enrollmentId" = ev.enrollment_id AND "sentAt" IS NOT NULL
          ORDER BY "sentAt" LIMIT 1) earliest ON true
        WHERE last."stepPosition" IS NOT NULL OR earliest."stepPosition" IS NOT NULL
        GROUP BY 1, 2, 3, 4)
      SELECT kind, step, variant_id::text, to_char(day, 'YYYY-MM-DD') AS day, n::int AS count
      FROM counted`,
    [range.campaignId, range.from, range.to, range.byDay, range.zone],
  );
}
