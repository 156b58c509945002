import type { Db } from "./client.js";

export interface PlanSeed {
  slug: string;
  name: string;
  tier: number;
  monthlyLimit: number;
  providerPriceId: string | null;
  public: boolean;
}

/** The default plans. Paid price ids can be set per deployment with PLAN_PRICE_<SLUG>. */
export function defaultPlans(env: NodeJS.ProcessEnv = process.env): PlanSeed[] {
  const price = (slug: string) => env[`PLAN_PRICE_${slug.toUpperCase()}`] || `price_${slug}_monthly`;
  return [
    { slug: "free", name: "Free", tier: 0, monthlyLimit: 100, providerPriceId: null, public: true },
    { slug: "hobby", name: "Hobby", tier: 1, monthlyLimit: 5_000, providerPriceId: price("hobby"), public: true },
    { slug: "pro", name: "Pro", tier: 2, monthlyLimit: 25_000, providerPriceId: price("pro"), public: true },
    { slug: "scale", name: "Scale", tier: 3, monthlyLimit: 150_000, providerPriceId: price("scale"), public: true },
    { slug: "founder", name: "Founder", tier: 3, monthlyLimit: 150_000, providerPriceId: null, public: false },
  ];
}

/**
 * Inserts missing default plans and keeps the others as defined here (and by
 * PLAN_PRICE_<SLUG>), except plans an operator has changed (`customizedAt`
 * set by `pnpm ops`): those are never overwritten. Never touches archivedAt.
 */
export async function seedPlans(db: Db, plans: PlanSeed[] = defaultPlans()): Promise<void> {
  for (const plan of plans) {
    // a price id an operator gave another plan stays with that plan
    const holder = plan.providerPriceId ? await db.plan.findUnique({ where: { providerPriceId: plan.providerPriceId } }) : null;
    const priceTaken = holder !== null && holder.slug !== plan.slug;
    await db.plan.createMany({ data: [{ ...plan, providerPriceId: priceTaken ? null : plan.providerPriceId }], skipDuplicates: true });
    await db.plan.updateMany({
      where: { slug: plan.slug, customizedAt: null },
      data: { name: plan.name, tier: plan.tier, monthlyLimit: plan.monthlyLimit, public: plan.public, ...(priceTaken ? {} : { providerPriceId: plan.providerPriceId }) },
    });
  }
}
