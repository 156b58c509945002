/** The first backoff step; each further attempt doubles it, up to the cap. */
const BACKOFF_BASE_MS = 500;

/** Answers worth another try: rate limited, or the service (or a proxy in front of it) failed for now. */
const RETRYABLE_STATUSES = new Set([429, 500, 502, 503, 504]);

export function isRetryableStatus(status: number): boolean {
  return RETRYABLE_STATUSES.has(status);
}

/**
 * How long to wait before retry number `attempt + 1`: exponential (500 ms,
 * 1 s, 2 s, ...) up to `capMs`, with jitter so that clients failing together
 * do not retry together (a random point in the upper half of the step).
 */
export function backoffDelayMs(attempt: number, capMs: number, random: () => number = Math.random): number {
  const step = Math.min(capMs, BACKOFF_BASE_MS * 2 ** attempt);
  return Math.round(step / 2 + random() * (step / 2));
}

/** Retry-After as milliseconds: delay-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * How long to wait before retrying a retryable answer: its Retry-After when
 * it has one, else the backoff. undefined (do not retry) when Retry-After asks
 * for longer than `capMs`: the caller is better told than kept waiting.
 */
export function retryDelayForResponse(response: Response, attempt: number, capMs: number, random?: () => number): number | undefined {
  const asked = retryAfterMs(response.headers.get("retry-after"));
  if (asked === undefined) return backoffDelayMs(attempt, capMs, random);
  return asked <= capMs ? asked : undefined;
}
