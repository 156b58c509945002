import { AppMetrics, createLogger, type AppName, type Config, type Logger } from "@outreach/core";
import { createDbClient, dbClientOptions, pingDatabase, type Db } from "@outreach/db";
import { loadConfigOrExit } from "./load-config.js";
import { exitOnSignals, startWorkerApp, type QueueProcessor, type WorkerAppHandle } from "./worker-app.js";

export interface WorkerContext {
  config: Config;
  logger: Logger;
  db: Db;
  /** the app's Prometheus series (register them in setup), served at /metrics on HEALTH_PORT */
  metrics: AppMetrics;
}

/**
 * A worker app: `setup` builds what its handlers share (queues, pools, loops),
 * `processors` maps queues to handlers, `start` begins background loops after
 * the workers run, and `stop` releases what setup built once the jobs in hand
 * are finished.
 */
export interface WorkerDefinition<R = void> {
  app: Exclude<AppName, "api">;
  setup?: (ctx: WorkerContext) => R | Promise<R>;
  processors: (ctx: WorkerContext, resources: R) => QueueProcessor<any>[];
  start?: (ctx: WorkerContext, resources: R) => Promise<void>;
  /** First thing on shutdown, before the workers stop taking jobs. */
  leave?: (ctx: WorkerContext, resources: R) => Promise<void>;
  stop?: (ctx: WorkerContext, resources: R) => Promise<void>;
  /** How long shutdown waits for running jobs (default 20 s; under the pod's grace period). */
  closeTimeoutMs?: number;
}

/** Starts a worker app with its own config, logger and database pool. Used by main.ts and by tests. */
export async function startWorker<R>(definition: WorkerDefinition<R>, config: Config): Promise<WorkerAppHandle & { ctx: WorkerContext; resources: R }> {
  const logger = createLogger({ service: definition.app, level: config.logLevel });
  if (config.encryptionKeyIsDevelopment) logger.warn("ENCRYPTION_KEY is not set: using the development key. Set it in production.");
  const db = createDbClient(config.databaseUrl, dbClientOptions(config));
  const ctx: WorkerContext = { config, logger, db, metrics: new AppMetrics(definition.app) };
  const resources = (await definition.setup?.(ctx)) as R;
  const handle = await startWorkerApp({
    app: definition.app,
    config,
    logger,
    processors: definition.processors(ctx, resources),
    checks: { postgres: () => pingDatabase(db) },
    metrics: ctx.metrics,
    start: definition.start && (() => definition.start!(ctx, resources)),
    leave: definition.leave && (() => definition.leave!(ctx, resources)),
    closeTimeoutMs: definition.closeTimeoutMs,
    stop: async () => {
      await definition.stop?.(ctx, resources);
      await db.$disconnect();
    },
  });
  return { ...handle, ctx, resources };
}

/** The whole main.ts of a worker app. */
export async function runWorkerMain<R>(definition: WorkerDefinition<R>): Promise<void> {
  const config = loadConfigOrExit(definition.app);
  const handle = await startWorker(definition, config);
  exitOnSignals(handle.close, handle.ctx.logger);
}
