import { LOOPBACK_MAIL_ENV } from "@outreach/testing";
import type { ApiContext } from "../../apps/api/src/context.js";
import { startEngine, type Engine } from "../engine/harness.js";
import { startApiServer, type ApiServer } from "./api.js";
import { startDeliverer, type Deliverer } from "./webhook-deliverer.js";

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
  let api: ApiServer | undefined;
  const stop = async () => {
    await api?.close();
    await deliverer?.stop();
    await engine.stop();
  };
  try {
    deliverer = await startDeliverer(shared, engine.database);
    // a test that polls must not meet the per-key rate limit: its retries would skew the usage it checks
    api = await startApiServer({ ...shared, PUBLIC_BASE_URL: "http://outreach.test", WEBHOOK_ALLOW_PRIVATE_URLS: "true", RATE_LIMIT_PER_MINUTE: "100000", ...LOOPBACK_MAIL_ENV });
    return { baseUrl: api.baseUrl, engine, deliverer, api: api.ctx, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
