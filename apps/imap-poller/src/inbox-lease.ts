import type { Redis } from "ioredis";

// Take the lease when free (or already ours), renewing its expiry.
const ACQUIRE = `
local holder = redis.call('GET', KEYS[1])
if holder == false or holder == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
`;
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

/**
 * One watcher per inbox across every replica: a replica connects to an inbox
 * only while it holds the inbox's lease, renews it while connected, and
 * closes the connection as soon as a renewal fails. A dead replica's leases
 * expire after `ttlMs`, and another replica takes the inbox over.
 */
export class InboxLeases {
  constructor(
    private readonly redis: Redis,
    private readonly keyOf: (inboxId: string) => string,
    private readonly holder: string,
    readonly ttlMs = 10_000,
  ) {}

  /** Takes or renews the lease; false when another replica holds it. */
  async acquire(inboxId: string): Promise<boolean> {
    return (await this.redis.eval(ACQUIRE, 1, this.keyOf(inboxId), this.holder, this.ttlMs)) === 1;
  }

  async release(inboxId: string): Promise<void> {
    await this.redis.eval(RELEASE, 1, this.keyOf(inboxId), this.holder).catch(() => undefined);
  }
}
