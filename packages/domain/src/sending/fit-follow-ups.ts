import { moveScheduledSend, sendsToFitInWindow } from "@outreach/db";
import { nextOpening, parseSchedule, scheduleZone } from "./send-window.js";
import type { Tx } from "../tx.js";

/**
 * After a step was sent (recordSent moved the later steps to keep their delay
 * from its actual send), moves those later steps into the campaign's sending
 * window, in the contact's zone when the schedule says so. Nothing to do for a
 * campaign without a schedule (the query returns no row).
 */
export async function fitFollowUpsToWindow(tx: Tx, stepSendId: string): Promise<number> {
  return fitToWindow(tx, stepSendId, "followUps");
}

/** A send given back to the schedule for a retry: its new time moved into the window. */
export async function fitRetryToWindow(tx: Tx, stepSendId: string): Promise<number> {
  return fitToWindow(tx, stepSendId, "retry");
}

async function fitToWindow(tx: Tx, stepSendId: string, which: "followUps" | "retry"): Promise<number> {
  const rows = await sendsToFitInWindow(tx, stepSendId, which);
  let moved = 0;
  for (const row of rows) {
    const schedule = parseSchedule(row.schedule);
    const dueAt = nextOpening(schedule, scheduleZone(schedule, row.timezone), row.dueAt);
    if (dueAt.getTime() === row.dueAt.getTime()) continue;
    await moveScheduledSend(tx, row.id, dueAt);
    moved++;
  }
  return moved;
}
