import { createHash } from "node:crypto";
import Stripe from "stripe";
import type { Config } from "@outreach/core";
import { readSubscription, type SubscriptionSnapshot } from "@outreach/domain";

export interface ProviderSession {
  id: string;
  url: string;
}

/** What the API needs from the payment provider. Stripe implements it; null when none is configured. */
export interface PaymentProvider {
  createCustomer(input: { email: string; name?: string | null; accountId: string }): Promise<{ id: string }>;
  createCheckoutSession(input: { customerId: string; priceId: string; accountId: string; planSlug: string; successUrl: string; cancelUrl: string; idempotencyKey?: string }): Promise<ProviderSession>;
  createPortalSession(input: { customerId: string; returnUrl: string; idempotencyKey?: string }): Promise<ProviderSession>;
  /** The subscription as the provider holds it now; null when it has none by that id. */
  retrieveSubscription(id: string): Promise<SubscriptionSnapshot | null>;
}

export function createStripeClient(config: Pick<Config, "stripeSecretKey" | "stripeApiBase">): Stripe | null {
  if (!config.stripeSecretKey) return null;
  const options: Stripe.StripeConfig = { maxNetworkRetries: 2, timeout: 10_000 };
  if (config.stripeApiBase) {
    const base = new URL(config.stripeApiBase);
    options.host = base.hostname;
    options.port = base.port ? Number(base.port) : base.protocol === "https:" ? 443 : 80;
    options.protocol = base.protocol.replace(":", "") as "http" | "https";
  }
  return new Stripe(config.stripeSecretKey, options);
}

const digest = (...parts: string[]) => createHash("sha256").update(parts.join("\u0000")).digest("hex").slice(0, 40);

export function createPaymentProvider(config: Pick<Config, "stripeSecretKey" | "stripeApiBase">): PaymentProvider | null {
  const stripe = createStripeClient(config);
  if (!stripe) return null;
  return {
    async createCustomer({ email, name, accountId }) {
      // The key depends only on what the client sent, not on the account id (new on every
      // attempt), so a signup retried after a failure gets the customer its first attempt made.
      // The provider refuses a key reused with other parameters: the account id is written after.
      const customer = await stripe.customers.create({ email, name: name ?? undefined }, { idempotencyKey: `signup-${digest(email, name ?? "")}` });
      await stripe.customers.update(customer.id, { metadata: { account_id: accountId } });
      return { id: customer.id };
    },

    async createCheckoutSession(input) {
      const session = await stripe.checkout.sessions.create(
        {
          mode: "subscription",
          customer: input.customerId,
          line_items: [{ price: input.priceId, quantity: 1 }],
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
          client_reference_id: input.accountId,
          metadata: { account_id: input.accountId, plan_slug: input.planSlug },
          // plan_slug names the plan even after the plan is sold at another price
          subscription_data: { metadata: { account_id: input.accountId, plan_slug: input.planSlug } },
        },
        input.idempotencyKey ? { idempotencyKey: input.idempotencyKey } : undefined,
      );
      if (!session.url) throw new Error(`checkout session ${session.id} came without a url`);
      return { id: session.id, url: session.url };
    },

    async createPortalSession(input) {
      const session = await stripe.billingPortal.sessions.create(
        { customer: input.customerId, return_url: input.returnUrl },
        input.idempotencyKey ? { idempotencyKey: input.idempotencyKey } : undefined,
      );
      return { id: session.id, url: session.url };
    },

    async retrieveSubscription(id) {
      try {
        return readSubscription(await stripe.subscriptions.retrieve(id));
      } catch (err) {
        if (err instanceof Stripe.errors.StripeInvalidRequestError && err.statusCode === 404) return null;
        throw err;
      }
    },
  };
}
