import { DelayedError } from "bullmq";
import type { RedisClient } from "./redis.js";

// Holders are members of a sorted set scored by lease expiry; expired leases
// (a crashed holder) are dropped before counting, so a slot always comes back.
const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZSCORE', KEYS[1], ARGV[3]) or redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[1]) then
  redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
  -- the key outlives its newest lease, renewals included, or held leases would vanish with it
  redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]) * 2)
  return 1
end
return 0
`;

const COMMAND = "semaphoreAcquire";
type SemaphoreCommand = { [COMMAND]: (key: string, limit: number, leaseMs: number, holder: string) => Promise<unknown> };

/**
 * At most `limit` holders per key across every process (e.g. 3 dispatch jobs
 * per account). The lease must outlive the work it guards, or be renewed.
 */
export class RedisSemaphore {
  constructor(
    private readonly redis: RedisClient,
    private readonly limit: number,
    private readonly leaseMs: number,
  ) {
    // sent by its SHA once loaded (EVALSHA), not as the whole script every call
    if (!(COMMAND in redis)) redis.defineCommand(COMMAND, { numberOfKeys: 1, lua: ACQUIRE });
  }

  async tryAcquire(key: string, holder: string): Promise<boolean> {
    return (await (this.redis as unknown as SemaphoreCommand)[COMMAND](key, this.limit, this.leaseMs, holder)) === 1;
  }

  /** Renews (or retakes) many leases in one round trip; a lease that could not be had is reported false. */
  async renewAll(leases: Array<{ key: string; holder: string }>): Promise<boolean[]> {
    if (leases.length === 0) return [];
    const pipeline = this.redis.pipeline() as unknown as SemaphoreCommand & { exec(): Promise<Array<[Error | null, unknown]> | null> };
    for (const { key, holder } of leases) pipeline[COMMAND](key, this.limit, this.leaseMs, holder);
    const results = (await pipeline.exec()) ?? [];
    return results.map(([err, value]) => !err && value === 1);
  }

  async release(key: string, holder: string): Promise<void> {
    await this.redis.zrem(key, holder);
  }
}

/** What runWithJobSlot needs of a BullMQ job: its id (the slot's holder) and moving it back to delayed. */
export interface DelayableJob {
  id?: string;
  moveToDelayed(timestamp: number, token?: string): Promise<void>;
}

/**
 * Runs a job's `work` holding one of the semaphore's slots under `key` (e.g.
 * an account's dispatch slots). With every slot held, the job goes back to
 * delayed for 0.5-1.5 s and DelayedError is thrown: the worker takes its
 * next job and no attempt is spent. `work` gets `renew`, which extends the
 * lease (taking the slot again as the same holder).
 */
export async function runWithJobSlot<T>(semaphore: RedisSemaphore, key: string, job: DelayableJob, token: string | undefined, work: (renew: () => Promise<boolean>) => Promise<T>): Promise<T> {
  const holder = `${job.id}`;
  if (!(await semaphore.tryAcquire(key, holder))) {
    await job.moveToDelayed(Date.now() + 500 + Math.floor(Math.random() * 1000), token);
    throw new DelayedError();
  }
  try {
    return await work(() => semaphore.tryAcquire(key, holder));
  } finally {
    // the slot's lease expires by itself; the work's own outcome is what the caller gets
    await semaphore.release(key, holder).catch(() => undefined);
  }
}
