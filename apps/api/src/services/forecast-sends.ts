import type { Db } from "@outreach/db";
import { findCampaign } from "./find-campaign.js";

const DAY_MS = 86_400_000;

export interface ForecastDay {
  date: string;
  step1: number;
  followUps: number;
  total: number;
}

export interface SendForecast {
  campaignId: string;
  days: ForecastDay[];
  totalScheduled: number;
  overdue: number;
  undispatchedPending: number;
}

interface ForecastRow {
  date: string;
  step_1: number;
  follow_ups: number;
  overdue: number;
  undispatched: number;
}

/**
 * Sends still to go out (step_sends scheduled or queued) per UTC day from today
 * for `days` days, every day present; total_scheduled is the sum over those
 * days. overdue: scheduled rows due before today; undispatched_pending: pending
 * enrollments no dispatch has planned yet. One aggregate query.
 */
export async function forecastSends(db: Db, accountId: string, campaignId: string, days: number, now = new Date()): Promise<SendForecast> {
  const campaign = await findCampaign(db, accountId, campaignId);
  const start = new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS);
  const end = new Date(start.getTime() + days * DAY_MS);
  const rows = await db.$queryRaw<ForecastRow[]>`
    WITH buckets AS (
      SELECT date_trunc('day', "dueAt" AT TIME ZONE 'UTC') AS day,
             count(*) FILTER (WHERE "stepPosition" = 1) AS step_1,
             count(*) FILTER (WHERE "stepPosition" > 1) AS follow_ups
      FROM step_sends
      WHERE "campaignId" = ${campaign.id}::uuid AND state IN ('scheduled', 'queued') AND "dueAt" >= ${start} AND "dueAt" < ${end}
      GROUP BY 1
    )
    SELECT to_char(g.day, 'YYYY-MM-DD') AS date,
           COALESCE(b.step_1, 0)::int AS step_1,
           COALESCE(b.follow_ups, 0)::int AS follow_ups,
           (SELECT count(*) FROM step_sends
             WHERE "campaignId" = ${campaign.id}::uuid AND state = 'scheduled' AND "dueAt" < ${start})::int AS overdue,
           (SELECT count(*) FROM enrollments
             WHERE "campaignId" = ${campaign.id}::uuid AND status = 'pending' AND "dispatchedAt" IS NULL)::int AS undispatched
    FROM generate_series(${start}::timestamptz AT TIME ZONE 'UTC', ${new Date(end.getTime() - DAY_MS)}::timestamptz AT TIME ZONE 'UTC', interval '1 day') AS g(day)
    LEFT JOIN buckets b ON b.day = g.day
    ORDER BY g.day`;
  const forecastDays = rows.map((row) => ({ date: row.date, step1: row.step_1, followUps: row.follow_ups, total: row.step_1 + row.follow_ups }));
  return {
    campaignId: campaign.id,
    days: forecastDays,
    totalScheduled: forecastDays.reduce((sum, day) => sum + day.total, 0),
    overdue: rows[0]?.overdue ?? 0,
    undispatchedPending: rows[0]?.undispatched ?? 0,
  };
}
