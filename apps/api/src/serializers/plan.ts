import type { Plan } from "@outreach/db";

export function serializePublicPlan(plan: Plan) {
  return { slug: plan.slug, name: plan.name, tier: plan.tier, monthly_limit: plan.monthlyLimit, provider_price_id: plan.providerPriceId };
}

export function serializePlan(plan: Plan) {
  return { ...serializePublicPlan(plan), public: plan.public, archived_at: plan.archivedAt };
}
