import type { NextFunction, Request, RequestHandler, Response } from "express";
import { AppError, redisKeys, type Config, type Logger, errorFields, type RedisClient } from "@outreach/core";
import { RateLimiter, type RateLimitDecision, type RateLimitPolicy } from "../rate-limiter.js";

// GCRA (generic cell rate algorithm): `limit` requests per `window`, allowed as a
// burst of `limit` and refilled one every window/limit. One key of O(1) size per
// subject, shared by all API replicas; time comes from Redis so replicas with
// skewed clocks agree. With peek = 1 nothing is spent: it answers whether one
// more request would be allowed. Returns {allowed, remaining, retry_ms, reset_ms}.
const GCRA = `
local key = KEYS[1]
local window = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local peek = ARGV[3] == '1'
local interval = window / limit
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local tat = tonumber(redis.call('GET', key) or now)
if tat < now then tat = now end
local new_tat = tat + interval
local allow_at = new_tat - window
if allow_at > now then
  return {0, 0, math.ceil(allow_at - now), math.ceil(tat - now)}
end
if not peek then
  redis.call('SET', key, tostring(new_tat), 'PX', math.ceil(new_tat - now) + 1)
end
return {1, math.floor((now - allow_at) / interval), 0, math.ceil(new_tat - now)}
`;

export type { RateLimitPolicy };

/** Whose budget a limit is: one API key's, an account's (all its keys together), a client address's. */
export type RateLimitScope = "key" | "account" | "ip";

const SCOPE_WORDS: Record<RateLimitScope, string> = {
  key: "per API key",
  account: "per account (all its API keys together)",
  ip: "per client address",
};

export interface RateLimitRule extends RateLimitPolicy {
  scope: RateLimitScope;
  /** Who is being limited (API key id, account id, client IP). */
  subject: (req: Request, res: Response) => string;
}

export interface RateLimitResult {
  allowed: boolean;
  remaining: number;
  /** when the next request will be allowed (0 if now) */
  retryMs: number;
  /** when the full budget is back */
  resetMs: number;
}

/**
 * Spends one request of `subject`'s budget (or with peek, only looks whether one
 * is left). null when Redis is unavailable: the API stays usable (fail open) and
 * readiness reports it.
 */
export async function checkRateLimit(
  redis: RedisClient,
  config: Pick<Config, "queuePrefix">,
  logger: Logger,
  policy: RateLimitPolicy,
  subject: string,
  options: { peek?: boolean } = {},
): Promise<RateLimitResult | null> {
  try {
    const key = redisKeys.rateLimit(config, policy.name, subject);
    const [allowed, remaining, retryMs, resetMs] = (await redis.eval(GCRA, 1, key, policy.windowSeconds * 1000, policy.limit, options.peek ? "1" : "0")) as [number, number, number, number];
    return { allowed: allowed === 1, remaining, retryMs, resetMs };
  } catch (err) {
    logger.warn("rate limit not enforced: redis unavailable", { ...errorFields(err) });
    return null;
  }
}

/** 429 rate_limited with Retry-After and details {limit, period, scope}: scope says which limit was hit. */
export function rateLimitedError(policy: RateLimitPolicy, retryMs: number, scope: RateLimitScope, what = "requests"): AppError {
  const retryAfter = Math.max(1, Math.ceil(retryMs / 1000));
  return new AppError(
    "rate_limited",
    `Rate limit of ${policy.limit} ${what} per ${policy.windowSeconds} seconds ${SCOPE_WORDS[scope]} exceeded. Retry after ${retryAfter} seconds.`,
    { limit: policy.limit, period: policy.windowSeconds, scope },
    { "Retry-After": String(retryAfter) },
  );
}

/**
 * Spends one request of the rule's budget per request and answers with the
 * RateLimit-* headers, or 429. Budgets are taken from Redis in batches (see
 * RateLimiter for the tolerance across replicas). Behind another limit (a key's,
 * then its account's), the headers describe whichever has less left.
 */
export function rateLimit(redis: RedisClient, config: Pick<Config, "queuePrefix">, logger: Logger, rule: RateLimitRule): RequestHandler {
  const limiter = new RateLimiter(redis, config, logger, rule);
  const policyHeader = `${rule.limit};w=${rule.windowSeconds}`;
  const limitHeader = String(rule.limit);
  const answer = (result: RateLimitDecision | null, res: Response, next: NextFunction) => {
    if (!result) return next();
    const shown = res.getHeader("RateLimit-Remaining");
    if (result.allowed && shown !== undefined && Number(shown) <= result.remaining) return next();
    res.setHeader("RateLimit-Limit", limitHeader);
    res.setHeader("RateLimit-Remaining", String(result.remaining));
    // seconds until the full budget is back
    res.setHeader("RateLimit-Reset", String(Math.max(1, Math.ceil(result.resetMs / 1000))));
    res.setHeader("RateLimit-Policy", policyHeader);
    if (!result.allowed) throw rateLimitedError(rule, result.retryMs, rule.scope);
    next();
  };
  // nearly every request is answered from cells already taken: no promise for those
  return (req, res, next) => {
    const taken = limiter.take(rule.subject(req, res));
    if (taken instanceof Promise) return taken.then((result) => answer(result, res, next));
    answer(taken, res, next);
  };
}
