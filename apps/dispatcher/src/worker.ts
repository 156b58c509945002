import type { Redis } from "ioredis";
import { absentProcesses, createRedis, RedisSemaphore, TypedQueue } from "@outreach/core";
import { enqueueSendsWith, MxVerifier } from "@outreach/domain";
import type { WorkerDefinition } from "@outreach/runtime";
import { dispatchBatch, type DispatcherContext } from "./dispatch-batch.js";
import { Feeder, lostJobsIn } from "./feeder.js";

interface DispatcherResources extends DispatcherContext {
  producer: Redis;
  sendQueue: TypedQueue<"send-email">;
  feeder: Feeder;
}

/** Lease of a dispatch slot: longer than the longest plan of a 100k batch. */
const DISPATCH_LEASE_MS = 10 * 60_000;

export const dispatcherWorker: WorkerDefinition<DispatcherResources> = {
  app: "dispatcher",
  setup: (ctx) => {
    const producer = createRedis(ctx.config, "producer");
    producer.on("error", (err) => ctx.logger.debug("redis error", { error: err.message }));
    const sendQueue = new TypedQueue("send-email", ctx.config, producer);
    const enqueueSends = enqueueSendsWith(sendQueue);
    return {
      ...ctx,
      producer,
      sendQueue,
      enqueueSends,
      mx: new MxVerifier(ctx.config.dnsServers),
      semaphore: new RedisSemaphore(producer, 3, DISPATCH_LEASE_MS),
      feeder: new Feeder(
        ctx.db,
        enqueueSends,
        ctx.logger,
        (ids) => absentProcesses(producer, ctx.config, ids),
        lostJobsIn(sendQueue),
      ),
    };
  },
  processors: (_ctx, resources) => [
    { queue: "campaign-dispatch", handler: (payload, job, token) => dispatchBatch(resources, payload, job, token), concurrency: 5, options: { lockDuration: 120_000 } },
  ],
  start: async (_ctx, resources) => resources.feeder.start(),
  stop: async (_ctx, resources) => {
    await resources.feeder.stop();
    await resources.sendQueue.close();
    await resources.producer.quit().catch(() => undefined);
  },
};
