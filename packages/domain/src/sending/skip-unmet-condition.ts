import { insertConditionNotMetSkip, markEnrollmentsCompleted, skipSendingSend } from "@outreach/db";
import { inTransaction, type Tx } from "../tx.js";

export interface UnmetConditionSkip {
  stepSendId: string;
  enrollmentId: string;
  contactId: string;
  campaignId: string;
  accountId: string;
  /** why the condition failed (unmetConditionReason) */
  reason: string;
}

/**
 * A claimed step whose condition failed when it fell due, in one transaction:
 * the send becomes skipped (never sent: no event, no daily limit or plan
 * usage), a `condition_not_met` skip is recorded, and the enrollment is
 * completed when this was its last step left. The next step keeps its own
 * time (a skipped earlier step releases it like a sent one). `skipped` is
 * false when the send was no longer in sending (nothing changed).
 */
export async function skipUnmetCondition(db: Tx, input: UnmetConditionSkip, now = new Date()): Promise<{ skipped: boolean; completed: boolean }> {
  return inTransaction(db, async (tx) => {
    // step row before enrollment row: the order sending and unsubscribes lock them in
    if ((await skipSendingSend(tx, input.stepSendId, input.reason, now)) === 0) return { skipped: false, completed: false };
    await insertConditionNotMetSkip(tx, { ...input, now });
    const completed = await markEnrollmentsCompleted(tx, [input.enrollmentId], now);
    return { skipped: true, completed: completed.length > 0 };
  });
}
