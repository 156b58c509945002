import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createLogger, loadConfig } from "@outreach/core";
import { LOOPBACK_MAIL_ENV, waitFor } from "@outreach/testing";
import { createApp } from "../../../apps/api/src/app.js";
import { applyServerTimeouts } from "../../../apps/api/src/server-timeouts.js";
import { closeApiContext, createApiContext, type ApiContext } from "../../../apps/api/src/context.js";
import { startDeliverer, type Deliverer } from "../../../apps/webhook-deliverer/test/harness.js";
import { startEngine, type Engine } from "../../../test/engine/harness.js";

/**
 * The whole service in-process on one database and one queue prefix: the API
 * on a loopback port, the dispatcher and sender apps mailing a loopback SMTP
 * server that keeps what it receives, and the webhook deliverer (allowed to
 * post to loopback receivers).
 */
export interface RealService {
  baseUrl: string;
  engine: Engine;
  deliverer: Deliverer;
  api: ApiContext;
  stop(): Promise<void>;
}

export async function startRealService(): Promise<RealService> {
  const engine = await startEngine();
  const shared = { DATABASE_URL: engine.config.databaseUrl, QUEUE_PREFIX: engine.config.queuePrefix, LOG_LEVEL: "error" };
  let deliverer: Deliverer | undefined;
  let api: ApiContext | undefined;
  let server: Server | undefined;
  const stop = async () => {
    if (server) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server!.close(() => resolve()));
    }
    if (api) await closeApiContext(api);
    await deliverer?.stop();
    await engine.stop();
  };
  try {
    deliverer = await startDeliverer(shared, engine.database);
    // a test that polls must not meet the per-key rate limit: its retries would skew the usage it checks
    const config = loadConfig("api", { ...shared, PUBLIC_BASE_URL: "http://outreach.test", WEBHOOK_ALLOW_PRIVATE_URLS: "true", RATE_LIMIT_PER_MINUTE: "100000", ...LOOPBACK_MAIL_ENV });
    api = createApiContext(config, createLogger({ service: "api", level: "error" }));
    const ctx = api;
    await waitFor(() => ctx.redis.status === "ready", { what: "the API's Redis connection" });
    server = await new Promise<Server>((resolve) => {
      const listening = applyServerTimeouts(createApp(ctx).listen(0, "127.0.0.1", () => resolve(listening)));
    });
    return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, engine, deliverer, api, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
