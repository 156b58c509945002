import type { Request, RequestHandler, Response } from "express";
import type { Redis } from "ioredis";
import { AppError, redisKey, type Config, type Logger } from "@outreach/core";

// GCRA (generic cell rate algorithm): `limit` requests per `window`, allowed as a
// burst of `limit` and refilled one every window/limit. One key of O(1) size per
// subject, shared by all API replicas; time comes from Redis so replicas with
// skewed clocks agree. Returns {allowed, remaining, retry_ms, reset_ms}.
const GCRA = `
local key = KEYS[1]
local window = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
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
redis.call('SET', key, tostring(new_tat), 'PX', math.ceil(new_tat - now) + 1)
return {1, math.floor((now - allow_at) / interval), 0, math.ceil(new_tat - now)}
`;

export interface RateLimitRule {
  name: string;
  limit: number;
  windowSeconds: number;
  /** Who is being limited (API key id, client IP). */
  subject: (req: Request, res: Response) => string;
}

export function rateLimit(redis: Redis, config: Pick<Config, "queuePrefix">, logger: Logger, rule: RateLimitRule): RequestHandler {
  return async (req, res, next) => {
    let result: [number, number, number, number];
    try {
      result = (await redis.eval(GCRA, 1, redisKey(config, "rl", rule.name, rule.subject(req, res)), rule.windowSeconds * 1000, rule.limit)) as [number, number, number, number];
    } catch (err) {
      // Redis is down: the API stays usable (fail open) and readiness reports it.
      logger.warn("rate limit not enforced: redis unavailable", { error: (err as Error).message });
      return next();
    }
    const [allowed, remaining, retryMs, resetMs] = result;
    res.setHeader("RateLimit-Limit", String(rule.limit));
    res.setHeader("RateLimit-Remaining", String(remaining));
    // seconds until the full budget is back
    res.setHeader("RateLimit-Reset", String(Math.max(1, Math.ceil(resetMs / 1000))));
    res.setHeader("RateLimit-Policy", `${rule.limit};w=${rule.windowSeconds}`);
    if (!allowed) {
      const retryAfter = Math.max(1, Math.ceil(retryMs / 1000));
      throw new AppError("rate_limited", `Rate limit of ${rule.limit} requests per ${rule.windowSeconds} seconds exceeded. Retry after ${retryAfter} seconds.`, { limit: rule.limit, period: rule.windowSeconds }, { "Retry-After": String(retryAfter) });
    }
    next();
  };
}
