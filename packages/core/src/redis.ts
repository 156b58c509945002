import { Redis, type RedisOptions } from "ioredis";
import type { Config } from "./config.js";

export type RedisRole = "worker" | "producer" | "command";

/**
 * One factory for every Redis connection. BullMQ workers need
 * maxRetriesPerRequest: null (blocking commands); producers and plain command
 * connections fail fast so an API request does not hang while Redis is down.
 * Connections reconnect forever with a capped backoff, so apps recover without
 * a restart when Redis comes back.
 */
export function createRedis(config: Pick<Config, "redisUrl">, role: RedisRole = "command", options: RedisOptions = {}): Redis {
  return new Redis(config.redisUrl, {
    maxRetriesPerRequest: role === "worker" ? null : 2,
    enableOfflineQueue: role !== "command",
    connectTimeout: 5_000,
    retryStrategy: (times) => Math.min(times * 200, 2_000),
    lazyConnect: false,
    ...options,
  });
}

/** PING that first waits (bounded) for a connection still being established, so a fresh app is not reported down. */
export async function pingRedis(redis: Redis, waitMs = 1_500): Promise<void> {
  if (redis.status !== "ready") {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        redis.off("ready", onReady);
        reject(new Error(`redis is ${redis.status}`));
      }, waitMs);
      const onReady = () => {
        clearTimeout(timer);
        resolve();
      };
      redis.once("ready", onReady);
    });
  }
  await redis.ping();
}
