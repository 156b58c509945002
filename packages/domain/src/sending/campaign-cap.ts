import { campaignDayBookingsFrom, deferSendToOpening, lockCampaignRow } from "@outreach/db";
import { inTransaction, type Tx } from "../tx.js";
import { dayAfter, openingFromDay, sendDay, type SendSchedule } from "./send-window.js";

/** More days than any deferral looks ahead: a guard against a cap that never has room. */
const MAX_DAYS_AHEAD = 3660;

export interface DeferredSend {
  stepSendId: string;
  stepPosition: number;
  campaignId: string;
  /** the campaign's daily_limit (null: none) */
  campaignDailyLimit: number | null;
  schedule: SendSchedule | null;
  zone: string;
}

/**
 * A claimed send whose sending window has closed (it was due inside it, but
 * waited for a slot or a session), back to the schedule at the window's next
 * opening without spending an attempt (its claim and attempt undone); a step 1
 * is booked against the daily limits of the day it now goes out on. With a campaign daily_limit,
 * that day is the first from the opening's on on which the campaign still has
 * room (its own booking aside), found under the campaign's row lock, which
 * every planner of the campaign holds while it books: the cap holds however
 * many senders defer at once.
 */
export async function deferToNextOpening(db: Tx, send: DeferredSend, opening: Date): Promise<void> {
  if (send.stepPosition !== 1) return void (await deferSendToOpening(db, send.stepSendId, opening, null, true));
  const day = sendDay(send.schedule, send.zone, opening);
  if (send.campaignDailyLimit === null) return void (await deferSendToOpening(db, send.stepSendId, opening, day, true));
  const limit = send.campaignDailyLimit;
  await inTransaction(db, async (tx) => {
    await lockCampaignRow(tx, send.campaignId);
    const rows = await campaignDayBookingsFrom(tx, send.campaignId, day, send.stepSendId);
    const booked = new Map(rows.map((r) => [r.day, r.n]));
    let at = opening;
    let on = day;
    for (let i = 0; i < MAX_DAYS_AHEAD && (booked.get(on) ?? 0) >= limit; i++) {
      at = openingFromDay(send.schedule, send.zone, dayAfter(on));
      on = sendDay(send.schedule, send.zone, at);
    }
    await deferSendToOpening(tx, send.stepSendId, at, on, true);
  });
}
