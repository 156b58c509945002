import { component, constant, object, oneOfValues, string } from "../json-schema.js";
import { defineOperations } from "../operation.js";

const providerEventReceiptSchema = component(
  "ProviderEventReceipt",
  object({
    received: constant(true),
    id: string({ description: "The event's id." }),
    type: string({ description: "The event's type." }),
    outcome: oneOfValues(
      ["applied", "stale", "duplicate", "ignored"],
      "applied; stale (a newer event was applied already); duplicate (this event was processed already); ignored (a type the service does not handle, or an event about no known account or subscription: nothing to change).",
    ),
  }),
);

/** routes/provider-webhook.ts: the payment provider's events. */
export const providerWebhookOperations = defineOperations([
  {
    method: "post",
    path: "/webhooks/provider",
    operationId: "receiveProviderEvent",
    tag: "Provider callbacks",
    summary: "Receive the payment provider's events",
    description:
      "Called by the payment provider (Stripe), not by accounts: no API key. The `Stripe-Signature` header is checked against STRIPE_WEBHOOK_SECRET over the raw body (300 s tolerance); a missing, wrong, stale or future signature, or no configured secret, is 401 `invalid_signature`. Handles customer.subscription.created, .updated and .deleted, invoice.paid and invoice.payment_failed to keep the account's plan in sync with its subscription; other types are acknowledged and ignored. Each event is applied once. When it cannot be applied now (a price no plan carries: 500; the provider unreachable: 503) the answer is a 5xx, so the provider delivers it again.",
    auth: false,
    body: { schema: { type: "object", description: "A Stripe event (1 MB at most), verified against Stripe-Signature before it is read." } },
    responses: { 200: { description: "Received.", schema: providerEventReceiptSchema } },
    errors: ["invalid_signature", "internal_error"],
  },
]);
