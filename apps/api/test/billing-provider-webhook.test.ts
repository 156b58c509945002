import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import Stripe from "stripe";
import { assertError, request, startTestApi, type TestApi } from "./helpers.js";
import { billingApiForFile, deliver, nowSeconds, payingAccount, postEvent, subscribe, subscriptionOf, WEBHOOK_SECRET } from "./billing-fixtures.js";

const env = billingApiForFile();

const db = () => env.api.database.db;
const storedEvent = (id: string) => db().providerEvent.findUnique({ where: { id } });
const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

describe("POST /webhooks/provider: the signature", () => {
  test("is checked with the webhook secret over the raw body: missing, wrong, malformed, stale or future is 401 invalid_signature", async () => {
    const a = await payingAccount(env);
    const subscription = env.stripe.createSubscription({ customer: a.customerId, price: "price_pro_monthly" });
    const event = env.stripe.event("customer.subscription.created", subscription);

    assertError(await postEvent(env.api, event, { header: null }), env.api, 401, "invalid_signature");
    assertError(await postEvent(env.api, event, { secret: "whsec_someone_else" }), env.api, 401, "invalid_signature");
    assertError(await postEvent(env.api, event, { header: "t=1,v1=00" }), env.api, 401, "invalid_signature");
    assertError(await postEvent(env.api, event, { header: "garbage" }), env.api, 401, "invalid_signature");
    assertError(await postEvent(env.api, event, { timestamp: nowSeconds() - 400 }), env.api, 401, "invalid_signature", /older than 300 seconds/);
    assertError(await postEvent(env.api, event, { timestamp: nowSeconds() + 400 }), env.api, 401, "invalid_signature", /future/);
    // a body changed after signing
    const payload = JSON.stringify(event);
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    const tampered = await request(env.api.baseUrl, "POST", "/webhooks/provider", {
      rawBody: payload.replace("price_pro_monthly", "price_scale_monthly"),
      headers: { "stripe-signature": header, "content-type": "application/json" },
    });
    assertError(tampered, env.api, 401, "invalid_signature");

    assert.equal(await storedEvent(event.id), null, "nothing was recorded");
    assert.equal((await subscriptionOf(env, a.token)).plan.slug, "free", "nothing was applied");

    // within the tolerance it is taken, and no API key is needed
    const ok = await postEvent(env.api, event, { timestamp: nowSeconds() - 200 });
    assert.equal(ok.status, 200, ok.text);
    assert.equal((await subscriptionOf(env, a.token)).plan.slug, "pro");
  });

  test("a signed body that is not JSON is 400 bad_request; one that is not an event too", async () => {
    const notJson = "this is not json";
    const header = Stripe.webhooks.generateTestHeaderString({ payload: notJson, secret: WEBHOOK_SECRET });
    const res = await request(env.api.baseUrl, "POST", "/webhooks/provider", { rawBody: notJson, headers: { "stripe-signature": header } });
    assertError(res, env.api, 400, "bad_request");
    assertError(await postEvent(env.api, { hello: "world" }), env.api, 400, "bad_request");
    assertError(await postEvent(env.api, { id: "evt_x", type: "customer.subscription.updated", created: nowSeconds(), data: { object: { id: "sub_x" } } }), env.api, 400, "bad_request", /no status/);
  });

  test("the API-key-authenticated /webhooks router is unchanged", async () => {
    assertError(await request(env.api.baseUrl, "GET", "/webhooks"), env.api, 401, "unauthorized");
    assertError(await request(env.api.baseUrl, "POST", "/webhooks", { body: { url: "https://example.com" } }), env.api, 401, "unauthorized");
  });
});

describe("POST /webhooks/provider without STRIPE_WEBHOOK_SECRET", () => {
  let bare: TestApi;
  before(async () => {
    bare = await startTestApi();
  });
  after(() => bare?.close());

  test("refuses every event with 401 invalid_signature", async () => {
    const event = { id: "evt_unsigned", object: "event", type: "invoice.paid", created: nowSeconds(), data: { object: { id: "in_1" } } };
    assertError(await postEvent(bare, event), bare, 401, "invalid_signature");
    assertError(await postEvent(bare, event, { header: null }), bare, 401, "invalid_signature");
  });
});

