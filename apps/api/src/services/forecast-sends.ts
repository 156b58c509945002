import { forecastSendDays, type Db } from "@outreach/db";
import { dayAfter, localDay, openingFromDay, parseSchedule, scheduleZone } from "@outreach/domain";
import { findCampaign } from "./find-campaign.js";

export interface ForecastDay {
  date: string;
  step1: number;
  followUps: number;
  total: number;
}

export interface SendForecast {
  campaignId: string;
  /** the zone the days are counted in: the schedule's, UTC without one */
  timezone: string;
  days: ForecastDay[];
  totalScheduled: number;
  overdue: number;
  undispatchedPending: number;
}

/**
 * Sends still to go out (step_sends scheduled or queued) per day from today
 * for `days` days, days of the campaign schedule's time zone (the days its
 * daily limits count; UTC without a schedule), every day present; total_scheduled is the sum over those
 * days. overdue: scheduled rows due before today; undispatched_pending: pending
 * enrollments no dispatch has planned yet. One aggregate query.
 */
export async function forecastSends(db: Db, accountId: string, campaignId: string, days: number, now = new Date()): Promise<SendForecast> {
  const campaign = await findCampaign(db, accountId, campaignId);
  const zone = scheduleZone(parseSchedule(campaign.schedule), null);
  const firstDay = localDay(zone, now);
  let lastDay = firstDay;
  for (let i = 1; i < days; i++) lastDay = dayAfter(lastDay);
  const start = openingFromDay(null, zone, firstDay);
  const end = openingFromDay(null, zone, dayAfter(lastDay));
  const rows = await forecastSendDays(db, { campaignId: campaign.id, zone, start, end, firstDay, lastDay });
  const forecastDays = rows.map((row) => ({ date: row.date, step1: row.step_1, followUps: row.follow_ups, total: row.step_1 + row.follow_ups }));
  return {
    campaignId: campaign.id,
    timezone: zone,
    days: forecastDays,
    totalScheduled: forecastDays.reduce((sum, day) => sum + day.total, 0),
    overdue: rows[0]?.overdue ?? 0,
    undispatchedPending: rows[0]?.undispatched ?? 0,
  };
}
