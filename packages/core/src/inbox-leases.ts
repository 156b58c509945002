import type { RedisClient } from "./redis.js";

// Take each lease when free (or already ours), renewing its expiry; answers 1 or 0 per key.
const ACQUIRE = `
local taken = {}
for i, key in ipairs(KEYS) do
  local holder = redis.call('GET', key)
  if holder == false or holder == ARGV[1] then
    redis.call('SET', key, ARGV[1], 'PX', ARGV[2])
    taken[i] = 1
  else
    taken[i] = 0
  end
end
return taken
`;
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;
/** Leases taken or renewed per round trip. */
const BATCH = 500;

/**
 * One watcher per inbox across every replica: a replica connects to an inbox
 * only while it holds the inbox's lease, renews it while connected, and
 * closes the connection as soon as a renewal fails. A dead replica's leases
 * expire after `ttlMs`, and another replica takes the inbox over.
 */
export class InboxLeases {
  constructor(
    private readonly redis: RedisClient,
    private readonly keyOf: (inboxId: string) => string,
    private readonly holder: string,
    readonly ttlMs = 10_000,
  ) {}

  /** Takes or renews the lease; false when another replica holds it. */
  async acquire(inboxId: string): Promise<boolean> {
    return (await this.acquireMany([inboxId])).has(inboxId);
  }

  /** Takes or renews many leases, a few hundred per round trip; answers those now held. */
  async acquireMany(inboxIds: string[]): Promise<Set<string>> {
    const held = new Set<string>();
    for (let i = 0; i < inboxIds.length; i += BATCH) {
      const ids = inboxIds.slice(i, i + BATCH);
      const taken = (await this.redis.eval(ACQUIRE, ids.length, ...ids.map(this.keyOf), this.holder, this.ttlMs)) as number[];
      ids.forEach((id, j) => taken[j] === 1 && held.add(id));
    }
    return held;
  }

  /** Which of these inboxes any replica holds the lease of (the unwatched gauge, the operators' schedule view). */
  async heldOf(inboxIds: string[]): Promise<Set<string>> {
    const held = new Set<string>();
    for (let i = 0; i < inboxIds.length; i += BATCH) {
      const ids = inboxIds.slice(i, i + BATCH);
      const values = await this.redis.mget(...ids.map(this.keyOf));
      ids.forEach((id, j) => values[j] !== null && held.add(id));
    }
    return held;
  }

  async release(inboxId: string): Promise<void> {
    // the lease expires by itself; the next holder waits at most its TTL
    await this.redis.eval(RELEASE, 1, this.keyOf(inboxId), this.holder).catch(() => undefined);
  }
}
