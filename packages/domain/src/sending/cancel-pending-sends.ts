import { cancelPendingStepSends } from "@outreach/db";
import type { Tx } from "../tx.js";

/**
 * Cancels the steps of enrollments that have not gone out yet (scheduled or
 * queued; a queued job then finds its row cancelled and returns). Steps already
 * being sent are left to finish. Used when an enrollment replies, bounces or
 * unsubscribes, so no later step reaches the contact.
 */
export async function cancelPendingSends(tx: Tx, enrollmentIds: string[], reason: string): Promise<number> {
  if (enrollmentIds.length === 0) return 0;
  return cancelPendingStepSends(tx, enrollmentIds, reason);
}
