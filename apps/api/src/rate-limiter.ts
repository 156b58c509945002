import { redisKeys, type Config, type Logger, errorFields, type RedisClient } from "@outreach/core";

// GCRA as in checkRateLimit (middleware/rate-limit.ts), but spending up to
// ARGV[3] cells at once: as many as are available, at least one or none.
// Returns {granted, remaining, retry_ms, reset_ms}: retry_ms is when the next
// cell after these is available (0 if now), reset_ms when the full budget is back.
const GCRA_TAKE = `
local key = KEYS[1]
local window = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local want = tonumber(ARGV[3])
local interval = window / limit
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local tat = tonumber(redis.call('GET', key) or now)
if tat < now then tat = now end
local granted = math.floor((now + window - tat) / interval)
if granted > want then granted = want end
if granted < 0 then granted = 0 end
-- settle rounding with the same comparison as the one-cell script
while granted > 0 and tat + granted * interval - window > now do granted = granted - 1 end
while granted < want and tat + (granted + 1) * interval - window <= now do granted = granted + 1 end
if granted == 0 then
  return {0, 0, math.ceil(tat + interval - window - now), math.ceil(tat - now)}
end
local new_tat = tat + granted * interval
redis.call('SET', key, tostring(new_tat), 'PX', math.ceil(new_tat - now) + 1)
local next_at = new_tat + interval - window
local retry = 0
if next_at > now then retry = math.ceil(next_at - now) end
return {granted, math.floor((now - (new_tat - window)) / interval), retry, math.ceil(new_tat - now)}
`;

/** At most this share of a limit is taken from Redis at once (and at most MAX_BATCH). */
const BATCH_SHARE = 0.01;
const MAX_BATCH = 1000;
/** Cells taken ahead and not spent within this time are dropped. */
const LEASE_MS = 1000;
const SWEEP_ABOVE = 10_000;

export interface RateLimitPolicy {
  name: string;
  limit: number;
  windowSeconds: number;
}

export interface RateLimitDecision {
  allowed: boolean;
  remaining: number;
  /** when the next request will be allowed (0 if now) */
  retryMs: number;
  /** when the full budget is back */
  resetMs: number;
}

interface Waiter {
  resolve: (decision: RateLimitDecision | null) => void;
}

interface SubjectState {
  /** cells taken from Redis and not spent yet, valid until leaseUntil */
  cells: number;
  leaseUntil: number;
  /** Redis's remaining budget when the cells were taken */
  remainingBeyondCells: number;
  resetAt: number;
  /** refused without asking Redis until then: no replica can have a cell before */
  refusedUntil: number;
  inFlight: boolean;
  waiting: Waiter[];
}

/**
 * A per-subject request budget shared by every API replica through one Redis
 * key (GCRA), that costs at most one Redis round trip per batch of requests
 * instead of one per request.
 *
 * A replica takes up to 1% of the limit (at most 1,000 cells) in one call and
 * spends it locally for up to a second; requests arriving while a call is under
 * way wait for it and are served by the next one, so there is at most one call
 * in flight per subject and replica. Tolerance, against asking Redis for every
 * request: a subject may get up to one batch per replica more at a given moment
 * (cells a replica took a little earlier and spends now), and up to one batch per
 * replica less (cells a replica took and could not spend within their second are
 * lost). Below 200 requests per window a batch is one cell: exact, every request
 * asks Redis as before. A refusal is remembered until Redis says the next cell is
 * due (exact: no replica can get one sooner). When Redis is unavailable the
 * decision is null (fail open).
 */
export class RateLimiter {
  private readonly subjects = new Map<string, SubjectState>();
  private readonly batch: number;

  constructor(
    private readonly redis: RedisClient,
    private readonly config: Pick<Config, "queuePrefix">,
    private readonly logger: Logger,
    readonly policy: RateLimitPolicy,
  ) {
    this.batch = Math.max(1, Math.min(MAX_BATCH, Math.floor(policy.limit * BATCH_SHARE)));
  }

