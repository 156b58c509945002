import {
  absentProcesses,
  CAMPAIGN_DISPATCH_WORKERS,
  createRedis,
  databaseGauge,
  DISPATCH_CONCURRENCY_PER_ACCOUNT,
  RedisSemaphore,
  REPLAN_HELD_SENDS_WORKERS,
  SenderRegistry,
  TypedQueue,
  errorFields,
  ignoreFailure,
  type RedisClient,
} from "@outreach/core";
import { countOpenStepSends, DomainHealthChecker, MxVerifier, scheduleLagSeconds, SendRouter } from "@outreach/domain";
import type { WorkerDefinition } from "@outreach/runtime";
import { CampaignCountsLoop } from "./campaign-counts-loop.js";
import { CompletionSweep } from "./completion-sweep.js";
import { dispatchBatch, type DispatcherContext } from "./dispatch-batch.js";
import { DomainHealthSweep } from "./domain-health-sweep.js";
import { Feeder, lostJobsIn } from "./feeder.js";
import { heapCompactor } from "./heap-compaction.js";
import { RetentionLoop } from "./retention-loop.js";
import { SenderTakeover } from "./sender-takeover.js";
import { replanHeldSends } from "./replan-held-sends.js";
import { ReplanSweep } from "./replan-sweep.js";

interface DispatcherResources extends DispatcherContext {
  producer: RedisClient;
  router: SendRouter;
  takeover: SenderTakeover;
  feeder: Feeder;
  retention: RetentionLoop;
  replanQueue: TypedQueue<"replan-held-sends">;
  replanSweep: ReplanSweep;
  completionSweep: CompletionSweep;
  campaignCounts: CampaignCountsLoop;
  domainHealthSweep: DomainHealthSweep;
}

/** Lease of a dispatch slot, renewed after every chunk a dispatch plans. */
const DISPATCH_LEASE_MS = 10 * 60_000;

export const dispatcherWorker: WorkerDefinition<DispatcherResources> = {
  app: "dispatcher",
  setup: (ctx) => {
    const producer = createRedis(ctx.config, "producer");
    producer.on("error", (err) => ctx.logger.debug("redis error", { ...errorFields(err) }));
    const registry = new SenderRegistry(producer, ctx.config, undefined, ctx.logger);
    // released sends go to the sender holding their inbox's SMTP sessions
    const router = new SendRouter(producer, ctx.config, registry);
    const enqueueSends = router.enqueue;
    const replanQueue = new TypedQueue("replan-held-sends", ctx.config, producer);
    databaseGauge(ctx.metrics, { name: "outreach_step_sends", help: "Step sends not finished, by state (scheduled, queued, sending).", labelNames: ["state"] }, async () =>
      (await countOpenStepSends(ctx.db)).map(({ state, count }) => ({ labels: { state }, value: count })),
    );
    databaseGauge(ctx.metrics, { name: "outreach_schedule_lag_seconds", help: "Age of the oldest due send of an active campaign not released yet (0: none due)." }, async () => [
      { value: await scheduleLagSeconds(ctx.db) },
    ]);
    return {
      ...ctx,
      producer,
      router,
      takeover: new SenderTakeover(ctx.db, registry, router, ctx.logger),
      enqueueSends,
      mx: new MxVerifier(ctx.config.dnsServers),
      afterChunk: heapCompactor(),
      semaphore: new RedisSemaphore(producer, DISPATCH_CONCURRENCY_PER_ACCOUNT, DISPATCH_LEASE_MS),
      feeder: new Feeder(ctx.db, enqueueSends, ctx.logger, (ids) => absentProcesses(producer, ctx.config, ids), lostJobsIn(router)),
      retention: new RetentionLoop(ctx.db, producer, ctx.config, ctx.logger),
      replanQueue,
      replanSweep: new ReplanSweep(ctx.db, replanQueue, ctx.logger),
      completionSweep: new CompletionSweep(ctx.db, ctx.logger),
      campaignCounts: new CampaignCountsLoop(ctx.db, ctx.logger),
      domainHealthSweep: new DomainHealthSweep(ctx.db, producer, ctx.config, new DomainHealthChecker({ servers: ctx.config.dnsServers, dnsblZones: ctx.config.dnsblZones }), ctx.logger),
    };
  },
  processors: (ctx, resources) => {
    // chunked jobs: the event loop is never busy for long, so the lock can be short and a
    // job whose process died (its lock expired) is taken over by the stalled-job check soon;
    // re-running one is safe, so it may stall several times before it fails
    const chunked = { lockDuration: ctx.config.dispatchJobLockMs, stalledInterval: ctx.config.dispatchJobLockMs, maxStalledCount: 10 };
    return [
      { queue: "campaign-dispatch", handler: (payload, job, token) => dispatchBatch(resources, payload, job, token), concurrency: CAMPAIGN_DISPATCH_WORKERS, options: chunked },
      { queue: "replan-held-sends", handler: (payload) => replanHeldSends(resources, payload), concurrency: REPLAN_HELD_SENDS_WORKERS, options: chunked },
    ];
  },
  start: async (_ctx, resources) => {
    resources.feeder.start();
    resources.takeover.start();
    resources.retention.start();
    resources.replanSweep.start();
    resources.completionSweep.start();
    resources.campaignCounts.start();
    resources.domainHealthSweep.start();
  },
  stop: async (_ctx, resources) => {
    await resources.feeder.stop();
    await resources.takeover.stop();
    await resources.retention.stop();
    await resources.replanSweep.stop();
    await resources.completionSweep.stop();
    await resources.campaignCounts.stop();
    await resources.domainHealthSweep.stop();
    await resources.router.close();
    await resources.replanQueue.close();
    await resources.producer.quit().catch(ignoreFailure(resources.logger, "closing the Redis connection at shutdown", "the process exits"));
  },
};
