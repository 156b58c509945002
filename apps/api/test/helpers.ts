import type { Server } from "node:http";
import { createLogger, loadConfig, type Config } from "@outreach/core";
import { createTestDatabase, LOOPBACK_MAIL_ENV, uniqueQueuePrefix, waitFor, type TestDatabase } from "@outreach/testing";
import { QUOTA_NAMES, setAccountQuotas } from "@outreach/domain";
import { createApp } from "../src/app.js";
import { closeApiContext, createApiContext, type ApiContext } from "../src/context.js";
import { applyServerTimeouts } from "../src/server-timeouts.js";
import { assertMatchesDocument } from "./openapi-check.js";

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
  const config = loadConfig("api", {
    NODE_ENV: "test",
    DATABASE_URL: database.url,
    QUEUE_PREFIX: uniqueQueuePrefix(),
    PUBLIC_BASE_URL: "http://outreach.test",
    LOG_LEVEL: "error",
    ...LOOPBACK_MAIL_ENV,
    ...env,
  });
  const ctx = createApiContext(config, createLogger({ service: "api", level: config.logLevel }));
  await waitFor(() => ctx.redis.status === "ready", { what: "the API's Redis connection" });
  const server: Server = await new Promise((resolve) => {
    const s = applyServerTimeouts(createApp(ctx).listen(0, "127.0.0.1", () => resolve(s)));
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    server,
    ctx,
    database,
    config,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await closeApiContext(ctx);
      await database.drop();
    },
  };
}

export interface JsonResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export async function request<T = any>(baseUrl: string, method: string, path: string, options: { body?: unknown; rawBody?: string; headers?: Record<string, string>; token?: string } = {}): Promise<JsonResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["content-type"] ??= "application/json";
  }
  const res = await fetch(`${baseUrl}${path}`, { method, headers, body }).catch((err: Error & { cause?: { code?: string; message?: string } }) => {
    // fetch's own message is only "fetch failed": say why (a reset connection, a refused one, ...)
    throw new Error(`${method} ${path}: ${err.message} (${err.cause?.code ?? err.cause?.message ?? "no cause given"})`, { cause: err });
  });
  const text = await res.text();
  assertMatchesDocument(method, path, { status: res.status, headers: res.headers, text });
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}

export function assertError(res: JsonResponse, api: TestApi, status: number, code: string, message?: RegExp): void {
  if (res.status !== status || res.body?.code !== code) throw new Error(`expected ${status} ${code}, got ${res.status} ${res.text}`);
  if (res.body.type !== `${api.config.docsUrl}/errors/${code}`) throw new Error(`bad type ${res.body.type}`);
  if (typeof res.body.message !== "string" || !res.body.message) throw new Error("missing message");
  if (message && !message.test(res.body.message)) throw new Error(`message ${JSON.stringify(res.body.message)} does not match ${message}`);
}

let signupCounter = 0;

/** Signs up a fresh account; returns its id and first key. */
export async function signUp(api: TestApi, email = `user${++signupCounter}-${Date.now()}@example.com`): Promise<{ accountId: string; token: string; keyId: string }> {
  const res = await request(api.baseUrl, "POST", "/signup", { body: { email } });
  if (res.status !== 201) throw new Error(`signup failed: ${res.status} ${res.text}`);
  return { accountId: res.body.account_id, token: res.body.api_key.plaintext, keyId: res.body.api_key.id };
}

/**
 * Lifts every quota of an account (an operator's override, as `pnpm ops
 * set-quota` writes it), for tests that create more than a free account may hold.
 */
export async function liftQuotas(api: Pick<TestApi, "database">, accountId: string): Promise<void> {
  await setAccountQuotas(api.database.db, accountId, QUOTA_NAMES.map((quota) => [quota, null]));
}

/**
 * Writes out the API's buffered request log until at least `count` requests matching
 * `where` are recorded. A request is recorded when its response finishes on the
 * server, which can come after the client has already read that response.
 */
export async function flushUsage(api: TestApi, where: { accountId: string; clientKind?: "direct" | "mcp" | "sdk" }, count: number): Promise<void> {
  await waitFor(
    async () => {
      await api.ctx.usage.flush();
      return (await api.database.db.requestLog.count({ where })) >= count;
    },
    { what: `${count} requests recorded` },
  );
}
