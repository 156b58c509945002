import { enrollmentEventData, recordEvent } from "../webhooks/record-event.js";
import { inTransaction, type Tx } from "../tx.js";

export interface RecordOpenResult {
  /** true when this load was the enrollment's first open (and enrollment.opened was emitted) */
  firstOpen: boolean;
}

/**
 * Records a load of the open-tracking pixel. The first open sets openedAt, moves
 * a sent enrollment to opened (replied, bounced and unsubscribed are never
 * downgraded; any other status stays as it is) and emits enrollment.opened;
 * later opens change nothing. Pass a client to get a transaction of its own, or
 * a transaction to take part in the caller's.
 *
 * Later opens are most loads (mail clients reload images, proxies prefetch): they
 * are one plain read, with no row lock and no transaction, so a busy enrollment
 * row never holds up a pixel. Only a load that finds no open yet writes.
 */
export async function recordOpen(db: Tx, enrollmentId: string, now = new Date()): Promise<RecordOpenResult> {
  const seen = await db.enrollment.findUnique({ where: { id: enrollmentId }, select: { openedAt: true } });
  if (!seen || seen.openedAt) return { firstOpen: false };
  return inTransaction(db, (tx) => recordFirstOpen(tx, enrollmentId, now));
}

async function recordFirstOpen(tx: Tx, enrollmentId: string, now: Date): Promise<RecordOpenResult> {
  // Of several loads racing here, one sets openedAt; the others wait for its row lock,
  // then match nothing, so the event is emitted once.
  const claimed = await tx.enrollment.updateMany({ where: { id: enrollmentId, openedAt: null }, data: { openedAt: now } });
  if (claimed.count === 0) return { firstOpen: false };
  await tx.enrollment.updateMany({ where: { id: enrollmentId, status: "sent" }, data: { status: "opened" } });
  const enrollment = await tx.enrollment.findUniqueOrThrow({ where: { id: enrollmentId }, include: { contact: { select: { id: true, email: true } } } });
  await recordEvent(tx, enrollment.accountId, "enrollment.opened", enrollmentEventData(enrollment, enrollment.contact));
  return { firstOpen: true };
}
