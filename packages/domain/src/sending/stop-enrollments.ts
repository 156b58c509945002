import { markEnrollmentsStopped } from "@outreach/db";
import { cancelPendingSends } from "./cancel-pending-sends.js";
import type { Tx } from "../tx.js";

/** Why an enrollment stopped without an outcome of its own. */
export type StopReason = "blocklisted" | "company_replied" | "wrong_person" | "clicked" | "disposable" | "role_account";

const CANCELLED_BECAUSE: Record<StopReason, string> = {
  blocklisted: "the address is on the account's blocklist",
  company_replied: "someone at the contact's company replied",
  wrong_person: "the contact answered that they are the wrong person",
  clicked: "the contact clicked a link (stop_on_click)",
  disposable: "the address is at a disposable-mail domain (skip_disposable)",
  role_account: "the address is a role account (skip_role_accounts)",
};

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
  const ids = await markEnrollmentsStopped(tx, enrollmentIds, reason, now);
  await cancelPendingSends(tx, ids, CANCELLED_BECAUSE[reason]);
  return ids;
}
