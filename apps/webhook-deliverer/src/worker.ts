import type { Redis } from "ioredis";
import { ACCOUNT_CONCURRENCY, createRedis, EgressGuard, Keyring, RedisSemaphore, TypedQueue } from "@outreach/core";
import { WebhookHttpClient } from "@outreach/domain";
import type { WorkerDefinition } from "@outreach/runtime";
import { deliverWebhook, type DelivererContext } from "./deliver-webhook.js";
import { enqueueDeliveryAttempts } from "./delivery-jobs.js";
import { DeliverySweeper } from "./delivery-sweeper.js";
import { OutboxRelay } from "./outbox-relay.js";

interface DelivererResources extends DelivererContext {
  producer: Redis;
  relay: OutboxRelay;
  sweeper: DeliverySweeper;
}

export const webhookDelivererWorker: WorkerDefinition<DelivererResources> = {
  app: "webhook-deliverer",
  setup: (ctx) => {
    const producer = createRedis(ctx.config, "producer");
    producer.on("error", (err) => ctx.logger.debug("redis error", { error: err.message }));
    const queue = new TypedQueue("webhook-delivery", ctx.config, producer);
    // receivers are tenant-chosen hosts: every connection goes through the egress guard
    const guard = new EgressGuard({ allowPrivate: ctx.config.webhookAllowPrivateUrls, dnsServers: ctx.config.dnsServers });
    const relay = new OutboxRelay(ctx.db, ctx.config.databaseUrl, (deliveries) => enqueueDeliveryAttempts(queue, deliveries.map((d) => ({ ...d, attempt: 1 }))), ctx.logger);
    return {
      ...ctx,
      producer,
      queue,
      keyring: Keyring.fromConfig(ctx.config),
      http: new WebhookHttpClient(guard, ctx.config.webhookTimeoutMs),
      slots: new RedisSemaphore(producer, ACCOUNT_CONCURRENCY["webhook-delivery"], ctx.config.webhookTimeoutMs + 15_000),
      relay,
      sweeper: new DeliverySweeper(ctx.db, queue, ctx.logger),
    };
  },
  processors: (_ctx, resources) => [
    // Per account at most 10 at once (the slots); this is how many attempts one process makes at
    // once. Waiting on a receiver is cheap, and well above 10 slots x a few hanging accounts, so
    // accounts with dead receivers cannot take every worker. A short lock gives a dead process's
    // attempts to another within ~20 s.
    {
      queue: "webhook-delivery",
      handler: (payload, job, token) => deliverWebhook(resources, payload, job, token),
      concurrency: 200,
      options: { lockDuration: 15_000, stalledInterval: 5_000 },
    },
  ],
  start: async (_ctx, resources) => {
    await resources.relay.start();
    resources.sweeper.start();
  },
  stop: async (_ctx, resources) => {
    await resources.relay.stop();
    await resources.sweeper.stop();
    await resources.http.close();
    await resources.queue.close();
    await resources.producer.quit().catch(() => undefined);
  },
};
