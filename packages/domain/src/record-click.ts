import { enrollmentEventData, recordEvent } from "./record-event.js";
import type { Tx } from "./tx.js";

/**
 * Records a click of a tracked link. The enrollment's first click sets
 * clickedAt and emits enrollment.clicked (an opt-in event) with the link's
 * destination; later clicks change nothing and cost one plain read. Returns
 * whether this was the first click. The enrollment's status is not changed: a
 * click is counted beside it (totals.clicked), like an open is credited in
 * open_rate.
 */
export async function recordClick(db: Tx, enrollmentId: string, url: string, now = new Date()): Promise<boolean> {
  const seen = await db.enrollment.findUnique({ where: { id: enrollmentId }, select: { clickedAt: true } });
  if (!seen || seen.clickedAt) return false;
  if ("$transaction" in db) return db.$transaction((tx) => recordFirstClick(tx, enrollmentId, url, now));
  return recordFirstClick(db, enrollmentId, url, now);
}

async function recordFirstClick(tx: Tx, enrollmentId: string, url: string, now: Date): Promise<boolean> {
  // of clicks racing here one sets clickedAt; the others wait for its row lock and then match nothing
  const claimed = await tx.enrollment.updateMany({ where: { id: enrollmentId, clickedAt: null }, data: { clickedAt: now } });
  if (claimed.count === 0) return false;
  const enrollment = await tx.enrollment.findUniqueOrThrow({ where: { id: enrollmentId }, include: { contact: { select: { id: true, email: true } } } });
  await recordEvent(tx, enrollment.accountId, "enrollment.clicked", { ...enrollmentEventData(enrollment, enrollment.contact), url, clicked_at: now.toISOString() });
  return true;
}
