import { redisKeys, RepeatingTask, type Config, type Logger, errorFields, type RedisClient } from "@outreach/core";
import type { Db } from "@outreach/db";
import { purgeOldRows, type PurgeCounts } from "@outreach/domain";

/** How often a purge runs (one replica at a time). Idempotency records are purged this long before their expiry, so none outlives 24 h. */
export const RETENTION_EVERY_MS = 60_000;

/**
 * The retention purge (purgeOldRows) on a schedule. Every dispatcher replica
 * runs this loop; the first to take the Redis key of a period purges and the
 * key is left to expire at the end of the period, so there is one purge per
 * period across all replicas, and a replica that dies mid-purge leaves no lock
 * behind for longer than that.
 */
export class RetentionLoop {
  private readonly loop: RepeatingTask;

  constructor(
    private readonly db: Db,
    private readonly redis: RedisClient,
    private readonly config: Pick<Config, "queuePrefix" | "retention">,
    private readonly logger: Logger,
    private readonly everyMs = RETENTION_EVERY_MS,
  ) {
    this.loop = new RepeatingTask(
      () => this.runOnce(),
      everyMs,
      (err) => logger.warn("retention purge failed", { ...errorFields(err) }),
    );
  }

  start(): void {
    this.loop.start();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
  }

  /** Purges if no replica has this period; null when another one has. */
  async runOnce(now = new Date()): Promise<PurgeCounts | null> {
    const won = await this.redis.set(redisKeys.retentionPurge(this.config), now.toISOString(), "PX", this.everyMs, "NX");
    if (won !== "OK") return null;
    const purged = await purgeOldRows(this.db, this.config.retention, now, undefined, this.everyMs);
    if (Object.values(purged).some((n) => n > 0)) this.logger.info("retention purge", { ...purged });
    return purged;
  }
}
