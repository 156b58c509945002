import { Router } from "express";
import { pingRedis, runReadinessChecks } from "@outreach/core";
import { pingDatabase } from "@outreach/db";
import { CachedValue } from "../cached-value.js";
import type { ApiContext } from "../context.js";

const READINESS_CACHE_MS = 1_000;

export function healthRoutes(ctx: ApiContext, isShuttingDown: () => boolean): Router {
  const router = Router();
  router.get("/healthz", (_req, res) => {
    res.json({ status: "ok" });
  });
  // No key needed: one check at a time and its result reused for a second, so a flood
  // of probes costs at most one database and one Redis round trip per second.
  const checks = new CachedValue(READINESS_CACHE_MS, () => runReadinessChecks({ postgres: () => pingDatabase(ctx.db), redis: () => pingRedis(ctx.redis) }, { logger: ctx.logger }));
  router.get("/readyz", async (_req, res) => {
    const result = isShuttingDown() ? { ok: false, checks: { shutdown: "shutting down" } } : await checks.get();
    res.status(result.ok ? 200 : 503).json({ status: result.ok ? "ok" : "unavailable", checks: result.checks });
  });
  return router;
}
