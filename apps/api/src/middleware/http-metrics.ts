import type { RequestHandler } from "express";
import type { httpSeries } from "@outreach/core";
import type { RoutePatterns } from "../route-patterns.js";

/** What the answer of a request is counted under: its route pattern, read once. */
export function routePatternOf(locals: Record<string, unknown>): string {
  const read = locals.routePattern as (() => string) | undefined;
  return read ? read() : "unmatched";
}

/**
 * First on every request: gives it its route pattern (res.locals.routePattern,
 * for the request log too) and counts its answer in outreach_http_requests_total
 * and outreach_http_request_duration_seconds, 401s and public routes included.
 */
export function httpMetrics(series: ReturnType<typeof httpSeries>, patterns: RoutePatterns): RequestHandler {
  return (req, res, next) => {
    const startedAt = process.hrtime.bigint();
    const path = req.path;
    let pattern: string | undefined;
    res.locals.routePattern = () => (pattern ??= patterns.of(path));
    res.once("finish", () => {
      const route = routePatternOf(res.locals);
      const method = req.method;
      series.requests.inc({ method, route, status: String(res.statusCode) });
      series.duration.observe({ method, route }, Number(process.hrtime.bigint() - startedAt) / 1e9);
    });
    next();
  };
}
