import { Router } from "express";
import { pingRedis, runReadinessChecks } from "@outreach/core";
import { pingDatabase } from "@outreach/db";
import type { ApiContext } from "../context.js";

export function healthRoutes(ctx: ApiContext, isShuttingDown: () => boolean): Router {
  const router = Router();
  router.get("/healthz", (_req, res) => {
    res.json({ status: "ok" });
  });
  router.get("/readyz", async (_req, res) => {
    const result = isShuttingDown()
      ? { ok: false, checks: { shutdown: "shutting down" } }
      : await runReadinessChecks({ postgres: () => pingDatabase(ctx.db), redis: () => pingRedis(ctx.redis) }, { logger: ctx.logger });
    res.status(result.ok ? 200 : 503).json({ status: result.ok ? "ok" : "unavailable", checks: result.checks });
  });
  return router;
}
