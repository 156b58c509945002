import { currentBillingPeriod } from "@outreach/core";
import type { Tx } from "../tx.js";

export interface PlanUsage {
  planSlug: string;
  monthlyLimit: number;
  currentPeriodSends: number;
  periodStart: Date;
  periodEnd: Date;
  limitReached: boolean;
}

/** Sends of the account's current billing period against its plan's monthly limit. */
export async function getPlanUsage(tx: Tx, accountId: string, now = new Date()): Promise<PlanUsage> {
  const account = await tx.account.findUniqueOrThrow({ where: { id: accountId }, include: { plan: true } });
  const period = currentBillingPeriod({ start: account.currentPeriodStart, end: account.currentPeriodEnd }, now);
  const usage = await tx.usagePeriod.findUnique({ where: { accountId_periodStart: { accountId, periodStart: period.start } } });
  const sends = usage?.sends ?? 0;
  return {
    planSlug: account.plan.slug,
    monthlyLimit: account.plan.monthlyLimit,
    currentPeriodSends: sends,
    periodStart: period.start,
    periodEnd: period.end,
    limitReached: sends >= account.plan.monthlyLimit,
  };
}
