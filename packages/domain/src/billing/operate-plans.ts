import { currentBillingPeriod } from "@outreach/core";
import { lockAccount, type Db, type Plan } from "@outreach/db";
import type { Tx } from "../tx.js";
import { ENTITLING_STATUSES, FREE_PLAN_SLUG } from "./sync-account-plan.js";

/** An operator command that cannot be carried out as asked; the message says why and what to do. */
export class OperatorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "OperatorError";
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function findPlan(tx: Tx, slug: string): Promise<Plan> {
  const plan = await tx.plan.findUnique({ where: { slug } });
  if (!plan) throw new OperatorError(`no plan "${slug}" (see \`pnpm ops plans\`)`);
  return plan;
}

/** An account by id or by email. */
async function findAccount(tx: Tx, ref: string) {
  const where = UUID.test(ref) ? { id: ref } : { email: ref.trim().toLowerCase() };
  const account = await tx.account.findUnique({ where, include: { plan: true, subscriptions: { include: { plan: true } } } });
  if (!account) throw new OperatorError(`no account ${ref}`);
  return account;
}

/** The status GET /billing/subscription shows: the stored one, else active on a priced plan and free otherwise. */
export function displayedStatus(account: { subscriptionStatus: string | null }, plan: Pick<Plan, "providerPriceId">): string {
  return account.subscriptionStatus ?? (plan.providerPriceId ? "active" : "free");
}

export interface AssignPlanResult {
  accountId: string;
  email: string;
  from: string;
  to: string;
}

/**
 * Puts an account on a plan (private ones included, e.g. founder), from the
 * next dispatch on. An account with a subscription that entitles it to a plan
 * is refused unless `force`: that subscription's next event sets its plan again.
 */
export async function assignPlan(db: Db, input: { account: string; plan: string; force?: boolean }): Promise<AssignPlanResult> {
  return db.$transaction(async (tx) => {
    const plan = await findPlan(tx, input.plan);
    const account = await findAccount(tx, input.account);
    await lockAccount(tx, account.id);
    const live = account.subscriptions.find((s) => ENTITLING_STATUSES.has(s.status));
    if (live && !input.force) {
      throw new OperatorError(
        `account ${account.email} has subscription ${live.id} (${live.status}, plan ${live.plan?.slug ?? "unknown"}), which sets its plan at its next event. ` +
          "Cancel it at the provider first, or pass --force to assign anyway.",
      );
    }
    await tx.account.update({
      where: { id: account.id },
      // a live subscription keeps its own status; otherwise the plan is simply in force
      data: { planId: plan.id, ...(live ? {} : { subscriptionStatus: plan.slug === FREE_PLAN_SLUG ? null : "active" }) },
    });
    return { accountId: account.id, email: account.email, from: account.plan.slug, to: plan.slug };
  });
}

/** Archives a plan (no new checkouts; accounts already on it keep it) or brings it back. */
export async function setPlanArchived(db: Db, slug: string, archived: boolean): Promise<Plan> {
  const plan = await findPlan(db, slug);
  if (archived && plan.slug === FREE_PLAN_SLUG) throw new OperatorError("the free plan cannot be archived: new accounts start on it");
  return db.plan.update({
    where: { id: plan.id },
    data: { archivedAt: archived ? (plan.archivedAt ?? new Date()) : null, customizedAt: new Date() },
  });
}

/** Sets (or, with null, clears) the provider price a plan is sold at. Subscriptions on an earlier price keep their plan. */
export async function setPlanPrice(db: Db, slug: string, priceId: string | null): Promise<Plan> {
  const plan = await findPlan(db, slug);
  if (plan.slug === FREE_PLAN_SLUG && priceId !== null) throw new OperatorError("the free plan has no price: it is what accounts fall back to");
  if (priceId !== null) {
    const holder = await db.plan.findUnique({ where: { providerPriceId: priceId } });
    if (holder && holder.id !== plan.id) throw new OperatorError(`price ${priceId} belongs to plan ${holder.slug}; clear it there first (\`pnpm ops set-price ${holder.slug} none\`)`);
  }
  return db.plan.update({ where: { id: plan.id }, data: { providerPriceId: priceId, customizedAt: new Date() } });
}

export async function listPlans(db: Db): Promise<Plan[]> {
  return db.plan.findMany({ orderBy: [{ tier: "asc" }, { monthlyLimit: "asc" }, { slug: "asc" }] });
}

export interface AccountRow {
  accountId: string;
  email: string;
  plan: string;
  status: string;
  periodStart: Date;
  periodEnd: Date;
  sends: number;
  monthlyLimit: number;
  providerCustomerId: string | null;
  providerSubscriptionId: string | null;
  /** set while an operator has the account suspended (pnpm ops suspend) */
  suspendedAt: Date | null;
}

/** Accounts, newest first, with plan, status and the sends of their current billing period. */
export async function listAccounts(db: Db, filter: { plan?: string; email?: string; limit?: number } = {}, now = new Date()): Promise<AccountRow[]> {
  if (filter.plan) await findPlan(db, filter.plan);
  const accounts = await db.account.findMany({
    where: {
      ...(filter.plan ? { plan: { slug: filter.plan } } : {}),
      ...(filter.email ? { email: { contains: filter.email.toLowerCase() } } : {}),
    },
    include: { plan: true },
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
    take: filter.limit ?? 100,
  });
  const periods = accounts.map((a) => currentBillingPeriod({ start: a.currentPeriodStart, end: a.currentPeriodEnd }, now));
  const usage = accounts.length ? await db.usagePeriod.findMany({ where: { OR: accounts.map((a, i) => ({ accountId: a.id, periodStart: periods[i]!.start })) } }) : [];
  const sends = new Map(usage.map((u) => [`${u.accountId} ${u.periodStart.getTime()}`, u.sends]));
  return accounts.map((a, i) => ({
    accountId: a.id,
    email: a.email,
    plan: a.plan.slug,
    status: displayedStatus(a, a.plan),
    periodStart: periods[i]!.start,
    periodEnd: periods[i]!.end,
    sends: sends.get(`${a.id} ${periods[i]!.start.getTime()}`) ?? 0,
    monthlyLimit: a.plan.monthlyLimit,
    providerCustomerId: a.providerCustomerId,
    providerSubscriptionId: a.providerSubscriptionId,
    suspendedAt: a.suspendedAt,
  }));
}
