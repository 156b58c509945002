import type { RedisClient } from "./redis.js";
import type { Config } from "./config.js";
import { redisKeys } from "./redis-keys.js";

/**
 * On the pub/sub channel every API replica's key cache listens on
 * (redisKeys.apiKeyEventsChannel) a message is either a revoked key's SHA-256
 * (hex), or `account:<id>` when an account's access changed (suspended,
 * unsuspended), so its keys are looked up afresh.
 */
const ACCOUNT_PREFIX = "account:";

/** The account a message on the channel names, or undefined for a revoked key's hash. */
export function accountOfKeyEvent(message: string): string | undefined {
  return message.startsWith(ACCOUNT_PREFIX) ? message.slice(ACCOUNT_PREFIX.length) : undefined;
}

/** Tells every API replica to forget what it cached about the account's keys (they are looked up again at once). */
export async function announceAccountAccessChange(redis: RedisClient, config: Pick<Config, "queuePrefix">, accountId: string): Promise<void> {
  await redis.publish(redisKeys.apiKeyEventsChannel(config), `${ACCOUNT_PREFIX}${accountId}`);
}
