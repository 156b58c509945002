/** Attempts of one delivery before it ends failed (SPEC "Delivery, retry, disable"). */
export const DELIVERY_MAX_ATTEMPTS = 5;
/** Failed deliveries in a row that disable a webhook. */
export const DISABLE_AFTER_FAILED_DELIVERIES = 5;
/** How long deliveries are also signed with the previous secret after rotate_secret. */
export const SECRET_ROTATION_GRACE_MS = 24 * 3600_000;
/** The longest wait a receiver's Retry-After can ask for. */
const MAX_RETRY_AFTER_MS = 24 * 3600_000;

/** What one HTTP attempt came to. */
export interface AttemptResult {
  statusCode: number | null;
  /** a network error, a timeout, a refused address, a redirect: why it was not a 2xx */
  error: string | null;
  durationMs: number;
  /** the start of the answer's body (bounded) */
  responseExcerpt: string | null;
  /** the receiver's Retry-After, in ms */
  retryAfterMs: number | null;
}

export type AttemptVerdict = "succeeded" | "retry" | "failed";

/** 2xx succeeds; 5xx, 408, 429 and network errors or timeouts are retried; any other answer (4xx, 3xx) fails at once. */
export function judgeAttempt(result: AttemptResult): AttemptVerdict {
  const code = result.statusCode;
  if (code === null) return result.error?.startsWith("refused:") ? "failed" : "retry";
  if (code >= 200 && code < 300) return "succeeded";
  if (code >= 500 || code === 408 || code === 429) return "retry";
  return "failed";
}

/**
 * Polynomial backoff: base x attempt^2 after the attempt-th failure (base 10 s:
 * 10 s, 40 s, 90 s, 160 s), or the receiver's Retry-After when that is longer.
 */
export function retryDelayMs(attempt: number, baseMs: number, retryAfterMs: number | null): number {
  const delay = baseMs * attempt * attempt;
  return retryAfterMs !== null && retryAfterMs > delay ? Math.min(retryAfterMs, MAX_RETRY_AFTER_MS) : delay;
}

/** Retry-After as seconds or an HTTP date, in ms from now; null when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | null {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return null;
  if (/^\d+$/.test(text.trim())) return Number(text.trim()) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}
