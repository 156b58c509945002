import type { Plan } from "@outreach/db";
import { boolean, component, dateTime, integer, nullable, object, string } from "../openapi/json-schema.js";

export function serializePublicPlan(plan: Plan) {
  return { slug: plan.slug, name: plan.name, tier: plan.tier, monthly_limit: plan.monthlyLimit, provider_price_id: plan.providerPriceId };
}

export function serializePlan(plan: Plan) {
  return { ...serializePublicPlan(plan), public: plan.public, archived_at: plan.archivedAt };
}

// ------------------------------------------------------------ response schemas --

const planFields = {
  slug: string(),
  name: string(),
  tier: integer({ description: "free 0, hobby 1, pro 2, scale 3: the tier sets the account's quotas." }),
  monthly_limit: integer({ description: "Sends per billing period." }),
};

/** GET /plans lists purchasable plans only: each has a price. */
export const publicPlanSchema = component("PublicPlan", object({ ...planFields, provider_price_id: string({ description: "The plan's price at the payment provider." }) }));

export const planSchema = component(
  "Plan",
  object({
    ...planFields,
    provider_price_id: nullable(string({ description: "The plan's price at the payment provider; null for a free plan." })),
    public: boolean({ description: "false for a private plan, which only an operator gives." }),
    archived_at: nullable(dateTime()),
  }),
);
