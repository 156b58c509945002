import type { Tx } from "../tx.js";

export const FREE_PLAN_SLUG = "free";

/** Subscriptions that entitle an account to their plan: paid, trialing, or a failed payment the provider still retries. */
export const ENTITLING_STATUSES: ReadonlySet<string> = new Set(["active", "trialing", "past_due"]);

/** Subscriptions that are over for good. */
export const ENDED_STATUSES: ReadonlySet<string> = new Set(["canceled", "incomplete_expired"]);

const ms = (date: Date | null | undefined) => date?.getTime() ?? 0;

/**
 * Derives the account's plan, status and billing period from its provider
 * subscriptions (nothing changes for an account that has none).
 *
 * With an entitling subscription: its plan (the highest tier when there are
 * several, then the newest), status and period. Without one: the status of the
 * most recently changed subscription, and the free plan, unless the account is
 * on a private plan (those are only given by an operator, so no subscription
 * took them away). The period is kept then: free months roll on from it, so the
 * sends already counted in the current period count against the lower limit.
 */
export async function syncAccountPlan(tx: Tx, accountId: string): Promise<void> {
  const subscriptions = await tx.providerSubscription.findMany({ where: { accountId }, include: { plan: true } });
  if (subscriptions.length === 0) return;

  const entitling = subscriptions.filter((s) => s.plan !== null && ENTITLING_STATUSES.has(s.status));
  if (entitling.length > 0) {
    entitling.sort((a, b) => b.plan!.tier - a.plan!.tier || ms(b.startedAt) - ms(a.startedAt) || ms(b.snapshotAt) - ms(a.snapshotAt));
    const chosen = entitling[0]!;
    const hasPeriod = chosen.currentPeriodStart && chosen.currentPeriodEnd && chosen.currentPeriodEnd > chosen.currentPeriodStart;
    await tx.account.update({
      where: { id: accountId },
      data: {
        planId: chosen.planId!,
        providerSubscriptionId: chosen.id,
        subscriptionStatus: chosen.status,
        ...(hasPeriod ? { currentPeriodStart: chosen.currentPeriodStart!, currentPeriodEnd: chosen.currentPeriodEnd! } : {}),
      },
    });
    return;
  }

  subscriptions.sort((a, b) => ms(b.statusAt ?? b.snapshotAt) - ms(a.statusAt ?? a.snapshotAt));
  const latest = subscriptions[0]!;
  const account = await tx.account.findUniqueOrThrow({ where: { id: accountId }, include: { plan: true } });
  const keepPlan = !account.plan.public;
  const free = keepPlan ? null : await tx.plan.findUnique({ where: { slug: FREE_PLAN_SLUG } });
  if (!keepPlan && !free) throw new Error("the free plan is missing; run the seed");
  await tx.account.update({
    where: { id: accountId },
    data: { providerSubscriptionId: latest.id, subscriptionStatus: latest.status, ...(free ? { planId: free.id } : {}) },
  });
}
