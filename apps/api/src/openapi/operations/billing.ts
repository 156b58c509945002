import { checkoutSchema, portalSchema } from "../../routes/billing.js";
import { subscriptionSchema } from "../../serializers/account.js";
import { boolean, component, dateTime, integer, object, string, uri } from "../json-schema.js";
import { defineOperations } from "../operation.js";

const billingUsageSchema = component(
  "BillingUsage",
  object({
    plan_slug: string(),
    monthly_limit: integer(),
    current_period_sends: integer({ minimum: 0 }),
    remaining: integer({ minimum: 0 }),
    limit_reached: boolean({ description: "true: dispatch answers 402 plan_limit_reached until the next period or a larger plan." }),
    period_start: dateTime(),
    period_end: dateTime(),
  }),
);

const checkoutSessionSchema = component(
  "CheckoutSession",
  object({ id: string(), url: uri(), plan_slug: string() }, { description: "A checkout session at the payment provider: send the buyer to url." }),
);

const portalSessionSchema = component("PortalSession", object({ id: string(), url: uri() }, { description: "A customer-portal session at the payment provider: send the customer to url." }));

/** routes/billing.ts: the account's plan, its sends this period, checkout and the customer portal. */
export const billingOperations = defineOperations([
  {
    method: "get",
    path: "/billing/subscription",
    operationId: "getSubscription",
    tag: "Billing",
    summary: "Get the account's plan, subscription and quotas",
    auth: true,
    responses: { 200: { description: "The subscription, with every quota's limit and current count.", schema: subscriptionSchema } },
  },
  {
    method: "get",
    path: "/billing/usage",
    operationId: "getBillingUsage",
    tag: "Billing",
    summary: "Get the sends of the current billing period",
    description: "Sends are counted per billing period and checked at dispatch. A paid plan's period is its subscription's; a free account's runs monthly from its signup time.",
    auth: true,
    responses: { 200: { description: "Sends of the current period against the plan's monthly limit.", schema: billingUsageSchema } },
  },
  {
    method: "post",
    path: "/billing/checkout",
    operationId: "createCheckoutSession",
    tag: "Billing",
    summary: "Start buying a plan",
    description:
      "A subscription-mode checkout session for the plan's price; the buyer pays at `url` and comes back to `success_url` (or `cancel_url`). Only public, priced plans that are not archived are sold (GET /plans lists them). An account that already has a subscription changes plans in the portal instead (422 unprocessable), so nobody pays twice. 503 service_unavailable when the payment provider fails.",
    auth: true,
    idempotent: true,
    body: { schema: checkoutSchema },
    responses: { 200: { description: "The checkout session.", schema: checkoutSessionSchema } },
    errors: ["plan_not_found", "plan_not_purchasable", "no_provider_customer", "unprocessable"],
  },
  {
    method: "post",
    path: "/billing/portal",
    operationId: "createPortalSession",
    tag: "Billing",
    summary: "Open the customer portal",
    description: "A customer-portal session: payment methods, invoices, switching between the paid plans, cancelling. 503 service_unavailable when the payment provider fails.",
    auth: true,
    idempotent: true,
    body: { schema: portalSchema, required: false },
    responses: { 200: { description: "The portal session.", schema: portalSessionSchema } },
    errors: ["no_provider_customer"],
  },
]);
