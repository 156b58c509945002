import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { sha256Hex } from "@outreach/core";
import { startStripeStandIn, type StripeStandIn } from "@outreach/testing";
import { assertError, request, startTestApi, type TestApi } from "./helpers.js";

describe("POST /signup without a payment provider", () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi({ SIGNUP_LIMIT_PER_HOUR: "1000" });
  });
  after(() => api?.close());

  test("creates an account on the free plan with a working first key", async () => {
    const res = await request(api.baseUrl, "POST", "/signup", { body: { email: "Founder@Example.com", name: "Ada" } });
    assert.equal(res.status, 201);
    assert.deepEqual(Object.keys(res.body).sort(), ["account_id", "api_key", "plan_slug"]);
    assert.equal(res.body.plan_slug, "free");
    const { id, prefix, plaintext } = res.body.api_key;
    assert.match(plaintext, /^ak_live_[A-Za-z0-9_-]{43}$/);
    assert.equal(prefix, plaintext.slice(0, 12));

    const account = await api.database.db.account.findUniqueOrThrow({ where: { id: res.body.account_id }, include: { plan: true, apiKeys: true } });
    assert.equal(account.email, "founder@example.com");
    assert.equal(account.name, "Ada");
    assert.equal(account.plan.slug, "free");
    assert.equal(account.providerCustomerId, null);
    assert.equal(account.apiKeys.length, 1);
    assert.equal(account.apiKeys[0]!.id, id);
    assert.equal(account.apiKeys[0]!.tokenHash, sha256Hex(plaintext), "only the SHA-256 is kept");
    assert.equal(account.apiKeys[0]!.clientKind, "direct");
    assert.equal(account.apiKeys[0]!.label, "Default key (signup)");

    const keys = await request(api.baseUrl, "GET", "/api_keys", { token: plaintext });
    assert.equal(keys.status, 200);
    assert.equal(keys.body.length, 1);
    assert.ok(!keys.text.includes(plaintext), "the plaintext is never shown again");
  });

  test("email is required, must be valid and is unique regardless of case", async () => {
    assertError(await request(api.baseUrl, "POST", "/signup", { body: {} }), api, 422, "validation_failed", /email is required/);
    assertError(await request(api.baseUrl, "POST", "/signup", { body: { email: "not-an-email" } }), api, 422, "validation_failed", /email must be a valid email/);
    assertError(await request(api.baseUrl, "POST", "/signup", { body: { email: 42 } }), api, 422, "validation_failed", /email must be a string/);
    assertError(await request(api.baseUrl, "POST", "/signup", { body: { email: "x@example.com", plan: "pro" } }), api, 422, "validation_failed", /plan is not allowed/);
    assert.equal((await request(api.baseUrl, "POST", "/signup", { body: { email: "twice@example.com" } })).status, 201);
    const again = await request(api.baseUrl, "POST", "/signup", { body: { email: "TWICE@example.com" } });
    assertError(again, api, 422, "validation_failed", /email is already registered/);
    assert.equal(await api.database.db.account.count({ where: { email: "twice@example.com" } }), 1);
  });

  test("concurrent signups with one email create exactly one account", async () => {
    const results = await Promise.all(Array.from({ length: 8 }, () => request(api.baseUrl, "POST", "/signup", { body: { email: "race@example.com" } })));
    assert.equal(results.filter((r) => r.status === 201).length, 1);
    assert.ok(results.every((r) => r.status === 201 || r.body.code === "validation_failed"));
    assert.equal(await api.database.db.account.count({ where: { email: "race@example.com" } }), 1);
  });

  test("ignores Idempotency-Key: a repeated signup is a new request", async () => {
    const first = await request(api.baseUrl, "POST", "/signup", { body: { email: "idem@example.com" }, headers: { "idempotency-key": "same" } });
    const second = await request(api.baseUrl, "POST", "/signup", { body: { email: "idem2@example.com" }, headers: { "idempotency-key": "same" } });
    assert.equal(first.status, 201);
    assert.equal(second.status, 201);
    assert.notEqual(first.body.account_id, second.body.account_id);
    assert.equal(second.headers.get("idempotent-replay"), null);
  });
});

