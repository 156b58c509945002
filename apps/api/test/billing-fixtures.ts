import assert from "node:assert/strict";
import { after, before } from "node:test";
import Stripe from "stripe";
import { startStripeStandIn, type StripeStandIn } from "@outreach/testing";
import { request, signUp, startTestApi, type JsonResponse, type TestApi } from "./helpers.js";

/** The shared secret of the provider's webhook endpoint in these tests. */
export const WEBHOOK_SECRET = "whsec_test_billing_secret";

export interface BillingEnv {
  api: TestApi;
  stripe: StripeStandIn;
  close(): Promise<void>;
}

/** The API with the provider played by the stand-in, its webhook secret set, and generous limits. */
export async function startBillingApi(env: Record<string, string> = {}): Promise<BillingEnv> {
  const stripe = await startStripeStandIn();
  const api = await startTestApi({
    STRIPE_SECRET_KEY: "sk_test_standin",
    STRIPE_API_BASE: stripe.url,
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    SIGNUP_LIMIT_PER_HOUR: "100000",
    RATE_LIMIT_PER_MINUTE: "10000000",
    ...env,
  });
  return {
    api,
    stripe,
    async close() {
      await api.close();
      await stripe.close();
    },
  };
}

/**
 * The billing API for one test file: started before its tests and closed after
 * them. The answer is filled in by the before hook, so read it inside tests.
 */
export function billingApiForFile(): BillingEnv {
  const env = {} as BillingEnv;
  before(async () => {
    Object.assign(env, await startBillingApi());
  });
  after(() => env.close?.());
  return env;
}

export const nowSeconds = () => Math.floor(Date.now() / 1000);

/** POSTs an event to /webhooks/provider, signed with stripe-node's own test-header helper. */
export async function postEvent(api: TestApi, event: object, options: { secret?: string; timestamp?: number; header?: string | null } = {}): Promise<JsonResponse> {
  const payload = JSON.stringify(event);
  const header = options.header === undefined ? Stripe.webhooks.generateTestHeaderString({ payload, secret: options.secret ?? WEBHOOK_SECRET, timestamp: options.timestamp }) : options.header;
  return request(api.baseUrl, "POST", "/webhooks/provider", {
    rawBody: payload,
    headers: { "content-type": "application/json", ...(header === null ? {} : { "stripe-signature": header }) },
  });
}

/** Posts the event and expects it to be taken (2xx) with this outcome. */
export async function deliver(api: TestApi, event: object, outcome: string): Promise<void> {
  const res = await postEvent(api, event);
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.outcome, outcome, res.text);
}

/** A fresh account that signed up with the provider configured (so it has a customer). */
export async function payingAccount(env: BillingEnv) {
  const account = await signUp(env.api);
  const row = await env.api.database.db.account.findUniqueOrThrow({ where: { id: account.accountId } });
  assert.ok(row.providerCustomerId, "signup made a customer");
  return { ...account, customerId: row.providerCustomerId };
}

/** Checkout through the API, finished at the stand-in: the subscription the provider now holds. */
export async function subscribe(env: BillingEnv, token: string, planSlug: string) {
  const res = await request(env.api.baseUrl, "POST", "/billing/checkout", { token, body: { plan_slug: planSlug } });
  assert.equal(res.status, 200, res.text);
  return env.stripe.completeCheckout(res.body.id);
}

export async function subscriptionOf(env: BillingEnv, token: string) {
  const res = await request(env.api.baseUrl, "GET", "/billing/subscription", { token });
  assert.equal(res.status, 200, res.text);
  return res.body;
}
