import { jobId, type TypedQueue } from "@outreach/core";
import type { Db } from "@outreach/db";
import { leftForModel, type InboundOutcome } from "@outreach/domain";

/** Where a recorded message was found. */
export interface InboxMessageKey {
  credentialId: string;
  uidValidity: bigint;
  uid: bigint;
}

/**
 * After a message is recorded (committed): a reply or auto-reply the rules
 * left as other is queued for the model, once (the job id is the reply's).
 * Returns the reply's id when it was queued.
 */
export async function queueModelCategory(db: Db, queue: TypedQueue<"categorize-reply">, key: InboxMessageKey, outcome: InboundOutcome): Promise<string | undefined> {
  if (outcome !== "reply" && outcome !== "auto_reply") return undefined;
  const message = await db.inboundMessage.findUnique({
    where: { credentialId_uidValidity_uid: key },
    select: { id: true, accountId: true, enrollmentId: true, category: true, categorySource: true },
  });
  if (!message?.accountId || !message.enrollmentId || !leftForModel(message)) return undefined;
  await queue.add({ accountId: message.accountId, replyId: message.id }, { jobId: jobId("categorize-reply", message.id) });
  return message.id;
}
