import { ignoreFailure } from "./logger.js";
import { createHash } from "node:crypto";
import type { RedisClient } from "./redis.js";
import type { Config } from "./config.js";
import { HeartbeatFailures, type WarnLogger } from "./heartbeat-failures.js";
import { redisKeys } from "./redis-keys.js";

// Members of a sorted set scored by the expiry of their last heartbeat, on Redis's
// clock (one clock for every pod, whatever their own say).
const HEARTBEAT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[1]), ARGV[2])
return 1
`;
const LIVE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
return redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. now, '+inf')
`;
// expired members, each with how long ago its heartbeat ran out (ms)
const EXPIRED = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local members = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'WITHSCORES')
local out = {}
for i = 1, #members, 2 do
  out[#out + 1] = members[i]
  out[#out + 1] = tostring(now - tonumber(members[i + 1]))
end
return out
`;

/**
 * The sender processes that are up, for routing an inbox's sends to the one
 * that holds its SMTP sessions (see ownerOf). A sender heartbeats every
 * ttlMs / 4; one that misses its heartbeats for ttlMs (killed, hung,
 * partitioned away) is expired, and the dispatcher hands its queued sends to
 * the live ones (handBackSenderQueue).
 */
export class SenderRegistry {
  private timer: NodeJS.Timeout | undefined;
  private readonly key: string;

  constructor(
    private readonly redis: RedisClient,
    config: Pick<Config, "queuePrefix">,
    readonly ttlMs = 6_000,
    private readonly logger?: WarnLogger,
  ) {
    this.key = redisKeys.senderRegistry(config);
  }

  /** Heartbeats for `processId` until stop(); the first heartbeat is written before this resolves. */
  async start(processId: string): Promise<void> {
    const beat = () => this.redis.eval(HEARTBEAT, 1, this.key, this.ttlMs, processId);
    await beat();
    const failures = new HeartbeatFailures(this.logger, "the sender registry heartbeat", { processId });
    this.timer = setInterval(() => void failures.run(beat), this.ttlMs / 4);
    this.timer.unref();
  }

  /** Leaves the registry: new sends are routed to the other senders at once. */
  async stop(processId: string): Promise<void> {
    clearInterval(this.timer);
    await this.redis.zrem(this.key, processId).catch(ignoreFailure(this.logger, "leaving the sender registry", "an entry whose heartbeat stops ages out"));
  }

  /** Senders with a current heartbeat, in a stable order. */
  async live(): Promise<string[]> {
    return ((await this.redis.eval(LIVE, 1, this.key)) as string[]).sort();
  }

  /** Every sender the registry holds, live or expired and not forgotten yet: those that may have a send queue. */
  async members(): Promise<string[]> {
    return (await this.redis.zrange(this.key, 0, -1)).sort();
  }

  /** Senders whose heartbeat ran out (they may have left sends in their queue), with how long ago. */
  async expired(): Promise<Array<{ id: string; expiredForMs: number }>> {
    const flat = (await this.redis.eval(EXPIRED, 1, this.key)) as string[];
    const out: Array<{ id: string; expiredForMs: number }> = [];
    for (let i = 0; i < flat.length; i += 2) out.push({ id: flat[i]!, expiredForMs: Number(flat[i + 1]) });
    return out;
  }

  /** Forgets an expired sender once its queue was handed back. */
  async forget(processId: string): Promise<void> {
    await this.redis.zrem(this.key, processId);
  }
}

/**
 * Rendezvous (highest random weight) hashing: the owner of `key` among
 * `members`. Every process computes the same owner from the same members, and
 * a member joining or leaving moves only the keys it wins or held.
 */
export function ownerOf(key: string, members: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestWeight = -1n;
  for (const member of members) {
    const weight = createHash("sha1").update(key).update("\0").update(member).digest().readBigUInt64BE(0);
    if (weight > bestWeight) {
      bestWeight = weight;
      best = member;
    }
  }
  return best;
}
