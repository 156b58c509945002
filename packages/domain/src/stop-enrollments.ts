import { cancelPendingSends } from "./cancel-pending-sends.js";
import type { Tx } from "./tx.js";

/** Why an enrollment stopped without an outcome of its own. */
export type StopReason = "blocklisted" | "company_replied";

/**
 * Stops enrollments that have no outcome of their own yet (pending, sent or
 * opened, not stopped before): stoppedAt and stoppedReason are set and their
 * steps not yet out are cancelled, so no further step reaches the contact.
 * An undispatched one is never scheduled (dispatch leaves stopped enrollments
 * alone). Their status stays what it was: they did not reply, bounce or
 * unsubscribe. Returns the ids stopped now.
 */
export async function stopEnrollments(tx: Tx, enrollmentIds: string[], reason: StopReason, now = new Date()): Promise<string[]> {
  if (enrollmentIds.length === 0) return [];
  const stopped = await tx.$queryRaw<Array<{ id: string }>>`
    UPDATE enrollments SET "stoppedAt" = ${now}, "stoppedReason" = ${reason}, "updatedAt" = ${now}
    WHERE id = ANY(${enrollmentIds}::uuid[]) AND "stoppedAt" IS NULL AND status IN ('pending', 'sent', 'opened')
    RETURNING id`;
  const ids = stopped.map((row) => row.id);
  await cancelPendingSends(tx, ids, reason === "blocklisted" ? "the address is on the account's blocklist" : "someone at the contact's company replied");
  return ids;
}
