import Joi from "joi";
import { Router } from "express";
import { authOf, param } from "../auth.js";
import type { ApiContext } from "../context.js";
import { contract } from "../contracts/contract.js";
import { serializeCampaignAnalytics } from "../serializers/campaign-analytics.js";
import { getCampaignAnalytics } from "../services/get-campaign-analytics.js";
import { validateQuery } from "../validation.js";

const calendarDay = Joi.string()
  .pattern(/^\d{4}-\d{2}-\d{2}$/)
  .messages({ "string.pattern.base": "{{#label}} must be a calendar date (YYYY-MM-DD)" });

export const analyticsQuery = contract(
  "CampaignAnalyticsQuery",
  Joi.object({
    group_by: Joi.string().valid("step", "day", "variant").required(),
    from: calendarDay,
    to: calendarDay,
  }),
);

/**
 * GET /campaigns/:id/analytics, mounted by campaignRoutes() beside the
 * workflow actions: sends and what they drew per step, variant or day.
 */
export function campaignAnalyticsRoutes(ctx: ApiContext): Router {
  const router = Router();
  router.get("/:id/analytics", async (req, res) => {
    const query = validateQuery(analyticsQuery, req.query);
    const analytics = await getCampaignAnalytics(ctx.db, authOf(res).accountId, param(req, "id"), { groupBy: query.group_by, from: query.from, to: query.to });
    res.json(serializeCampaignAnalytics(analytics));
  });
  return router;
}
