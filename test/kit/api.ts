import type { Server } from "node:http";
import { createLogger, loadConfig, type Config } from "@outreach/core";
import { apiRequest, createTestDatabase, LOOPBACK_MAIL_ENV, uniqueQueuePrefix, waitFor, type ResponseCheck, type TestDatabase } from "@outreach/testing";
import { createApp } from "../../apps/api/src/app.js";
import { closeApiContext, createApiContext, type ApiContext } from "../../apps/api/src/context.js";
import { applyServerTimeouts } from "../../apps/api/src/server-timeouts.js";

/** The API app listening on a loopback port, in-process. */
export interface ApiServer {
  /** http://127.0.0.1:<port> */
  baseUrl: string;
  /** the HTTP server, for tests that watch its connections */
  server: Server;
  ctx: ApiContext;
  config: Config;
  /** closes the server (its connections first) and the API's context; the database stays */
  close(): Promise<void>;
}

/** The real API in-process on a free loopback port, configured from `env` alone (the database and queues it names). */
export async function startApiServer(env: Record<string, string>): Promise<ApiServer> {
  const config = loadConfig("api", env);
  const ctx = createApiContext(config, createLogger({ service: "api", level: config.logLevel }));
  let server: Server;
  try {
    await waitFor(() => ctx.redis.status === "ready", { what: "the API's Redis connection" });
    server = await new Promise((resolve) => {
      const s = applyServerTimeouts(createApp(ctx).listen(0, "127.0.0.1", () => resolve(s)));
    });
  } catch (err) {
    await closeApiContext(ctx);
    throw err;
  }
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    server,
    ctx,
    config,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await closeApiContext(ctx);
    },
  };
}

export interface TestApi {
  baseUrl: string;
  /** the HTTP server, for tests that watch its connections */
  server: Server;
  ctx: ApiContext;
  database: TestDatabase;
  config: Config;
  close(): Promise<void>;
}

/** The real API in-process on a free port, with its own database and queue prefix. */
export async function startTestApi(env: Record<string, string> = {}): Promise<TestApi> {
  const database = await createTestDatabase();
  const api = await startApiServer({
    NODE_ENV: "test",
    DATABASE_URL: database.url,
    QUEUE_PREFIX: uniqueQueuePrefix(),
    PUBLIC_BASE_URL: "http://outreach.test",
    LOG_LEVEL: "error",
    ...LOOPBACK_MAIL_ENV,
    ...env,
  });
  return {
    baseUrl: api.baseUrl,
    server: api.server,
    ctx: api.ctx,
    database,
    config: api.config,
    async close() {
      await api.close();
      await database.drop();
    },
  };
}

let signupCounter = 0;

/** Signs up a fresh account through POST /signup; returns its id and first key. `check` runs on the answer (see apiRequest). */
export async function signUp(
  api: Pick<TestApi, "baseUrl">,
  email = `user${++signupCounter}-${Date.now()}@example.com`,
  options: { check?: ResponseCheck } = {},
): Promise<{ accountId: string; token: string; keyId: string }> {
  const res = await apiRequest(api.baseUrl, "POST", "/signup", { body: { email }, check: options.check });
  if (res.status !== 201) throw new Error(`signup failed: ${res.status} ${res.text}`);
  return { accountId: res.body.account_id, token: res.body.api_key.plaintext, keyId: res.body.api_key.id };
}

/**
 * Writes out the API's buffered request log until at least `count` requests matching
 * `where` are recorded. A request is recorded when its response finishes on the
 * server, which can come after the client has already read that response.
 */
export async function flushUsage(api: Pick<TestApi, "ctx" | "database">, where: { accountId: string; clientKind?: "direct" | "mcp" | "sdk" }, count: number): Promise<void> {
  await waitFor(
    async () => {
      await api.ctx.usage.flush();
      return (await api.database.db.requestLog.count({ where })) >= count;
    },
    { what: `${count} requests recorded` },
  );
}
