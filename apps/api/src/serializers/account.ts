import { currentBillingPeriod } from "@outreach/core";
import type { Account, Plan } from "@outreach/db";
import { component, dateTime, nullable, object, string, uuid } from "../openapi/json-schema.js";
import { planSchema, serializePlan } from "./plan.js";
import { quotasSchema } from "./quotas.js";

export function serializeSubscription(account: Account & { plan: Plan }, now = new Date()) {
  const period = currentBillingPeriod({ start: account.currentPeriodStart, end: account.currentPeriodEnd }, now);
  return {
    account_id: account.id,
    plan: serializePlan(account.plan),
    status: account.subscriptionStatus ?? (account.plan.providerPriceId ? "active" : "free"),
    provider_customer_id: account.providerCustomerId,
    provider_subscription_id: account.providerSubscriptionId,
    current_period_start: period.start,
    current_period_end: period.end,
  };
}

// ------------------------------------------------------------ response schemas --

/** GET /billing/subscription: the subscription with the account's quotas. */
export const subscriptionSchema = component(
  "Subscription",
  object({
    account_id: uuid(),
    plan: planSchema,
    status: string({
      description:
        "The payment provider's subscription status: active, trialing, past_due, unpaid, canceled, incomplete, incomplete_expired or paused; free for an account that never subscribed. active, trialing and past_due keep the subscription's plan; any other puts the account on free limits.",
    }),
    provider_customer_id: nullable(string()),
    provider_subscription_id: nullable(string()),
    current_period_start: dateTime("The billing period sends are counted in."),
    current_period_end: dateTime(),
    quotas: quotasSchema,
  }),
);
