import type { RequestHandler } from "express";
import type { Logger } from "@outreach/core";
import { routePatternOf } from "./http-metrics.js";

/**
 * Whether the logger's level lets `level` through: winston formats a line
 * before its transports drop it by level, so a line nobody reads would cost as
 * much as one written.
 */
function passes(logger: Logger, level: string): boolean {
  return logger.levels[level]! <= logger.levels[logger.level]!;
}

/**
 * One line per request once it is answered, whatever answered it (a route, an
 * authentication failure, a rate limit, a public page): request id, account
 * (when authenticated), method, route pattern, status and duration. At info
 * level; 5xx at warn, so they stand out.
 */
export function accessLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    if (!passes(logger, "warn")) return next();
    const startedAt = process.hrtime.bigint();
    res.once("finish", () => {
      const level = res.statusCode >= 500 ? "warn" : "info";
      if (!passes(logger, level)) return;
      const auth = res.locals.auth as { accountId?: string } | undefined;
      const fields = {
        requestId: res.locals.requestId as string | undefined,
        accountId: auth?.accountId,
        method: req.method,
        route: routePatternOf(res.locals),
        status: res.statusCode,
        durationMs: Math.round(Number(process.hrtime.bigint() - startedAt) / 1e5) / 10,
      };
      logger.log(level, "request", fields);
    });
    next();
  };
}
