import type { Db } from "@outreach/db";
import { getPlanUsage } from "@outreach/domain";

/** Sends of the current billing period against the plan's monthly limit. */
export async function getBillingUsage(db: Db, accountId: string, now = new Date()) {
  const usage = await getPlanUsage(db, accountId, now);
  return {
    plan_slug: usage.planSlug,
    monthly_limit: usage.monthlyLimit,
    current_period_sends: usage.currentPeriodSends,
    remaining: Math.max(0, usage.monthlyLimit - usage.currentPeriodSends),
    limit_reached: usage.limitReached,
    period_start: usage.periodStart,
    period_end: usage.periodEnd,
  };
}
