import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { assertError, request, signUp, startTestApi, type TestApi } from "./helpers.js";
import { deliver, nowSeconds, payingAccount, startBillingApi, subscribe, type BillingEnv } from "./billing-fixtures.js";

let env: BillingEnv;
before(async () => {
  env = await startBillingApi({ BILLING_SUCCESS_URL: "https://app.example.test/billing/done?session={CHECKOUT_SESSION_ID}", BILLING_CANCEL_URL: "https://app.example.test/billing" });
});
after(() => env?.close());

const checkout = (token: string, body: unknown, headers: Record<string, string> = {}) => request(env.api.baseUrl, "POST", "/billing/checkout", { token, body, headers });
const portal = (token: string, body?: unknown, headers: Record<string, string> = {}) => request(env.api.baseUrl, "POST", "/billing/portal", { token, body, headers });
const sessionsAtProvider = () => env.stripe.requests.filter((r) => r.method === "POST" && r.path === "/v1/checkout/sessions").length;

describe("POST /billing/checkout", () => {
  test("creates a subscription-mode checkout session for the plan's price and answers its id and URL", async () => {
    const a = await payingAccount(env);
    const res = await checkout(a.token, { plan_slug: "pro" });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(Object.keys(res.body).sort(), ["id", "plan_slug", "url"]);
    assert.equal(res.body.plan_slug, "pro");
    assert.match(res.body.id, /^cs_test_/);
    const session = env.stripe.checkoutSessions.get(res.body.id)!;
    assert.equal(res.body.url, session.url);
    assert.equal(session.mode, "subscription");
    assert.equal(session.customer, a.customerId);
    assert.deepEqual(session.line_items, [{ price: "price_pro_monthly", quantity: "1" }]);
    assert.equal(session.success_url, "https://app.example.test/billing/done?session={CHECKOUT_SESSION_ID}");
    assert.equal(session.cancel_url, "https://app.example.test/billing");
    assert.equal(session.client_reference_id, a.accountId);
    assert.deepEqual(session.subscription_data.metadata, { account_id: a.accountId, plan_slug: "pro" });
  });

  test("the caller may name its own return URLs", async () => {
    const a = await payingAccount(env);
    const res = await checkout(a.token, { plan_slug: "hobby", success_url: "https://tenant.example/ok", cancel_url: "http://tenant.example/no" });
    assert.equal(res.status, 200, res.text);
    const session = env.stripe.checkoutSessions.get(res.body.id)!;
    assert.equal(session.success_url, "https://tenant.example/ok");
    assert.equal(session.cancel_url, "http://tenant.example/no");
  });

  test("an unknown plan is 404 plan_not_found", async () => {
    const a = await payingAccount(env);
    const before = sessionsAtProvider();
    assertError(await checkout(a.token, { plan_slug: "platinum" }), env.api, 404, "plan_not_found");
    assert.equal(sessionsAtProvider(), before, "the provider is not asked");
  });

  test("free, private and archived plans are 422 plan_not_purchasable", async () => {
    const a = await payingAccount(env);
    const before = sessionsAtProvider();
    assertError(await checkout(a.token, { plan_slug: "free" }), env.api, 422, "plan_not_purchasable", /free/);
    assertError(await checkout(a.token, { plan_slug: "founder" }), env.api, 422, "plan_not_purchasable");
    await env.api.database.db.plan.update({ where: { slug: "scale" }, data: { archivedAt: new Date() } });
    try {
      const archived = await checkout(a.token, { plan_slug: "scale" });
      assertError(archived, env.api, 422, "plan_not_purchasable", /archived/);
      assert.deepEqual(archived.body.details, { plan_slug: "scale" });
    } finally {
      await env.api.database.db.plan.update({ where: { slug: "scale" }, data: { archivedAt: null } });
    }
    assert.equal(sessionsAtProvider(), before);
    assert.equal((await checkout(a.token, { plan_slug: "scale" })).status, 200, "sold again once unarchived");
  });

  test("bad bodies are 422 validation_failed", async () => {
    const a = await payingAccount(env);
    assertError(await checkout(a.token, {}), env.api, 422, "validation_failed", /plan_slug is required/);
    assertError(await checkout(a.token, { plan_slug: 7 }), env.api, 422, "validation_failed", /plan_slug must be a string/);
    assertError(await checkout(a.token, { plan_slug: "pro", success_url: "javascript:alert(1)" }), env.api, 422, "validation_failed", /success_url must be an absolute http or https URL/);
    assertError(await checkout(a.token, { plan_slug: "pro", coupon: "FREE" }), env.api, 422, "validation_failed", /coupon is not allowed/);
    assertError(await checkout(a.token, [1, 2]), env.api, 422, "validation_failed");
    const raw = await request(env.api.baseUrl, "POST", "/billing/checkout", { token: a.token, rawBody: "{nope", headers: { "content-type": "application/json" } });
    assertError(raw, env.api, 400, "bad_request");
  });

  test("needs an API key", async () => {
    assertError(await request(env.api.baseUrl, "POST", "/billing/checkout", { body: { plan_slug: "pro" } }), env.api, 401, "unauthorized");
  });

  test("Idempotency-Key replays the first session; another body under the key is 409", async () => {
    const a = await payingAccount(env);
    const before = sessionsAtProvider();
    const first = await checkout(a.token, { plan_slug: "pro" }, { "idempotency-key": "upgrade-1" });
    const again = await checkout(a.token, { plan_slug: "pro" }, { "idempotency-key": "upgrade-1" });
    assert.equal(first.status, 200, first.text);
    assert.equal(again.status, 200);
    assert.equal(again.headers.get("idempotent-replay"), "true");
    assert.equal(again.text, first.text);
    assert.equal(sessionsAtProvider(), before + 1, "one session at the provider");
    assertError(await checkout(a.token, { plan_slug: "hobby" }, { "idempotency-key": "upgrade-1" }), env.api, 409, "idempotency_conflict");
    // the key is also the provider's: the session a lost answer made is the one given on the retry
    assert.ok(env.stripe.requests.at(-1)!.headers["idempotency-key"]?.toString().startsWith(`checkout-${a.accountId}-`));
  });

  test("a provider failure is 503 service_unavailable with the provider's text kept out of the answer", async () => {
    const a = await payingAccount(env);
    env.stripe.failNext(10, 500, "db-9.internal exploded");
    const res = await checkout(a.token, { plan_slug: "pro" });
    env.stripe.failNext(0);
    assertError(res, env.api, 503, "service_unavailable");
    assert.ok(!res.text.includes("db-9"), res.text);

    // a price the provider does not know (a plan set up with a wrong price id) is the same to the caller
    await env.api.database.db.plan.update({ where: { slug: "hobby" }, data: { providerPriceId: "price_nobody_has" } });
    try {
      assertError(await checkout(a.token, { plan_slug: "hobby" }), env.api, 503, "service_unavailable");
    } finally {
      await env.api.database.db.plan.update({ where: { slug: "hobby" }, data: { providerPriceId: "price_hobby_monthly" } });
    }
  });

  test("an account that already has a subscription is sent to the portal (422 unprocessable)", async () => {
    const a = await payingAccount(env);
    const subscription = await subscribe(env, a.token, "hobby");
    await deliver(env.api, env.stripe.event("customer.subscription.created", subscription, { created: nowSeconds() }), "applied");
    const res = await checkout(a.token, { plan_slug: "pro" });
    assertError(res, env.api, 422, "unprocessable", /POST \/billing\/portal/);
    assert.equal(res.body.details.provider_subscription_id, subscription.id);

    // once it is canceled, a new checkout is possible
    const canceled = env.stripe.updateSubscription(subscription.id, { status: "canceled" });
    await deliver(env.api, env.stripe.event("customer.subscription.deleted", canceled, { created: nowSeconds() + 1 }), "applied");
    assert.equal((await checkout(a.token, { plan_slug: "pro" })).status, 200);
  });
});

