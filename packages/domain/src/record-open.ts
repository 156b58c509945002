import { enrollmentEventData, recordEvent } from "./record-event.js";
import type { Tx } from "./tx.js";

export interface RecordOpenResult {
  /** true when this load was the enrollment's first open (and enrollment.opened was emitted) */
  firstOpen: boolean;
}

/**
 * Records a load of the open-tracking pixel. The first open sets openedAt, moves
 * a sent enrollment to opened (replied, bounced and unsubscribed are never
 * downgraded; any other status stays as it is) and emits enrollment.opened;
 * later opens change nothing. The enrollment row is locked, so two loads at once
 * emit one event. Pass a client to get a transaction of its own, or a
 * transaction to take part in the caller's.
 */
export async function recordOpen(db: Tx, enrollmentId: string, now = new Date()): Promise<RecordOpenResult> {
  if ("$transaction" in db) return db.$transaction((tx) => recordOpenInTx(tx, enrollmentId, now));
  return recordOpenInTx(db, enrollmentId, now);
}

async function recordOpenInTx(tx: Tx, enrollmentId: string, now: Date): Promise<RecordOpenResult> {
  const locked = await tx.$queryRaw<Array<{ status: string; openedAt: Date | null }>>`
    SELECT status::text AS status, "openedAt" FROM enrollments WHERE id = ${enrollmentId}::uuid FOR UPDATE`;
  const row = locked[0];
  if (!row || row.openedAt) return { firstOpen: false };

  const enrollment = await tx.enrollment.update({
    where: { id: enrollmentId },
    data: { openedAt: now, ...(row.status === "sent" ? { status: "opened" as const } : {}) },
    include: { contact: { select: { id: true, email: true } } },
  });
  await recordEvent(tx, enrollment.accountId, "enrollment.opened", enrollmentEventData(enrollment, enrollment.contact));
  return { firstOpen: true };
}
