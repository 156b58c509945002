import type { RequestHandler } from "express";
import { withLogContext } from "@outreach/core";
import type { ApiContext } from "../context.js";
import { authenticateApiKey } from "../services/authenticate-api-key.js";

function routeOf(baseUrl: string, pattern: string | undefined, path: string): string {
  const tail = pattern ?? path;
  return (baseUrl + (tail === "/" ? "" : tail)) || "/";
}

/** Requires a valid API key, records the request for usage reporting, and tags logs with the account. */
export function authenticate(ctx: ApiContext): RequestHandler {
  return async (req, res, next) => {
    const auth = await authenticateApiKey(ctx.db, ctx.keyCache, req.get("authorization"));
    res.locals.auth = auth;
    const startedAt = Date.now();
    res.once("finish", () => {
      ctx.usage.record({
        ...auth,
        method: req.method,
        // the route pattern (/campaigns/:id), so usage groups by endpoint, not by id
        route: routeOf(req.baseUrl, req.route?.path, req.path),
        status: res.statusCode,
        durationMs: Date.now() - startedAt,
        createdAt: new Date(startedAt),
      });
    });
    withLogContext({ accountId: auth.accountId }, () => next());
  };
}