describe("POST /billing/portal", () => {
  test("answers a customer-portal session for the account's customer", async () => {
    const a = await payingAccount(env);
    const res = await portal(a.token);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(Object.keys(res.body).sort(), ["id", "url"]);
    const session = env.stripe.portalSessions.get(res.body.id)!;
    assert.equal(res.body.url, session.url);
    assert.equal(session.customer, a.customerId);
    assert.equal(session.return_url, `${env.api.config.publicBaseUrl}/`, "BILLING_PORTAL_RETURN_URL's default");

    const own = await portal(a.token, { return_url: "https://tenant.example/account" });
    assert.equal(env.stripe.portalSessions.get(own.body.id)!.return_url, "https://tenant.example/account");
    assertError(await portal(a.token, { return_url: "ftp://x" }), env.api, 422, "validation_failed", /return_url/);
  });

  test("Idempotency-Key replays the first portal session", async () => {
    const a = await payingAccount(env);
    const first = await portal(a.token, {}, { "idempotency-key": "portal-1" });
    const again = await portal(a.token, {}, { "idempotency-key": "portal-1" });
    assert.equal(again.headers.get("idempotent-replay"), "true");
    assert.equal(again.body.id, first.body.id);
  });

  test("a provider failure is 503", async () => {
    const a = await payingAccount(env);
    env.stripe.failNext(10);
    const res = await portal(a.token);
    env.stripe.failNext(0);
    assertError(res, env.api, 503, "service_unavailable");
  });
});

describe("billing without a payment-provider customer", () => {
  let bare: TestApi;
  before(async () => {
    bare = await startTestApi({ SIGNUP_LIMIT_PER_HOUR: "1000" });
  });
  after(() => bare?.close());

  test("checkout and portal are 422 no_provider_customer for an account that signed up without a provider", async () => {
    const a = await signUp(bare);
    assertError(await request(bare.baseUrl, "POST", "/billing/checkout", { token: a.token, body: { plan_slug: "pro" } }), bare, 422, "no_provider_customer");
    assertError(await request(bare.baseUrl, "POST", "/billing/portal", { token: a.token }), bare, 422, "no_provider_customer");
    // the plan is still checked first
    assertError(await request(bare.baseUrl, "POST", "/billing/checkout", { token: a.token, body: { plan_slug: "nope" } }), bare, 404, "plan_not_found");
  });

  test("an account with a customer but no provider configured any more gets 503, not a 500", async () => {
    const a = await signUp(bare);
    await bare.database.db.account.update({ where: { id: a.accountId }, data: { providerCustomerId: "cus_from_before" } });
    assertError(await request(bare.baseUrl, "POST", "/billing/checkout", { token: a.token, body: { plan_slug: "pro" } }), bare, 503, "service_unavailable");
    assertError(await request(bare.baseUrl, "POST", "/billing/portal", { token: a.token }), bare, 503, "service_unavailable");
  });
});