describe("POST /signup rate limit", () => {
  let api: TestApi;
  before(async () => {
    // TRUST_PROXY=true: one proxy (here the test client on 127.0.0.1) in front of the API
    api = await startTestApi({ SIGNUP_LIMIT_PER_HOUR: "3", TRUST_PROXY: "true" });
  });
  after(() => api?.close());

  test("allows SIGNUP_LIMIT_PER_HOUR per client IP, then 429 with Retry-After and {limit, period}", async () => {
    // the proxy appends the address it saw; what the client itself put in the header is not believed
    const from = (ip: string, n: number, forged = "192.0.2.1") =>
      request(api.baseUrl, "POST", "/signup", { body: { email: `ip${ip.replace(/\./g, "")}-${n}@example.com` }, headers: { "x-forwarded-for": `${forged}, ${ip}` } });
    for (let n = 0; n < 3; n++) assert.equal((await from("203.0.113.7", n, `192.0.2.${n + 10}`)).status, 201);
    const limited = await from("203.0.113.7", 3, "192.0.2.99");
    assertError(limited, api, 429, "rate_limited");
    assert.deepEqual(limited.body.details, { limit: 3, period: 3600, scope: "ip" });
    const retryAfter = Number(limited.headers.get("retry-after"));
    // the budget refills one signup every hour/limit = 1200 s
    assert.ok(retryAfter > 1100 && retryAfter <= 1200, `Retry-After ${retryAfter}`);
    assert.equal(await api.database.db.account.count({ where: { email: "ip2030113-3@example.com" } }), 0);
    // another client IP has its own budget
    assert.equal((await from("198.51.100.9", 0)).status, 201);
  });
});

describe("POST /signup rate limit with the default TRUST_PROXY", () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi({ SIGNUP_LIMIT_PER_HOUR: "2" });
  });
  after(() => api?.close());

  test("a forged X-Forwarded-For does not give a fresh budget", async () => {
    const send = (email: string, headers: Record<string, string> = {}) => request(api.baseUrl, "POST", "/signup", { body: { email }, headers });
    assert.equal((await send("forged-0@example.com")).status, 201);
    assert.equal((await send("forged-1@example.com", { "x-forwarded-for": "203.0.113.50" })).status, 201);
    assertError(await send("forged-2@example.com", { "x-forwarded-for": "198.51.100.77" }), api, 429, "rate_limited");
    assertError(await send("forged-3@example.com", { "x-forwarded-for": "2001:db8::1, 198.51.100.78" }), api, 429, "rate_limited");
    assertError(await send("forged-4@example.com"), api, 429, "rate_limited");
    assert.equal(await api.database.db.account.count({ where: { email: { startsWith: "forged-" } } }), 2);
  });
});

describe("POST /signup with a payment provider", () => {
  let api: TestApi;
  let stripe: StripeStandIn;
  before(async () => {
    stripe = await startStripeStandIn();
    api = await startTestApi({ SIGNUP_LIMIT_PER_HOUR: "1000", STRIPE_SECRET_KEY: "sk_test_standin", STRIPE_API_BASE: stripe.url });
  });
  after(async () => {
    await api?.close();
    await stripe?.close();
  });

  test("creates the provider customer and stores its id on the account", async () => {
    const res = await request(api.baseUrl, "POST", "/signup", { body: { email: "paying@example.com", name: "Grace" } });
    assert.equal(res.status, 201);
    const account = await api.database.db.account.findUniqueOrThrow({ where: { id: res.body.account_id } });
    assert.ok(account.providerCustomerId?.startsWith("cus_"));
    const customer = stripe.customers.get(account.providerCustomerId!)!;
    assert.equal(customer.email, "paying@example.com");
    assert.equal(customer.name, "Grace");
    assert.deepEqual(customer.metadata, { account_id: account.id });
    assert.equal(stripe.requests.at(-1)!.headers.authorization, "Bearer sk_test_standin");
  });

  test("a provider failure creates nothing and answers 503 with the envelope, not a 500", async () => {
    stripe.failNext(10);
    const res = await request(api.baseUrl, "POST", "/signup", { body: { email: "unlucky@example.com" } });
    stripe.failNext(0);
    assertError(res, api, 503, "service_unavailable");
    assert.equal(await api.database.db.account.count({ where: { email: "unlucky@example.com" } }), 0);
    assert.equal(await api.database.db.apiKey.count({ where: { account: { email: "unlucky@example.com" } } }), 0);
    // and the same email can sign up once the provider is back
    assert.equal((await request(api.baseUrl, "POST", "/signup", { body: { email: "unlucky@example.com" } })).status, 201);
  });
});
