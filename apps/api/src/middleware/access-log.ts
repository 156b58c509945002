import type { RequestHandler } from "express";
import type { Logger } from "@outreach/core";
import { routePatternOf } from "./http-metrics.js";

/**
 * One line per request once it is answered, whatever answered it (a route, an
 * authentication failure, a rate limit, a public page): request id, account
 * (when authenticated), method, route pattern, status and duration. At info
 * level; 5xx at warn, so they stand out.
 */
export function accessLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const startedAt = process.hrtime.bigint();
    res.once("finish", () => {
      const auth = res.locals.auth as { accountId?: string } | undefined;
      const fields = {
        requestId: res.locals.requestId as string | undefined,
        accountId: auth?.accountId,
        method: req.method,
        route: routePatternOf(res.locals),
        status: res.statusCode,
        durationMs: Math.round(Number(process.hrtime.bigint() - startedAt) / 1e5) / 10,
      };
      if (res.statusCode >= 500) logger.warn("request", fields);
      else logger.info("request", fields);
    });
    next();
  };
}