describe("POST /webhooks/provider: the five events", () => {
  test("customer.subscription.created puts the account on the plan of the price, with the subscription's status and period", async () => {
    const a = await payingAccount(env);
    const subscription = await subscribe(env, a.token, "hobby");
    const event = env.stripe.event("customer.subscription.created", subscription);
    const res = await postEvent(env.api, event);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { received: true, id: event.id, type: "customer.subscription.created", outcome: "applied" });

    const shown = await subscriptionOf(env, a.token);
    assert.equal(shown.plan.slug, "hobby");
    assert.equal(shown.status, "active");
    assert.equal(shown.provider_subscription_id, subscription.id);
    assert.equal(shown.current_period_start, iso(subscription.items.data[0].current_period_start));
    assert.equal(shown.current_period_end, iso(subscription.items.data[0].current_period_end));
    const usage = await request(env.api.baseUrl, "GET", "/billing/usage", { token: a.token });
    assert.equal(usage.body.monthly_limit, 5000);

    const stored = await storedEvent(event.id);
    assert.equal(stored?.accountId, a.accountId);
    assert.equal(stored?.outcome, "applied");
    assert.ok(stored?.processedAt);
  });

  test("customer.subscription.updated follows a plan change", async () => {
    const a = await payingAccount(env);
    const subscription = await subscribe(env, a.token, "hobby");
    const t = nowSeconds();
    await deliver(env.api, env.stripe.event("customer.subscription.created", subscription, { created: t }), "applied");
    const changed = env.stripe.updateSubscription(subscription.id, { price: "price_scale_monthly" });
    await deliver(env.api, env.stripe.event("customer.subscription.updated", changed, { created: t + 5 }), "applied");
    const shown = await subscriptionOf(env, a.token);
    assert.equal(shown.plan.slug, "scale");
    assert.equal(shown.plan.monthly_limit, 150000);
  });

  test("customer.subscription.deleted puts the account back on free, status canceled", async () => {
    const a = await payingAccount(env);
    const subscription = await subscribe(env, a.token, "pro");
    const t = nowSeconds();
    await deliver(env.api, env.stripe.event("customer.subscription.created", subscription, { created: t }), "applied");
    const canceled = env.stripe.updateSubscription(subscription.id, { status: "canceled" });
    await deliver(env.api, env.stripe.event("customer.subscription.deleted", canceled, { created: t + 60 }), "applied");
    const shown = await subscriptionOf(env, a.token);
    assert.equal(shown.plan.slug, "free");
    assert.equal(shown.status, "canceled");
    assert.equal(shown.provider_subscription_id, subscription.id);
  });

  test("invoice.payment_failed shows past_due (the plan is kept while the provider retries) until invoice.paid", async () => {
    const a = await payingAccount(env);
    const subscription = await subscribe(env, a.token, "pro");
    const t = nowSeconds();
    await deliver(env.api, env.stripe.event("customer.subscription.created", subscription, { created: t }), "applied");
    const invoice = { id: "in_renewal_1", object: "invoice", customer: a.customerId, parent: { type: "subscription_details", subscription_details: { subscription: subscription.id } } };

    await deliver(env.api, env.stripe.event("invoice.payment_failed", { ...invoice, status: "open" }, { created: t + 100 }), "applied");
    let shown = await subscriptionOf(env, a.token);
    assert.equal(shown.status, "past_due");
    assert.equal(shown.plan.slug, "pro");

    await deliver(env.api, env.stripe.event("invoice.paid", { ...invoice, status: "paid" }, { created: t + 200 }), "applied");
    shown = await subscriptionOf(env, a.token);
    assert.equal(shown.status, "active");
    assert.equal(shown.plan.slug, "pro");
  });

  test("invoices in the older API shape (subscription at the top level) are read too", async () => {
    const a = await payingAccount(env);
    const subscription = await subscribe(env, a.token, "hobby");
    const t = nowSeconds();
    await deliver(env.api, env.stripe.event("customer.subscription.created", subscription, { created: t }), "applied");
    await deliver(env.api, env.stripe.event("invoice.payment_failed", { id: "in_old", object: "invoice", customer: a.customerId, subscription: subscription.id }, { created: t + 1 }), "applied");
    assert.equal((await subscriptionOf(env, a.token)).status, "past_due");
  });
});

