import type { RedisClient } from "@outreach/core";
import type { QueuePayloads, RedisKeyConfig, ReplyClassifierConfig, ReplyClassifierOutcome, replyClassifierSeries, WarnLogger } from "@outreach/core";
import type { Db } from "@outreach/db";
import { applyReplyCategory, askModel, leftForModel } from "@outreach/domain";
import { takeClassifierCall } from "./classifier-budget.js";

export interface ModelCategoryDeps {
  db: Db;
  redis: RedisClient;
  config: RedisKeyConfig;
  classifier: ReplyClassifierConfig;
  calls: ReturnType<typeof replyClassifierSeries>["calls"];
  logger: WarnLogger;
}

/** What this needs of the BullMQ job: how many tries it has had and may have. */
type JobTries = { attemptsMade: number; opts: { attempts?: number } };

/** Whether BullMQ will run this job again after a failure now. */
function triesLeft(job: JobTries | undefined): boolean {
  return job !== undefined && job.attemptsMade + 1 < (job.opts.attempts ?? 1);
}

/**
 * A categorize-reply job: a reply the rules left as other is asked of the
 * model, within the account's daily budget, and a label other than other
 * becomes its category (source model) with that category's actions, as a
 * rules answer would. No label (an unusable answer, over budget) keeps the
 * rules' answer; a failed or timed-out question is asked once more by the
 * job's second attempt, then the rules' answer stays.
 */
export async function categorizeReplyByModel(deps: ModelCategoryDeps, payload: QueuePayloads["categorize-reply"], job?: JobTries): Promise<string> {
  const { db, classifier } = deps;
  const reply = await db.inboundMessage.findUnique({
    where: { id: payload.replyId },
    select: { accountId: true, enrollmentId: true, kind: true, category: true, categorySource: true, subject: true, bodyText: true },
  });
  // a reply of the account's, matched to one of its enrollments (what applyReplyCategory acts on)
  if (!reply?.enrollmentId || reply.accountId !== payload.accountId || (reply.kind !== "reply" && reply.kind !== "auto_reply")) return "no such reply";
  if (!leftForModel(reply)) return "categorized already";

  if (!(await takeClassifierCall(deps.redis, deps.config, payload.accountId, classifier.dailyBudget))) {
    deps.calls.inc({ outcome: "over_budget" });
    deps.logger.info("reply classifier budget spent: the rules' category stays", { accountId: payload.accountId, replyId: payload.replyId, dailyBudget: classifier.dailyBudget });
    return "over_budget";
  }

  const answer = await askModel(classifier, { subject: reply.subject, text: reply.bodyText });
  deps.calls.inc({ outcome: answer.outcome satisfies ReplyClassifierOutcome });
  if (!("category" in answer)) {
    if (answer.outcome !== "unusable" && triesLeft(job)) throw new Error(`the reply classifier gave no answer (${answer.reason}); asking once more`);
    deps.logger.warn("reply classifier gave no category: the rules' one stays", { accountId: payload.accountId, replyId: payload.replyId, outcome: answer.outcome, reason: answer.reason });
    return answer.outcome;
  }
  const category = answer.category;
  if (category === "other") return "other";
  const { changed } = await db.$transaction((tx) => applyReplyCategory(tx, { replyId: payload.replyId, category, source: "model" }));
  return changed ? `categorized ${category}` : "categorized meanwhile";
}