  /** Spends one request of `subject`'s budget. */
  take(subject: string): RateLimitDecision | null | Promise<RateLimitDecision | null> {
    const now = Date.now();
    const state = this.subjects.get(subject);
    if (state) {
      if (state.refusedUntil > now) return this.refusal(state, now);
      if (state.cells > 0 && state.leaseUntil > now) return this.spend(state, now);
      if (state.inFlight) return new Promise((resolve) => state.waiting.push({ resolve }));
    }
    const fresh = state ?? this.track(subject);
    fresh.cells = 0;
    return new Promise((resolve) => {
      fresh.waiting.push({ resolve });
      void this.refill(subject, fresh);
    });
  }

  private track(subject: string): SubjectState {
    if (this.subjects.size >= SWEEP_ABOVE) this.sweep();
    const state: SubjectState = { cells: 0, leaseUntil: 0, remainingBeyondCells: 0, resetAt: 0, refusedUntil: 0, inFlight: false, waiting: [] };
    this.subjects.set(subject, state);
    return state;
  }

  private spend(state: SubjectState, now: number): RateLimitDecision {
    state.cells--;
    return { allowed: true, remaining: state.remainingBeyondCells + state.cells, retryMs: 0, resetMs: Math.max(0, state.resetAt - now) };
  }

  private refusal(state: SubjectState, now: number): RateLimitDecision {
    return { allowed: false, remaining: 0, retryMs: state.refusedUntil - now, resetMs: Math.max(0, state.resetAt - now) };
  }

  /** One Redis call for everyone waiting (and a batch ahead); loops while requests keep arriving meanwhile. */
  private async refill(subject: string, state: SubjectState): Promise<void> {
    state.inFlight = true;
    try {
      while (state.waiting.length) {
        const waiting = state.waiting;
        state.waiting = [];
        const taken = await this.takeFromRedis(subject, Math.max(this.batch, waiting.length));
        const now = Date.now();
        if (!taken) {
          for (const waiter of waiting) waiter.resolve(null);
          continue;
        }
        const [granted, remaining, retryMs, resetMs] = taken;
        state.cells = granted;
        state.leaseUntil = now + LEASE_MS;
        state.remainingBeyondCells = remaining;
        state.resetAt = now + resetMs;
        if (retryMs > 0 && granted < waiting.length) state.refusedUntil = now + retryMs;
        for (const waiter of waiting) waiter.resolve(state.cells > 0 ? this.spend(state, now) : { allowed: false, remaining: 0, retryMs: Math.max(1, retryMs), resetMs });
        // requests that arrived during the call waited for it: serve them from these cells first
        while (state.waiting.length && state.cells > 0) state.waiting.shift()!.resolve(this.spend(state, now));
        if (state.waiting.length && state.refusedUntil > now) for (const waiter of state.waiting.splice(0)) waiter.resolve(this.refusal(state, now));
      }
    } finally {
      state.inFlight = false;
      if (state.cells === 0 && state.refusedUntil <= Date.now() && !state.waiting.length) this.subjects.delete(subject);
    }
  }

  private async takeFromRedis(subject: string, want: number): Promise<[number, number, number, number] | null> {
    try {
      const key = redisKeys.rateLimit(this.config, this.policy.name, subject);
      return (await this.redis.eval(GCRA_TAKE, 1, key, this.policy.windowSeconds * 1000, this.policy.limit, want)) as [number, number, number, number];
    } catch (err) {
      this.logger.warn("rate limit not enforced: redis unavailable", { ...errorFields(err) });
      return null;
    }
  }

  /** Drops subjects with nothing to remember: no cells left in their lease, no refusal running, nobody waiting. */
  private sweep(): void {
    const now = Date.now();
    for (const [subject, state] of this.subjects) {
      if (!state.inFlight && (state.cells === 0 || state.leaseUntil <= now) && state.refusedUntil <= now) this.subjects.delete(subject);
    }
  }
}
