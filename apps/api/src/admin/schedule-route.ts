import { Router } from "express";
import Joi from "joi";
import { AppError, InboxLeases, redisKeys, type Config, type RedisClient } from "@outreach/core";
import type { Db } from "@outreach/db";
import { MAX_SCHEDULE_ACCOUNTS, readScheduleOverview, scheduleOverviewJson } from "@outreach/domain";
import { contract } from "../contracts/contract.js";
import { validateQuery } from "../validation.js";

const query = contract(
  "ScheduleOverviewQuery",
  Joi.object({
    account: Joi.string().guid().description("one account only (listed even with nothing waiting)"),
    limit: Joi.number().integer().min(1).max(MAX_SCHEDULE_ACCOUNTS).description("accounts listed at most (100 by default)"),
  }),
);

/**
 * GET /admin/schedule: what waits to be sent, per account and campaign, as
 * `pnpm ops schedule --json` prints it (one domain function behind both).
 */
export function scheduleRoutes(db: Db, redis: RedisClient, config: Pick<Config, "queuePrefix">): Router {
  const router = Router();
  const leases = new InboxLeases(redis, (id) => redisKeys.inboxLease(config, id), "operator-view");
  router.get("/schedule", async (req, res) => {
    const { account, limit } = validateQuery(query, req.query);
    const overview = await readScheduleOverview(db, leases, { accountId: account, limit });
    if (!overview) throw new AppError("not_found", `No account ${account}.`);
    res.setHeader("Cache-Control", "no-store");
    res.json(scheduleOverviewJson(overview));
  });
  return router;
}
