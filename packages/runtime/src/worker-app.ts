import type { Server } from "node:http";
import { Worker, type Job, type WorkerOptions } from "bullmq";
import {
  createRedis,
  MetricsLease,
  pingRedis,
  parseJobPayload,
  shardQueueName,
  startHealthServer,
  withLogContext,
  type AppMetrics,
  type AppName,
  type Config,
  type Logger,
  type QueueName,
  type QueuePayloads,
  type ReadinessCheck,
  errorFields,
  type RedisClient,
} from "@outreach/core";

export type JobHandler<N extends QueueName> = (payload: QueuePayloads[N], job: Job<QueuePayloads[N]>, token: string | undefined) => Promise<unknown>;

export interface QueueProcessor<N extends QueueName = QueueName> {
  queue: N;
  /** works this process's own shard of the queue (see shardQueueName) instead of the shared queue */
  shard?: string;
  handler: JobHandler<N>;
  concurrency?: number;
  options?: Partial<WorkerOptions>;
}

export interface WorkerAppOptions {
  app: Exclude<AppName, "api">;
  config: Config;
  logger: Logger;
  processors: QueueProcessor<any>[];
  checks: Record<string, ReadinessCheck>;
  /** served at /metrics on HEALTH_PORT; its database gauges only by the replica holding the app's metrics lease */
  metrics?: AppMetrics;
  /** Background loops of the app (pollers, feeders); started after the workers. */
  start?: () => Promise<void>;
  /** Called first when shutting down, before the workers stop taking jobs (e.g. to stop new work being routed here). */
  leave?: () => Promise<void>;
  /** Called after the workers have finished their jobs, before the process exits. */
  stop?: () => Promise<void>;
  /** How long shutdown waits for the workers' jobs (keep it under the pod's grace period). */
  closeTimeoutMs?: number;
}

/** Whether `promise` settled within `ms`. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([
      promise.then(
        () => true,
        () => true,
      ),
      timedOut,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export interface WorkerAppHandle {
  workers: Worker[];
  healthServer: Server;
  close(): Promise<void>;
}

/** The account a job's payload names, for its log line. */
function accountOf(payload: unknown): string | undefined {
  const accountId = (payload as { accountId?: unknown } | null | undefined)?.accountId;
  return typeof accountId === "string" ? accountId : undefined;
}

/** A handler for a queue whose business logic is not built yet: the job fails loudly. */
export function notBuiltYet<N extends QueueName>(queue: N): JobHandler<N> {
  return async () => {
    throw new Error(`the ${queue} handler is not built yet; the job is left failed so nothing is silently lost`);
  };
}

export async function startWorkerApp(options: WorkerAppOptions): Promise<WorkerAppHandle> {
  const { app, config, logger } = options;
  let shuttingDown = false;
  const connection: RedisClient = createRedis(config, "worker");
  const ping = createRedis(config, "command");
  connection.on("error", (err) => logger.warn("redis connection error", { ...errorFields(err) }));
  ping.on("error", () => undefined);

  const workers = options.processors.map(({ queue, shard, handler, concurrency = 10, options: workerOptions }) => {
    const worker = new Worker(
      shardQueueName(queue, shard),
      async (job: Job, token?: string) =>
        withLogContext({ queue, jobId: job.id }, async () => {
          const startedAt = Date.now();
          const payload = parseJobPayload(queue, job.data);
          const result = await handler(payload as never, job as never, token);
          // one line per job; a failure is logged by the worker's "failed" listener below, with its stack
          logger.info("job", { accountId: accountOf(payload), outcome: typeof result === "string" ? result : "completed", durationMs: Date.now() - startedAt });
          return result;
        }),
      { connection, prefix: config.queuePrefix, concurrency, autorun: true, ...workerOptions },
    );
    worker.on("failed", (job, err) => {
      if (err?.name === "DelayedError" || err?.name === "WaitingChildrenError") return;
      const durationMs = job?.processedOn ? Date.now() - job.processedOn : undefined;
      logger.error("job failed", { queue, jobId: job?.id, accountId: accountOf(job?.data), attempt: job?.attemptsMade, durationMs, error: err?.message, stack: err?.stack });
    });
    worker.on("error", (err) => logger.warn("worker error", { queue, ...errorFields(err) }));
    return worker;
  });

  const lease = new MetricsLease(ping, config, app, logger);
  if (options.metrics) {
    const metrics = options.metrics;
    metrics.exportsDatabase = () => lease.isHeld();
    await lease.start();
  }
  const healthServer = await startHealthServer(config.healthPort, { ...options.checks, redis: () => pingRedis(ping) }, () => shuttingDown, logger, options.metrics);
  await options.start?.();
  logger.info(`${app} started`, { healthPort: config.healthPort, queues: options.processors.map((p) => p.queue).join(",") });

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      shuttingDown = true;
      logger.info(`${app} stopping: finishing the jobs it holds`);
      await options.leave?.().catch((err) => logger.warn("leaving failed", { ...errorFields(err) }));
      // BullMQ's Worker.close() can wait forever on a connection still reconnecting
      // after a Redis outage: shutdown is bounded, and jobs still running then are
      // taken over by another replica through stalled-job recovery.
      const closeTimeoutMs = options.closeTimeoutMs ?? 20_000;
      if (!(await settlesWithin(Promise.all(workers.map((worker) => worker.close())), closeTimeoutMs))) {
        logger.warn(`workers did not close within ${closeTimeoutMs} ms; their running jobs are left to another replica`);
      }
      await options.stop?.();
      await lease.stop();
      await new Promise<void>((resolve) => healthServer.close(() => resolve()));
      healthServer.closeAllConnections?.();
      for (const redis of [connection, ping]) {
        if (!(await settlesWithin(redis.quit(), 2_000))) redis.disconnect();
      }
      logger.info(`${app} stopped`);
    })());

  return { workers, healthServer, close };
}

/** Runs close() on SIGTERM/SIGINT and exits 0 (1 if shutting down failed). */
export function exitOnSignals(close: () => Promise<void>, logger: Logger): void {
  const onSignal = (signal: string) => {
    logger.info(`received ${signal}`);
    close().then(
      () => process.exit(0),
      (err) => {
        logger.error("shutdown failed", { ...errorFields(err) });
        process.exit(1);
      },
    );
  };
  process.once("SIGTERM", () => onSignal("SIGTERM"));
  process.once("SIGINT", () => onSignal("SIGINT"));
}
