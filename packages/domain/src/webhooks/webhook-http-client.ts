import { Agent, request } from "undici";
import { EgressRefusedError, type EgressGuard } from "@outreach/core";
import { parseRetryAfter, type AttemptResult } from "./delivery-policy.js";

export const WEBHOOK_USER_AGENT = "service-webhooks/1.0";
/** How much of a receiver's answer is read and kept. */
const EXCERPT_BYTES = 1024;

export interface WebhookPost {
  url: string;
  body: string;
  signature: string;
}

/**
 * POSTs signed deliveries with keep-alive connection pools (undici). Every
 * connection goes through the egress guard: the host is resolved and checked
 * before the request, and the pool dials only the address the guard hands
 * back (its `lookup`), so a name cannot be re-pointed in between. Redirects
 * are not followed, the answer's body is read up to 1 KiB, and an attempt
 * that takes longer than `timeoutMs` in all is abandoned.
 */
export class WebhookHttpClient {
  private readonly agent: Agent;

  constructor(
    private readonly guard: EgressGuard,
    private readonly timeoutMs: number,
    // no cap per origin: attempts in flight are bounded by the workers and each account's 10
    // slots, and a capped pool would make tenants who share a receiver host queue behind
    // each other's slow receivers (and time out before being sent)
    connectionsPerOrigin: number | null = null,
  ) {
    this.agent = new Agent({
      connect: { lookup: guard.lookup, timeout: timeoutMs },
      connections: connectionsPerOrigin,
      keepAliveTimeout: 30_000,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
  }

  async post({ url, body, signature }: WebhookPost): Promise<AttemptResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const failure = (error: string): AttemptResult => ({ statusCode: null, error, durationMs: elapsed(), responseExcerpt: null, retryAfterMs: null });
    let hostname: string;
    try {
      hostname = new URL(url).hostname;
      await this.guard.resolve(hostname);
    } catch (err) {
      return failure(egressFailure(err));
    }
    const signal = AbortSignal.timeout(this.timeoutMs);
    try {
      const res = await request(url, {
        method: "POST",
        dispatcher: this.agent,
        signal,
        headers: { "content-type": "application/json", "user-agent": WEBHOOK_USER_AGENT, "x-service-signature": signature },
        body,
      });
      const responseExcerpt = await readExcerpt(res.body);
      const statusCode = res.statusCode;
      const redirect = statusCode >= 300 && statusCode < 400;
      return {
        statusCode,
        error: redirect ? `redirect to ${String(res.headers.location ?? "(no location)").slice(0, 300)} not followed` : statusCode >= 200 && statusCode < 300 ? null : `HTTP ${statusCode}`,
        durationMs: elapsed(),
        responseExcerpt,
        retryAfterMs: parseRetryAfter(res.headers["retry-after"]),
      };
    } catch (err) {
      if (signal.aborted) return failure(`timed out after ${this.timeoutMs} ms`);
      const e = err as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
      const code = e.code ?? e.cause?.code;
      if (code === "EGRESS_REFUSED" || e instanceof EgressRefusedError || e.cause instanceof EgressRefusedError) return failure(egressFailure(e.cause ?? e));
      return failure(`${code ? `${code}: ` : ""}${e.message}`.slice(0, 500));
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}

/**
 * Why the guard stopped an attempt. An internal address is refused for good
 * ("refused: ..." fails the delivery at once); a name that does not resolve
 * now is a network error like any other (DNS answers come and go) and is
 * retried.
 */
function egressFailure(err: unknown): string {
  if (err instanceof EgressRefusedError && err.kind === "unresolvable") return `dns: ${err.message}`;
  return `refused: ${(err as Error).message}`;
}

/** The first bytes of the answer as text; the rest is not read (the connection is not reused then). */
async function readExcerpt(body: AsyncIterable<Buffer> & { destroy(): unknown }): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= EXCERPT_BYTES) {
        body.destroy();
        break;
      }
    }
  } catch {
    // a body cut off midway: keep what arrived
  }
  if (size === 0) return null;
  return Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString("utf8");
}
