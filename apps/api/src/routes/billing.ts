import { Router } from "express";
import { authOf } from "../auth.js";
import type { ApiContext } from "../context.js";
import { serializeSubscription } from "../serializers/account.js";
import { getBillingUsage } from "../services/get-billing-usage.js";

/** Mounted at /billing behind authentication. */
export function billingRoutes(ctx: ApiContext): Router {
  const router = Router();

  router.get("/subscription", async (_req, res) => {
    const account = await ctx.db.account.findUniqueOrThrow({ where: { id: authOf(res).accountId }, include: { plan: true } });
    res.json(serializeSubscription(account));
  });

  router.get("/usage", async (_req, res) => {
    res.json(await getBillingUsage(ctx.db, authOf(res).accountId));
  });

  return router;
}
