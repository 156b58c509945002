import Joi from "joi";
import { Router } from "express";
import { authOf } from "../auth.js";
import type { ApiContext } from "../context.js";
import { contract } from "../contracts/contract.js";
import { reportApiUsage } from "../services/report-api-usage.js";
import { validateQuery } from "../validation.js";

export const usageQuery = contract("UsageQuery", Joi.object({ days: Joi.number().integer().min(1).max(90).default(30) }));

/** Mounted at /usage behind authentication. */
export function usageRoutes(ctx: ApiContext): Router {
  const router = Router();
  router.get("/", async (req, res) => {
    const { days } = validateQuery(usageQuery, req.query);
    res.json(await reportApiUsage(ctx.db, authOf(res).accountId, days));
  });
  return router;
}
