import { createHash, randomUUID } from "node:crypto";
import { HeartbeatFailures, type WarnLogger, ignoreFailure, type RedisClient } from "@outreach/core";

/**
 * The live poller replicas and who should watch which inbox. Each replica
 * keeps itself in a sorted set scored by its expiry (heartbeat); an inbox's
 * preferred replica is the live one with the highest hash of (inbox, replica)
 * (rendezvous hashing), so a replica joining or leaving moves only the
 * inboxes that must move.
 */
export class ReplicaRing {
  readonly replicaId = randomUUID();
  private live: string[] = [this.replicaId];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly redis: RedisClient,
    private readonly key: string,
    private readonly ttlMs = 6_000,
    private readonly logger?: WarnLogger,
  ) {}

  async start(): Promise<void> {
    await this.beat();
    const failures = new HeartbeatFailures(this.logger, "the poller replica heartbeat", { replicaId: this.replicaId });
    this.timer = setInterval(() => void failures.run(() => this.beat()), this.ttlMs / 3);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.redis.zrem(this.key, this.replicaId).catch(ignoreFailure(this.logger, "leaving the poller replica ring", "an entry whose heartbeat stops ages out"));
  }

  /** Heartbeat, and a fresh view of the live replicas. */
  async beat(now = Date.now()): Promise<string[]> {
    const [, , members] = (await this.redis
      .multi()
      .zadd(this.key, now + this.ttlMs, this.replicaId)
      .zremrangebyscore(this.key, "-inf", now)
      .zrangebyscore(this.key, now, "+inf")
      .exec()) as Array<[Error | null, unknown]>;
    const live = (members?.[1] as string[] | undefined) ?? [];
    this.live = live.includes(this.replicaId) ? live : [...live, this.replicaId];
    return this.live;
  }

  replicas(): readonly string[] {
    return this.live;
  }

  /** Whether this replica is the preferred watcher of the inbox among the live replicas. */
  prefers(inboxId: string): boolean {
    return preferredReplica(inboxId, this.live) === this.replicaId;
  }
}

function score(inboxId: string, replicaId: string): bigint {
  return createHash("sha256").update(`${inboxId}\u0000${replicaId}`).digest().readBigUInt64BE(0);
}

export function preferredReplica(inboxId: string, replicas: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestScore = -1n;
  for (const replica of replicas) {
    const s = score(inboxId, replica);
    if (s > bestScore || (s === bestScore && best !== undefined && replica < best)) {
      best = replica;
      bestScore = s;
    }
  }
  return best;
}