describe("POST /webhooks/provider: each event once, in any order", () => {
  test("a replayed event is acknowledged and changes nothing", async () => {
    const a = await payingAccount(env);
    const subscription = await subscribe(env, a.token, "hobby");
    const t = nowSeconds();
    const created = env.stripe.event("customer.subscription.created", subscription, { created: t });
    await deliver(env.api, created, "applied");
    const canceled = env.stripe.updateSubscription(subscription.id, { status: "canceled" });
    const deleted = env.stripe.event("customer.subscription.deleted", canceled, { created: t + 10 });
    await deliver(env.api, deleted, "applied");

    // the provider delivers both again (it retries until it sees a 2xx)
    await deliver(env.api, deleted, "duplicate");
    await deliver(env.api, created, "duplicate");
    const shown = await subscriptionOf(env, a.token);
    assert.equal(shown.plan.slug, "free");
    assert.equal(shown.status, "canceled");
    assert.equal(await db().providerEvent.count({ where: { id: { in: [created.id, deleted.id] } } }), 2);
  });

  test("concurrent deliveries of one event apply it once", async () => {
    const a = await payingAccount(env);
    const subscription = await subscribe(env, a.token, "pro");
    const event = env.stripe.event("customer.subscription.created", subscription);
    const results = await Promise.all(Array.from({ length: 6 }, () => postEvent(env.api, event)));
    assert.ok(
      results.every((r) => r.status === 200),
      results.map((r) => r.text).join("\n"),
    );
    assert.deepEqual(results.map((r) => r.body.outcome).sort(), ["applied", "duplicate", "duplicate", "duplicate", "duplicate", "duplicate"]);
  });

  test("updated arriving before created: the older created is stale and changes nothing", async () => {
    const a = await payingAccount(env);
    const subscription = await subscribe(env, a.token, "hobby");
    const t = nowSeconds();
    const created = env.stripe.event("customer.subscription.created", { ...subscription, status: "incomplete" }, { created: t });
    const upgraded = env.stripe.updateSubscription(subscription.id, { price: "price_pro_monthly" });
    const updated = env.stripe.event("customer.subscription.updated", upgraded, { created: t + 3 });

    await deliver(env.api, updated, "applied");
    await deliver(env.api, created, "stale");
    const shown = await subscriptionOf(env, a.token);
    assert.equal(shown.plan.slug, "pro");
    assert.equal(shown.status, "active");
    assert.equal((await storedEvent(created.id))?.outcome, "stale");
  });

  test("an old updated after a newer one is stale", async () => {
    const a = await payingAccount(env);
    const subscription = await subscribe(env, a.token, "hobby");
    const t = nowSeconds();
    await deliver(env.api, env.stripe.event("customer.subscription.created", subscription, { created: t }), "applied");
    const toPro = env.stripe.event("customer.subscription.updated", env.stripe.updateSubscription(subscription.id, { price: "price_pro_monthly" }), { created: t + 10 });
    const toScale = env.stripe.event("customer.subscription.updated", env.stripe.updateSubscription(subscription.id, { price: "price_scale_monthly" }), { created: t + 20 });
    await deliver(env.api, toScale, "applied");
    await deliver(env.api, toPro, "stale");
    assert.equal((await subscriptionOf(env, a.token)).plan.slug, "scale");
  });

  test("an old payment failure after the invoice was paid does not bring past_due back", async () => {
    const a = await payingAccount(env);
    const subscription = await subscribe(env, a.token, "pro");
    const t = nowSeconds();
    await deliver(env.api, env.stripe.event("customer.subscription.created", subscription, { created: t }), "applied");
    const invoice = { id: "in_2", object: "invoice", customer: a.customerId, parent: { subscription_details: { subscription: subscription.id } } };
    const failed = env.stripe.event("invoice.payment_failed", invoice, { created: t + 10 });
    const paid = env.stripe.event("invoice.paid", invoice, { created: t + 20 });
    const pastDue = env.stripe.event("customer.subscription.updated", { ...subscription, status: "past_due" }, { created: t + 10 });
    await deliver(env.api, failed, "applied");
    await deliver(env.api, paid, "applied");
    await deliver(env.api, pastDue, "applied"); // its price and period are news; its status is older than the payment
    const shown = await subscriptionOf(env, a.token);
    assert.equal(shown.status, "active");
    assert.equal(shown.plan.slug, "pro");
  });

  test("two events of the same second: the subscription is read again from the provider", async () => {
    const a = await payingAccount(env);
    const subscription = await subscribe(env, a.token, "pro"); // active at the provider
    const t = nowSeconds();
    // the provider's clock ticks in seconds: created (incomplete) and updated (active) share one
    const created = env.stripe.event("customer.subscription.created", { ...subscription, status: "incomplete" }, { created: t });
    const updated = env.stripe.event("customer.subscription.updated", subscription, { created: t });
    await deliver(env.api, updated, "applied");
    const reads = () => env.stripe.requests.filter((r) => r.method === "GET" && r.path === `/v1/subscriptions/${subscription.id}`).length;
    const before = reads();
    await deliver(env.api, created, "applied");
    assert.equal(reads(), before + 1, "asked the provider");
    const shown = await subscriptionOf(env, a.token);
    assert.equal(shown.status, "active");
    assert.equal(shown.plan.slug, "pro");
  });
});

