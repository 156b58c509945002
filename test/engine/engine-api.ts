import { apiRequest, LOOPBACK_MAIL_ENV } from "@outreach/testing";
import { startApiServer } from "../kit/api.js";
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
  const api = await startApiServer({
    DATABASE_URL: engine.config.databaseUrl,
    QUEUE_PREFIX: engine.config.queuePrefix,
    PUBLIC_BASE_URL: "http://outreach.test",
    LOG_LEVEL: "error",
    ...LOOPBACK_MAIL_ENV,
  });
  const call = (method: string, path: string, token?: string, body?: unknown): Promise<ApiResponse> => apiRequest(api.baseUrl, method, path, { token, body });
  return {
    baseUrl: api.baseUrl,
    call,
    async signUp(email) {
      const res = await call("POST", "/signup", undefined, { email });
      if (res.status !== 201) throw new Error(`signup failed: ${res.status} ${res.text}`);
      return { accountId: res.body.account_id as string, token: res.body.api_key.plaintext as string };
    },
    close: () => api.close(),
  };
}
