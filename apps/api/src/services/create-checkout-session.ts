import { createHash } from "node:crypto";
import { AppError, type Logger, errorFields } from "@outreach/core";
import type { Db } from "@outreach/db";
import { ENDED_STATUSES } from "@outreach/domain";
import type { PaymentProvider } from "../payment-provider.js";

export interface CheckoutInput {
  planSlug: string;
  successUrl: string;
  cancelUrl: string;
  /** the request's Idempotency-Key, if any: passed on, so a retry after a 5xx gets the session already made */
  idempotencyKey?: string;
}

/** A subscription that is neither over nor abandoned before its first payment: a second one would bill twice. */
export async function findOpenSubscription(db: Db, accountId: string) {
  const subscriptions = await db.providerSubscription.findMany({ where: { accountId }, orderBy: { createdAt: "desc" } });
  return subscriptions.find((s) => !ENDED_STATUSES.has(s.status) && s.status !== "incomplete") ?? null;
}

/**
 * A subscription-mode checkout session for a plan. 404 plan_not_found; 422
 * plan_not_purchasable for a free (no price), private or archived plan; 422
 * no_provider_customer; 422 unprocessable when the account already has a
 * subscription (plans are changed in the portal); 503 when the provider fails.
 */
export async function createCheckoutSession(db: Db, provider: PaymentProvider | null, logger: Logger, accountId: string, input: CheckoutInput) {
  const plan = await db.plan.findUnique({ where: { slug: input.planSlug } });
  if (!plan) throw new AppError("plan_not_found", undefined, { plan_slug: input.planSlug });
  const why = !plan.providerPriceId ? "it is free" : !plan.public ? "it is private" : plan.archivedAt ? "it is archived" : null;
  if (why) throw new AppError("plan_not_purchasable", `The plan ${plan.slug} cannot be purchased: ${why}.`, { plan_slug: plan.slug });

  const account = await db.account.findUniqueOrThrow({ where: { id: accountId } });
  if (!account.providerCustomerId) throw new AppError("no_provider_customer");
  const open = await findOpenSubscription(db, accountId);
  if (open) {
    throw new AppError("unprocessable", "The account already has a subscription; change its plan through POST /billing/portal.", {
      provider_subscription_id: open.id,
      status: open.status,
    });
  }
  if (!provider) throw new AppError("service_unavailable", "No payment provider is configured.");

  try {
    const session = await provider.createCheckoutSession({
      customerId: account.providerCustomerId,
      priceId: plan.providerPriceId!,
      accountId,
      planSlug: plan.slug,
      successUrl: input.successUrl,
      cancelUrl: input.cancelUrl,
      idempotencyKey: input.idempotencyKey ? `checkout-${accountId}-${createHash("sha256").update(input.idempotencyKey).digest("hex").slice(0, 40)}` : undefined,
    });
    return { id: session.id, url: session.url, plan_slug: plan.slug };
  } catch (err) {
    // the provider's text stays in the log: it can name prices, keys or internal hosts
    logger.error("the payment provider failed to create a checkout session", { accountId, plan: plan.slug, ...errorFields(err) });
    throw new AppError("service_unavailable", "The payment provider could not create a checkout session; try again.");
  }
}
