import { executor, type Queryable } from "./executor.js";

/* Statements on reply_answers: answers to replies, sent through the inbox that received the reply. */

/** Claims a queued answer of the account (queued -> sending, one more attempt): 1 when it was queued, else 0. */
export async function claimReplyAnswer(q: Queryable, answerId: string, accountId: string): Promise<number> {
  return executor(q).execute(
    `
    UPDATE reply_answers SET state = 'sending', attempts = attempts + 1
    WHERE id = $1::uuid AND "accountId" = $2::uuid AND state = 'queued'`,
    [answerId, accountId],
  );
}
