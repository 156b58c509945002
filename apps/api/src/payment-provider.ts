import Stripe from "stripe";
import type { Config } from "@outreach/core";

/** What the API needs from the payment provider. Stripe implements it; null when none is configured. */
export interface PaymentProvider {
  createCustomer(input: { email: string; name?: string | null; accountId: string }): Promise<{ id: string }>;
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

export function createPaymentProvider(config: Pick<Config, "stripeSecretKey" | "stripeApiBase">): PaymentProvider | null {
  const stripe = createStripeClient(config);
  if (!stripe) return null;
  return {
    async createCustomer({ email, name, accountId }) {
      const customer = await stripe.customers.create(
        { email, name: name ?? undefined, metadata: { account_id: accountId } },
        // the provider dedupes retries of this call, so a retried signup creates one customer
        { idempotencyKey: `signup-${accountId}` },
      );
      return { id: customer.id };
    },
  };
}
