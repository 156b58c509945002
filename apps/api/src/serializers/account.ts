import { currentBillingPeriod } from "@outreach/core";
import type { Account, Plan } from "@outreach/db";
import { serializePlan } from "./plan.js";

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
