import type { NextFunction, Request, RequestHandler, Response } from "express";
import { AppError, currentLogContext, isAppError, withLogContext, type Config } from "@outreach/core";
import type { AuthContext } from "../auth.js";
import { clientIp, clientIpBucket } from "../client-ip.js";
import type { ApiContext } from "../context.js";
import { authenticateApiKey, cachedApiKey, tokenHashOf } from "../services/authenticate-api-key.js";
import { routePatternOf } from "./http-metrics.js";
import { checkRateLimit, rateLimitedError, type RateLimitPolicy } from "./rate-limit.js";

/**
 * Failed authentications allowed per client IP (IPv6: per /64) per minute,
 * AUTH_FAILURE_LIMIT_PER_MINUTE: far above what a client with a wrong or
 * revoked key sends, so such a client gets the SPEC's 401; beyond it, a flood
 * of bad keys gets 429 without a database lookup. Only keys of our shape
 * count (they are what could cost a query): a request without an
 * Authorization header, or with a malformed one, is a plain 401 decided
 * without Redis or the database. Only failures are counted, and a known key
 * is still served: one bad client behind a NAT must not lock out the good
 * ones beside it.
 */
export function authFailureLimit(config: Pick<Config, "authFailureLimitPerMinute">): RateLimitPolicy {
  return { name: "auth-failures", limit: config.authFailureLimitPerMinute, windowSeconds: 60 };
}

/**
 * A key the cache has no fresh answer for: looked up (unless the client has
 * failed too often), and a failure counted against the client's address.
 */
async function authenticateWithLookup(ctx: ApiContext, policy: RateLimitPolicy, req: Request): Promise<AuthContext> {
  const authorization = req.get("authorization");
  if (tokenHashOf(authorization) === null) throw new AppError("unauthorized");
  const failureLimit = (peek: boolean) => checkRateLimit(ctx.redis, ctx.config, ctx.logger, policy, clientIpBucket(clientIp(req)), { peek });
  try {
    return await authenticateApiKey(ctx.db, ctx.keyCache, authorization, async (wasValid) => {
      // a key that resolved recently is worth the query even from a blocked address
      if (wasValid) return;
      const state = await failureLimit(true);
      if (state && !state.allowed) throw rateLimitedError(policy, state.retryMs, "ip", "failed authentications");
    });
  } catch (err) {
    if (isAppError(err) && err.code === "unauthorized") {
      const state = await failureLimit(false);
      if (state && !state.allowed) throw rateLimitedError(policy, state.retryMs, "ip", "failed authentications");
    }
    throw err;
  }
}

/**
 * An operator suspended the account (pnpm ops suspend): every request with
 * any of its keys is refused until it is unsuspended. The operator's reason
 * is not shown (it may be internal); the time is.
 */
function suspendedError(suspendedAt: Date): AppError {
  return new AppError(
    "account_suspended",
    `This account was suspended on ${suspendedAt.toISOString()}: its API requests are refused and it sends no email until the suspension is lifted. Contact the service's operator.`,
    { suspended_at: suspendedAt.toISOString() },
  );
}

/** Requires a valid API key (of an account not suspended), records the request for usage reporting, and tags logs with the account. */
export function authenticate(ctx: ApiContext): RequestHandler {
  const failurePolicy = authFailureLimit(ctx.config);
  const admit = (auth: AuthContext, req: Request, res: Response, next: NextFunction): Promise<void> | void => {
    // the access log names the account of a refused request too
    res.locals.auth = auth;
    if (auth.suspendedAt) throw suspendedError(auth.suspendedAt);

    const startedAt = Date.now();
    res.once("finish", () => {
      // a protocol probe that is nobody's mistake (an MCP client asking for an event stream)
      if (res.locals.notUsage === true) return;
      ctx.usage.record({
        ...auth,
        method: req.method,
        // the route pattern (/campaigns/:id), so usage groups by endpoint, not by id
        // a route may name what was done more precisely (an MCP tool call) and its outcome
        route: typeof res.locals.usageRoute === "string" ? res.locals.usageRoute : routePatternOf(res.locals),
        status: typeof res.locals.usageStatus === "number" ? res.locals.usageStatus : res.statusCode,
        durationMs: Date.now() - startedAt,
        createdAt: new Date(startedAt),
      });
    });
    // before the handler, so the client's next request sees the key as used (see UsageRecorder.touch)
    const touched = ctx.usage.touch(auth.apiKeyId, new Date(startedAt));
    if (touched) return touched.then(() => proceed(auth, res, next));
    proceed(auth, res, next);
  };
  return (req, res, next) => {
    // nearly every request: a key the cache holds, answered without waiting for anything
    const cached = cachedApiKey(ctx.keyCache, req.get("authorization"));
    if (cached) return admit(cached, req, res, next);
    return authenticateWithLookup(ctx, failurePolicy, req).then((auth) => admit(auth, req, res, next));
  };
}

function proceed(auth: AuthContext, res: Response, next: NextFunction): void {
  // requestId() opened a log context for this request alone: add the account to it
  // rather than open a second one around the rest of the request
  if (res.locals.requestId !== undefined) {
    currentLogContext().accountId = auth.accountId;
    next();
  } else withLogContext({ accountId: auth.accountId }, () => next());
}
