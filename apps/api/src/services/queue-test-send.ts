import { AppError, redisKeys, type Config, type TypedQueue, type RedisClient } from "@outreach/core";
import type { Db } from "@outreach/db";
import { findCampaign } from "./find-campaign.js";

/**
 * Test sends do not count against the plan, so they have an allowance of
 * their own: this many addresses per account per UTC day (each address
 * receives every step of the campaign).
 */
export const TEST_SEND_DAILY_LIMIT = 100;
const DAY_SECONDS = 86_400;

export interface TestSendResult {
  campaignId: string;
  /** the addresses queued */
  emails: string[];
  /** addresses left out: they unsubscribed in this account */
  skipped: Array<{ email: string; reason: "unsubscribed" }>;
  allowance: { limit: number; remaining: number };
}

// Takes `count` from today's allowance, or nothing when it would go over. Returns the new total, or -1.
const TAKE_ALLOWANCE = `
local used = redis.call('INCRBY', KEYS[1], ARGV[1])
if used > tonumber(ARGV[2]) then
  redis.call('DECRBY', KEYS[1], ARGV[1])
  return -1
end
redis.call('EXPIRE', KEYS[1], ARGV[3])
return used
`;

function secondsUntilUtcMidnight(now: Date): number {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((midnight - now.getTime()) / 1000));
}

function allowanceExceeded(now: Date): AppError {
  const retryAfter = secondsUntilUtcMidnight(now);
  return new AppError(
    "rate_limited",
    `Test sends are limited to ${TEST_SEND_DAILY_LIMIT} addresses per account per day (UTC); this request would go over. Retry after ${retryAfter} seconds.`,
    { limit: TEST_SEND_DAILY_LIMIT, period: DAY_SECONDS },
    { "Retry-After": String(retryAfter) },
  );
}

/** The addresses a test send goes to: not those that unsubscribed in the account (422 when none is left). */
export async function testSendRecipients(db: Db, accountId: string, emails: string[]): Promise<{ allowed: string[]; skipped: TestSendResult["skipped"] }> {
  const unsubscribed = await db.contact.findMany({ where: { accountId, email: { in: emails }, unsubscribedAt: { not: null } }, select: { email: true } });
  const suppressed = new Set(unsubscribed.map((contact) => contact.email));
  const skipped = emails.filter((email) => suppressed.has(email)).map((email) => ({ email, reason: "unsubscribed" as const }));
  const allowed = emails.filter((email) => !suppressed.has(email));
  if (allowed.length === 0) {
    throw new AppError("unprocessable", "Every address given unsubscribed from this account's emails; test sends never go to them.", { skipped });
  }
  return { allowed, skipped };
}

/** Today's test-send allowance: what is left for `count` more addresses (429 rate_limited when they would go over). Takes nothing. */
export async function checkTestSendAllowance(redis: RedisClient, config: Pick<Config, "queuePrefix">, accountId: string, count: number, now = new Date()): Promise<TestSendResult["allowance"]> {
  const used = Number((await redis.get(redisKeys.testSendAllowance(config, accountId, now))) ?? 0);
  if (used + count > TEST_SEND_DAILY_LIMIT) throw allowanceExceeded(now);
  return { limit: TEST_SEND_DAILY_LIMIT, remaining: TEST_SEND_DAILY_LIMIT - used };
}

/**
 * Queues one test-send job per address (already validated, normalized and
 * de-duplicated): the sender sends every step of the campaign to it. Addresses
 * that unsubscribed in the account are never sent to (422 when none is left);
 * the rest are taken from the daily allowance (429 rate_limited past it).
 * Test sends create no enrollment and do not count against the plan.
 */
export async function queueTestSend(
  db: Db,
  redis: RedisClient,
  config: Pick<Config, "queuePrefix">,
  queue: TypedQueue<"test-send">,
  accountId: string,
  campaignId: string,
  emails: string[],
  now = new Date(),
): Promise<TestSendResult> {
  const campaign = await findCampaign(db, accountId, campaignId);
  const { allowed, skipped } = await testSendRecipients(db, accountId, emails);
  const used = (await redis.eval(TAKE_ALLOWANCE, 1, redisKeys.testSendAllowance(config, accountId, now), allowed.length, TEST_SEND_DAILY_LIMIT, DAY_SECONDS * 2)) as number;
  if (used < 0) throw allowanceExceeded(now);
  await queue.addBulk(allowed.map((email) => ({ payload: { accountId, campaignId: campaign.id, email } })));
  return { campaignId: campaign.id, emails: allowed, skipped, allowance: { limit: TEST_SEND_DAILY_LIMIT, remaining: TEST_SEND_DAILY_LIMIT - used } };
}
