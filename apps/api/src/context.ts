import type { Redis } from "ioredis";
import { createRedis, redisKey, TypedQueue, type Config, type Logger } from "@outreach/core";
import { createDbClient, type Db } from "@outreach/db";
import { ApiKeyCache } from "./api-key-cache.js";
import { createPaymentProvider, type PaymentProvider } from "./payment-provider.js";
import { UsageRecorder } from "./usage-recorder.js";

/** Everything routes and services need, built once in main.ts (or by a test). */
export interface ApiContext {
  config: Config;
  logger: Logger;
  db: Db;
  /** Plain commands: rate limits, locks, readiness. Fails fast while Redis is down. */
  redis: Redis;
  /** BullMQ producers; they queue commands briefly while Redis reconnects. */
  producer: Redis;
  queues: {
    campaignDispatch: TypedQueue<"campaign-dispatch">;
    eventFanout: TypedQueue<"event-fanout">;
    testSend: TypedQueue<"test-send">;
  };
  /** Request log and api_keys.last_used_at, written in batches off the request path. */
  usage: UsageRecorder;
  /** Resolved API keys, so authentication skips the database; revocations are broadcast. */
  keyCache: ApiKeyCache;
  subscriber: Redis;
  /** null when no payment provider is configured (STRIPE_SECRET_KEY unset). */
  paymentProvider: PaymentProvider | null;
}

export function createApiContext(config: Config, logger: Logger): ApiContext {
  const redis = createRedis(config, "command");
  const producer = createRedis(config, "producer");
  redis.on("error", (err) => logger.debug("redis error", { error: err.message }));
  producer.on("error", (err) => logger.debug("redis error", { error: err.message }));
  const subscriber = createRedis(config, "producer");
  subscriber.on("error", (err) => logger.debug("redis error", { error: err.message }));
  const db = createDbClient(config.databaseUrl);
  const usage = new UsageRecorder(db, logger);
  usage.start();
  return {
    config,
    logger,
    db,
    usage,
    subscriber,
    keyCache: new ApiKeyCache(redisKey(config, "api-key-revoked"), producer, subscriber, logger),
    paymentProvider: createPaymentProvider(config),
    redis,
    producer,
    queues: {
      campaignDispatch: new TypedQueue("campaign-dispatch", config, producer),
      eventFanout: new TypedQueue("event-fanout", config, producer),
      testSend: new TypedQueue("test-send", config, producer),
    },
  };
}

export async function closeApiContext(ctx: ApiContext): Promise<void> {
  await ctx.usage.stop().catch(() => undefined);
  await Promise.allSettled(Object.values(ctx.queues).map((queue) => queue.close()));
  await Promise.allSettled([ctx.redis.quit(), ctx.producer.quit(), ctx.subscriber.quit()]);
  await ctx.db.$disconnect();
}
