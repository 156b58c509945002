import type { Server } from "node:http";
import { createLogger, startMetricsServer } from "@outreach/core";
import { exitOnSignals, loadConfigOrExit } from "@outreach/runtime";
import { createAdminApp } from "./admin/admin-app.js";
import { createApp } from "./app.js";
import { closeApiContext, createApiContext } from "./context.js";
import { applyServerTimeouts } from "./server-timeouts.js";

const config = loadConfigOrExit("api");
const logger = createLogger({ service: "api", level: config.logLevel });
if (config.encryptionKeyIsDevelopment) logger.warn("ENCRYPTION_KEY is not set: using the development key. Set it in production.");

const ctx = createApiContext(config, logger);
let shuttingDown = false;
const server: Server = applyServerTimeouts(
  createApp(ctx, { isShuttingDown: () => shuttingDown }).listen(config.port, () => {
    logger.info(`api listening on http://localhost:${config.port}`, { port: config.port });
  }),
);
server.on("error", (err) => {
  logger.error(`api could not listen: ${err.message}`);
  process.exit(1);
});
// Prometheus scrapes its own port: GET /metrics is never answered on the public one,
// and neither are the operator views (OPERATOR_TOKEN), which share that port
const admin = createAdminApp({ config, logger, db: ctx.db, redis: ctx.producer });
const metricsServer = await startMetricsServer(config.metricsPort, ctx.metrics, logger, undefined, admin?.listener).catch((err: Error) => {
  logger.error(`api could not listen for metrics on ${config.metricsPort}: ${err.message}`);
  process.exit(1);
});
logger.info(`api metrics on http://localhost:${config.metricsPort}/metrics`, { metricsPort: config.metricsPort });
if (admin) logger.info(`operator views on http://localhost:${config.metricsPort}/admin/queues and /admin/schedule (OPERATOR_TOKEN)`);

exitOnSignals(async () => {
  shuttingDown = true;
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
    // in-flight requests get a few seconds, then their sockets are closed
    setTimeout(() => server.closeAllConnections(), 5_000).unref();
  });
  metricsServer.close();
  await admin?.close();
  await closeApiContext(ctx);
  logger.info("api stopped");
}, logger);
