import { ignoreFailure } from "./logger.js";
import { randomUUID } from "node:crypto";
import type { RedisClient } from "./redis.js";
import type { Config } from "./config.js";
import { HeartbeatFailures, type WarnLogger } from "./heartbeat-failures.js";
import { redisKeys } from "./redis-keys.js";

/**
 * A process says it is alive by refreshing a key with a short expiry. Work it
 * claims carries its id; when the key is gone the process is gone (crashed,
 * killed, partitioned away), and others may act on that work.
 */
export class LivenessBeacon {
  readonly processId = randomUUID();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly redis: RedisClient,
    private readonly config: Pick<Config, "queuePrefix">,
    private readonly ttlMs = 15_000,
    private readonly logger?: WarnLogger,
  ) {}

  start(): void {
    const failures = new HeartbeatFailures(this.logger, "refreshing this process's liveness key", { processId: this.processId });
    const refresh = () => void failures.run(() => this.redis.set(redisKeys.liveness(this.config, this.processId), "1", "PX", this.ttlMs));
    refresh();
    this.timer = setInterval(refresh, this.ttlMs / 3);
    this.timer.unref();
  }

  /** After the process has finished its claimed work. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.redis.del(redisKeys.liveness(this.config, this.processId)).catch(ignoreFailure(this.logger, "removing this process's liveness key", "the key expires by itself"));
  }
}

/** Which of these processes have no liveness key (any more). */
export async function absentProcesses(redis: RedisClient, config: Pick<Config, "queuePrefix">, processIds: string[]): Promise<string[]> {
  if (processIds.length === 0) return [];
  const pipeline = redis.pipeline();
  for (const id of processIds) pipeline.exists(redisKeys.liveness(config, id));
  const results = (await pipeline.exec()) ?? [];
  return processIds.filter((_, i) => {
    const [err, exists] = results[i] ?? [new Error("no reply"), 0];
    if (err) throw err;
    return exists === 0;
  });
}
