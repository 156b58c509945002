import { redisKeys, type RedisKeyConfig, type RedisClient } from "@outreach/core";

/** The counter outlives its UTC day by a day, whatever the replicas' clocks say. */
const BUDGET_TTL_SECONDS = 2 * 86_400;

/**
 * Takes one question to the model from the account's budget of the UTC day,
 * atomically across replicas (INCR): true while the budget lasts. A question
 * refused here is never asked; the rules' answer stays.
 */
export async function takeClassifierCall(redis: RedisClient, config: RedisKeyConfig, accountId: string, dailyBudget: number, now = new Date()): Promise<boolean> {
  const key = redisKeys.replyClassifierBudget(config, accountId, now);
  const results = await redis.multi().incr(key).expire(key, BUDGET_TTL_SECONDS).exec();
  const [error, used] = results?.[0] ?? [new Error("the budget counter gave no answer"), null];
  if (error) throw error;
  return Number(used) <= dailyBudget;
}
