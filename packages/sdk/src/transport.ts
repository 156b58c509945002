import { randomUUID } from "node:crypto";
import { setTimeout as delay } from "node:timers/promises";
import { OutreachApiError, OutreachNetworkError } from "./errors.js";
import { backoffDelayMs, isRetryableStatus, retryDelayForResponse } from "./retry-policy.js";

/** Sends one request: globalThis.fetch, or a stand-in with the same shape. */
export type FetchFunction = (request: Request) => Promise<Response>;

/** Waits `ms` milliseconds, or rejects when `signal` aborts first. */
export type SleepFunction = (ms: number, signal?: AbortSignal) => Promise<void>;

/** The only POSTs that take no Idempotency-Key (the API's conventions): they are sent once, never retried. */
const POSTS_WITHOUT_IDEMPOTENCY = new Set(["/signup", "/webhooks/provider", "/webhooks/relay"]);

export interface TransportOptions {
  baseUrl: string;
  apiKey?: string;
  maxRetries: number;
  /** per attempt; none when undefined */
  timeoutMs?: number;
  /** the longest wait between attempts (backoff cap; a longer Retry-After is not waited for) */
  maxRetryDelayMs: number;
  fetch: FetchFunction;
  sleep: SleepFunction;
}

export const defaultSleep: SleepFunction = (ms, signal) => delay(ms, undefined, { signal });

/**
 * Sends a request the way every call of the client is sent: with the API key,
 * an Idempotency-Key on POSTs (unless the caller gave one), and retries of
 * network errors, 429 and 500/502/503/504, each retry a copy of the same
 * request (so a POST's retries carry the same key, and the API replays the
 * first answer instead of acting twice). A non-2xx answer that is not retried
 * throws OutreachApiError; no answer at all throws OutreachNetworkError.
 */
export function createTransport(options: TransportOptions): FetchFunction {
  const basePath = new URL(options.baseUrl).pathname.replace(/\/+$/, "");

  return async function send(request: Request): Promise<Response> {
    const method = request.method.toUpperCase();
    const headers = new Headers(request.headers);
    if (options.apiKey) headers.set("authorization", `Bearer ${options.apiKey}`);
    if (method === "POST" && !headers.has("idempotency-key") && !POSTS_WITHOUT_IDEMPOTENCY.has(apiPath(request.url, basePath))) {
      headers.set("idempotency-key", randomUUID());
    }
    const retryable = method !== "POST" || headers.has("idempotency-key");
    const maxRetries = retryable ? options.maxRetries : 0;
    const body = request.body ? await request.arrayBuffer() : undefined;
    const callerSignal = request.signal;

    for (let attempt = 0; ; attempt++) {
      const signal = options.timeoutMs === undefined ? callerSignal : AbortSignal.any([callerSignal, AbortSignal.timeout(options.timeoutMs)]);
      let response: Response;
      try {
        response = await readWhole(await options.fetch(new Request(request.url, { method, headers, body, signal, redirect: request.redirect })));
      } catch (error) {
        if (callerSignal.aborted) throw error;
        if (attempt >= maxRetries) throw new OutreachNetworkError(networkMessage(method, request.url, error, attempt + 1), attempt + 1, error);
        await options.sleep(backoffDelayMs(attempt, options.maxRetryDelayMs), callerSignal);
        continue;
      }
      if (response.ok) return response;
      const wait = attempt < maxRetries && isRetryableStatus(response.status) ? retryDelayForResponse(response, attempt, options.maxRetryDelayMs) : undefined;
      if (wait === undefined) throw await OutreachApiError.fromResponse(response);
      await options.sleep(wait, callerSignal);
    }
  };
}

/**
 * The answer with its body read to the end, so that a connection lost (or a
 * timeout) halfway through the body counts as a failed attempt, like one lost
 * before the status line.
 */
async function readWhole(response: Response): Promise<Response> {
  const bytes = await response.arrayBuffer();
  const init = { status: response.status, statusText: response.statusText, headers: response.headers };
  return new Response(bytes.byteLength === 0 ? null : bytes, init);
}

/** The request's path below the base URL ("/signup" for https://host/prefix/signup with base https://host/prefix). */
function apiPath(url: string, basePath: string): string {
  const path = new URL(url).pathname;
  return path.startsWith(basePath) ? path.slice(basePath.length) : path;
}

function networkMessage(method: string, url: string, error: unknown, attempts: number): string {
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : "";
  const reason = error instanceof Error ? (error.name === "TimeoutError" ? "timed out" : `${error.message}${cause}`) : String(error);
  return `${method} ${new URL(url).pathname} got no answer (${reason}) after ${attempts} attempt${attempts === 1 ? "" : "s"}`;
}
