import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { assertError, request, startTestApi, type TestApi } from "./helpers.js";
import { startBillingApi, type BillingEnv } from "./billing-fixtures.js";

describe("signup without a payment provider", () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi({ SIGNUP_LIMIT_PER_HOUR: "1000" });
  });
  after(() => api?.close());

  test("makes a free account with no provider customer", async () => {
    const res = await request(api.baseUrl, "POST", "/signup", { body: { email: "no-provider@example.com" } });
    assert.equal(res.status, 201, res.text);
    const shown = await request(api.baseUrl, "GET", "/billing/subscription", { token: res.body.api_key.plaintext });
    assert.equal(shown.body.plan.slug, "free");
    assert.equal(shown.body.status, "free");
    assert.equal(shown.body.provider_customer_id, null);
    assert.equal(shown.body.provider_subscription_id, null);
  });
});

describe("signup with a payment provider", () => {
  let env: BillingEnv;
  before(async () => {
    env = await startBillingApi();
  });
  after(() => env?.close());

  const signup = (email: string, name?: string) => request(env.api.baseUrl, "POST", "/signup", { body: { email, ...(name ? { name } : {}) } });
  const customersWith = (email: string) => [...env.stripe.customers.values()].filter((c) => c.email === email);
  const accountsWith = (email: string) => env.api.database.db.account.count({ where: { email } });
  const customerCreate = (r: { method: string; path: string }) => r.method === "POST" && r.path === "/v1/customers";
  const customerUpdate = (r: { method: string; path: string }) => r.method === "POST" && /^\/v1\/customers\/cus_/.test(r.path);

  test("creates the customer under an idempotency key and stores its id", async () => {
    const res = await signup("with-provider@example.com", "Grace");
    assert.equal(res.status, 201, res.text);
    const shown = await request(env.api.baseUrl, "GET", "/billing/subscription", { token: res.body.api_key.plaintext });
    const [customer] = customersWith("with-provider@example.com");
    assert.equal(shown.body.provider_customer_id, customer!.id);
    assert.equal(customer!.name, "Grace");
    assert.deepEqual(customer!.metadata, { account_id: res.body.account_id });
    const create = env.stripe.requests.filter(customerCreate).at(-1)!;
    assert.match(String(create.headers["idempotency-key"]), /^signup-[0-9a-f]{40}$/);
  });

  test("the provider failing mid-signup (customer made, then an error) leaves no account; the retry makes no second customer", async () => {
    const email = "mid-signup@example.com";
    env.stripe.failNext(10, 500, "stand-in failure", customerUpdate);
    const failed = await signup(email);
    env.stripe.failNext(0);
    assertError(failed, env.api, 503, "service_unavailable");
    assert.equal(await accountsWith(email), 0);
    assert.equal(await env.api.database.db.apiKey.count({ where: { account: { email } } }), 0);
    assert.equal(customersWith(email).length, 1, "the provider made the customer before the failure");

    const retried = await signup(email);
    assert.equal(retried.status, 201, retried.text);
    const customers = customersWith(email);
    assert.equal(customers.length, 1, "one customer");
    const account = await env.api.database.db.account.findUniqueOrThrow({ where: { email } });
    assert.equal(account.providerCustomerId, customers[0]!.id);
    assert.deepEqual(customers[0]!.metadata, { account_id: account.id });
  });

  test("a signup retried after its answer was lost on the way makes one customer", async () => {
    const email = "lost-answer@example.com";
    // the provider creates the customer, but neither its answer nor the answers to the client's own retries arrive
    env.stripe.loseNextResponses(5, customerCreate);
    const failed = await signup(email, "Lin");
    env.stripe.loseNextResponses(0);
    assertError(failed, env.api, 503, "service_unavailable");
    assert.equal(await accountsWith(email), 0);
    assert.equal(customersWith(email).length, 1);

    const retried = await signup(email, "Lin");
    assert.equal(retried.status, 201, retried.text);
    assert.equal(customersWith(email).length, 1, "the provider replayed the first creation");
    const account = await env.api.database.db.account.findUniqueOrThrow({ where: { email } });
    assert.equal(account.providerCustomerId, customersWith(email)[0]!.id);
  });

  test("the provider down for the whole signup: 503, no account, no customer", async () => {
    const email = "provider-down@example.com";
    env.stripe.failNext(10);
    const failed = await signup(email);
    env.stripe.failNext(0);
    assertError(failed, env.api, 503, "service_unavailable");
    assert.equal(await accountsWith(email), 0);
    assert.equal(customersWith(email).length, 0);
  });

  test("a second signup with a registered email never reaches the provider", async () => {
    const email = "twice-paid@example.com";
    assert.equal((await signup(email)).status, 201);
    const before = env.stripe.requests.length;
    assertError(await signup(email), env.api, 422, "validation_failed", /already registered/);
    assert.equal(env.stripe.requests.length, before);
    assert.equal(customersWith(email).length, 1);
  });
});
