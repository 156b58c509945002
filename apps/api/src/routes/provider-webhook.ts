import { Router } from "express";
import type { ApiContext } from "../context.js";
import { rawBody } from "../middleware/raw-body.js";
import { handleProviderEvent } from "../services/handle-provider-event.js";

/**
 * POST /webhooks/provider: the payment provider's events. No API key: the
 * Stripe-Signature header is checked against STRIPE_WEBHOOK_SECRET over the raw
 * bytes, so this is mounted before any JSON parser (and before the
 * authenticated /webhooks router).
 */
export function providerWebhookRoutes(ctx: ApiContext): Router {
  const router = Router();

  router.post("/webhooks/provider", rawBody("1mb"), async (req, res) => {
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const receipt = await handleProviderEvent({ db: ctx.db, provider: ctx.paymentProvider, logger: ctx.logger, webhookSecret: ctx.config.stripeWebhookSecret }, body, req.get("stripe-signature"));
    res.status(200).json(receipt);
  });

  return router;
}
