import { signupSchema } from "../../routes/public.js";
import { publicPlanSchema } from "../../serializers/plan.js";
import { array, component, integer, object, string, uuid } from "../json-schema.js";
import { defineOperations } from "../operation.js";

const signupResultSchema = component(
  "Signup",
  object({
    account_id: uuid(),
    plan_slug: string({ description: "free: every account starts on the free plan." }),
    api_key: object({
      id: uuid(),
      prefix: string(),
      plaintext: string({ description: "The account's first API key, shown only in this answer: send it as `Authorization: Bearer <key>`." }),
    }),
  }),
);

const signupRateHeaders = {
  "RateLimit-Limit": { description: "Signups the client address may make per hour.", schema: integer() },
  "RateLimit-Remaining": { description: "Signups left in the window.", schema: integer() },
  "RateLimit-Reset": { description: "Seconds until the full budget is back.", schema: integer() },
  "RateLimit-Policy": { description: "`<limit>;w=3600`.", schema: string() },
};

/** routes/public.ts: what needs no API key. */
export const publicOperations = defineOperations([
  {
    method: "get",
    path: "/plans",
    operationId: "listPlans",
    tag: "Signup and Plans",
    summary: "List the plans for sale",
    description: "Public, priced plans that are not archived, by tier. No API key. Answered from memory for up to PLANS_CACHE_SECONDS (30 s), so an operator's change shows within that time.",
    auth: false,
    responses: { 200: { description: "The purchasable plans.", schema: array(publicPlanSchema) } },
  },
  {
    method: "post",
    path: "/signup",
    operationId: "signUp",
    tag: "Signup and Plans",
    summary: "Create an account",
    description:
      "An account on the free plan with its first API key. No API key. Limited per client address (IPv6: per /64) to SIGNUP_LIMIT_PER_HOUR (5) an hour: past it, 429 rate_limited with Retry-After and `details.scope` `ip`. An email already registered is 422 validation_failed naming `email`. The payment provider's customer is created with the account: if the provider fails, no account is made (503 service_unavailable). Idempotency-Key is not honoured here.",
    auth: false,
    body: { schema: signupSchema },
    responses: { 201: { description: "The account and its first key.", schema: signupResultSchema, headers: signupRateHeaders } },
    errors: ["rate_limited"],
  },
]);
