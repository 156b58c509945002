import { RedisSemaphore, TypedQueue, createRedis, redisKey } from "@outreach/core";
import { SEND_CONCURRENCY_PER_ACCOUNT } from "@outreach/domain";
import type { WorkerDefinition } from "@outreach/runtime";
import { sendStep } from "./send-step.js";
import { sendTest } from "./send-test.js";
import type { SenderContext } from "./sender-context.js";
import { SmtpPool } from "./smtp-pool.js";

export const senderWorker: WorkerDefinition<SenderContext> = {
  app: "sender",
  setup: (ctx) => {
    const producer = createRedis(ctx.config, "producer");
    producer.on("error", (err) => ctx.logger.debug("redis error", { error: err.message }));
    // an account's SMTP sessions, open or idle, across all senders: as many as its sends in flight
    const sessions = new RedisSemaphore(producer, SEND_CONCURRENCY_PER_ACCOUNT, 60_000);
    const pool = new SmtpPool(sessions, { leaseKey: (accountId) => redisKey(ctx.config, "sem", "smtp", accountId) });
    return { ...ctx, producer, pool, sendQueue: new TypedQueue("send-email", ctx.config, producer) };
  },
  processors: (_ctx, sender) => [
    // Sends in flight are bounded per account when they are released (10 per account,
    // all replicas together); this is how many jobs one process works on at once.
    { queue: "send-email", handler: (payload) => sendStep(sender, payload), concurrency: 50, options: { lockDuration: 30_000, stalledInterval: 15_000 } },
    { queue: "test-send", handler: (payload) => sendTest(sender, payload), concurrency: 5 },
  ],
  stop: async (_ctx, sender) => {
    await sender.pool.close();
    await sender.sendQueue.close();
    await sender.producer.quit().catch(() => undefined);
  },
};
