import { Router } from "express";
import { isHttpUrl } from "@outreach/core";
import { accountQuotaReport } from "@outreach/domain";
import { authOf } from "../auth.js";
import type { ApiContext } from "../context.js";
import { contract } from "../contracts/contract.js";
import { idempotent } from "../middleware/idempotency.js";
import { withoutNul } from "../request-body.js";
import { serializeSubscription } from "../serializers/account.js";
import { serializeQuotas } from "../serializers/quotas.js";
import { createCheckoutSession } from "../services/create-checkout-session.js";
import { createPortalSession } from "../services/create-portal-session.js";
import { getBillingUsage } from "../services/get-billing-usage.js";
import { J, validateBody } from "../validation.js";

// Not Joi's uri(): the provider fills placeholders such as {CHECKOUT_SESSION_ID} into these.
const returnUrl = withoutNul(J.string().max(2048))
  .custom((value: string, helpers) => (isHttpUrl(value) ? value : helpers.error("any.invalid")))
  .messages({ "any.invalid": "{{#label}} must be an absolute http or https URL" });

export const checkoutSchema = contract(
  "CheckoutBody",
  J.object({
    plan_slug: withoutNul(J.string().trim().lowercase().min(1).max(100)).required(),
    success_url: returnUrl,
    cancel_url: returnUrl,
  }),
);
export const portalSchema = contract("PortalBody", J.object({ return_url: returnUrl }));

/** Mounted at /billing behind authentication. */
export function billingRoutes(ctx: ApiContext): Router {
  const router = Router();

  router.get("/subscription", async (_req, res) => {
    const accountId = authOf(res).accountId;
    const account = await ctx.db.account.findUniqueOrThrow({ where: { id: accountId }, include: { plan: true } });
    // what the plan (and any operator override) lets the account hold, and what it holds
    const quotas = serializeQuotas(await accountQuotaReport(ctx.db, accountId));
    res.json({ ...serializeSubscription(account), quotas });
  });

  router.get("/usage", async (_req, res) => {
    res.json(await getBillingUsage(ctx.db, authOf(res).accountId));
  });

  router.post("/checkout", idempotent(ctx), async (req, res) => {
    const body = validateBody(checkoutSchema, req.body);
    const session = await createCheckoutSession(ctx.db, ctx.paymentProvider, ctx.logger, authOf(res).accountId, {
      planSlug: body.plan_slug,
      successUrl: body.success_url ?? ctx.config.billingSuccessUrl,
      cancelUrl: body.cancel_url ?? ctx.config.billingCancelUrl,
      idempotencyKey: req.get("idempotency-key"),
    });
    res.json(session);
  });

  router.post("/portal", idempotent(ctx), async (req, res) => {
    const body = validateBody(portalSchema, req.body);
    const session = await createPortalSession(ctx.db, ctx.paymentProvider, ctx.logger, authOf(res).accountId, {
      returnUrl: body.return_url ?? ctx.config.billingPortalReturnUrl,
      idempotencyKey: req.get("idempotency-key"),
    });
    res.json(session);
  });

  return router;
}