describe("POST /webhooks/provider: what is not applied", () => {
  test("unknown event types are acknowledged and ignored", async () => {
    const event = env.stripe.event("checkout.session.completed", { id: "cs_test_1", object: "checkout.session" });
    const res = await postEvent(env.api, event);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.outcome, "ignored");
    assert.equal(await storedEvent(event.id), null);
  });

  test("a subscription of a customer no account has is acknowledged and ignored", async () => {
    env.stripe.customers.set("cus_stranger", { id: "cus_stranger", object: "customer", metadata: {} });
    const subscription = env.stripe.createSubscription({ customer: "cus_stranger", price: "price_pro_monthly" });
    await deliver(env.api, env.stripe.event("customer.subscription.created", subscription), "ignored");
    assert.equal(await db().providerSubscription.count({ where: { id: subscription.id } }), 0);
  });

  test("an invoice of a subscription neither we nor the provider know is acknowledged and ignored", async () => {
    const a = await payingAccount(env);
    const invoice = { id: "in_ghost", object: "invoice", customer: a.customerId, parent: { subscription_details: { subscription: "sub_ghost" } } };
    await deliver(env.api, env.stripe.event("invoice.paid", invoice), "ignored");
    assert.ok(
      env.stripe.requests.some((r) => r.method === "GET" && r.path === "/v1/subscriptions/sub_ghost"),
      "the provider was asked",
    );
    assert.equal((await subscriptionOf(env, a.token)).plan.slug, "free");
  });

  test("a handler failure answers 5xx, stores nothing, and the provider's retry is applied once the cause is fixed", async () => {
    const a = await payingAccount(env);
    // a price no plan carries, and no plan named at checkout
    env.stripe.prices.add("price_mystery");
    const subscription = env.stripe.createSubscription({ customer: a.customerId, price: "price_mystery" });
    const event = env.stripe.event("customer.subscription.created", subscription);
    const failed = await postEvent(env.api, event);
    assertError(failed, env.api, 500, "internal_error", /price/);
    assert.equal(await storedEvent(event.id), null);
    assert.equal((await subscriptionOf(env, a.token)).plan.slug, "free");

    await db().plan.update({ where: { slug: "founder" }, data: { providerPriceId: "price_mystery" } });
    try {
      await deliver(env.api, event, "applied");
      assert.equal((await subscriptionOf(env, a.token)).plan.slug, "founder");
    } finally {
      await db().plan.update({ where: { slug: "founder" }, data: { providerPriceId: null } });
    }
  });

  test("the provider away when it must be asked: 503, nothing stored", async () => {
    const a = await payingAccount(env);
    const subscription = await subscribe(env, a.token, "hobby");
    const t = nowSeconds();
    await deliver(env.api, env.stripe.event("customer.subscription.created", subscription, { created: t }), "applied");
    const sameSecond = env.stripe.event("customer.subscription.updated", subscription, { created: t });
    env.stripe.failNext(10, 500, "down", (r) => r.method === "GET");
    const res = await postEvent(env.api, sameSecond);
    env.stripe.failNext(0);
    assertError(res, env.api, 503, "service_unavailable");
    assert.equal(await storedEvent(sameSecond.id), null);
    await deliver(env.api, sameSecond, "applied");
  });

  test("a subscription whose price changed keeps the plan named at checkout", async () => {
    const a = await payingAccount(env);
    const subscription = await subscribe(env, a.token, "pro"); // metadata plan_slug: pro
    await db().plan.update({ where: { slug: "pro" }, data: { providerPriceId: "price_pro_2027" } });
    try {
      await deliver(env.api, env.stripe.event("customer.subscription.created", subscription), "applied");
      assert.equal((await subscriptionOf(env, a.token)).plan.slug, "pro");
    } finally {
      await db().plan.update({ where: { slug: "pro" }, data: { providerPriceId: "price_pro_monthly" } });
    }
  });
});
