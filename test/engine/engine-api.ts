import type { Server } from "node:http";
import { createLogger, loadConfig } from "@outreach/core";
import { LOOPBACK_MAIL_ENV, waitFor } from "@outreach/testing";
import { createApp } from "../../apps/api/src/app.js";
import { applyServerTimeouts } from "../../apps/api/src/server-timeouts.js";
import { closeApiContext, createApiContext } from "../../apps/api/src/context.js";
import type { Engine } from "./harness.js";

export interface ApiResponse {
  status: number;
  body: any;
  text: string;
}

export interface EngineApi {
  /** http://127.0.0.1:<port> */
  baseUrl: string;
  call(method: string, path: string, token?: string, body?: unknown): Promise<ApiResponse>;
  /** A new account through POST /signup: its id and API key. */
  signUp(email: string): Promise<{ accountId: string; token: string }>;
  close(): Promise<void>;
}

/** The real API app in-process over HTTP, on the engine's database and queues. */
export async function startEngineApi(engine: Engine): Promise<EngineApi> {
  const config = loadConfig("api", { DATABASE_URL: engine.config.databaseUrl, QUEUE_PREFIX: engine.config.queuePrefix, PUBLIC_BASE_URL: "http://outreach.test", LOG_LEVEL: "error", ...LOOPBACK_MAIL_ENV });
  const ctx = createApiContext(config, createLogger({ service: "api", level: "error" }));
  await waitFor(() => ctx.redis.status === "ready", { what: "the API's Redis connection" });
  const server: Server = await new Promise((resolve) => {
    const s = applyServerTimeouts(createApp(ctx).listen(0, "127.0.0.1", () => resolve(s)));
  });
  const address = server.address();
  const base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  const call = async (method: string, path: string, token?: string, body?: unknown): Promise<ApiResponse> => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { "content-type": "application/json" } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, body: json, text };
  };
  return {
    baseUrl: base,
    call,
    async signUp(email) {
      const res = await call("POST", "/signup", undefined, { email });
      if (res.status !== 201) throw new Error(`signup failed: ${res.status} ${res.text}`);
      return { accountId: res.body.account_id as string, token: res.body.api_key.plaintext as string };
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await closeApiContext(ctx);
    },
  };
}
