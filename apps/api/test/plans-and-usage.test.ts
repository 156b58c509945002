import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { ERROR_CODES } from "@outreach/core";
import { assertError, flushUsage, request, signUp, startTestApi, type TestApi } from "./helpers.js";

let api: TestApi;
before(async () => {
  // GET /plans read afresh every time: what it lists is checked here, its caching in public-endpoint-cost.test.ts
  api = await startTestApi({ SIGNUP_LIMIT_PER_HOUR: "1000", RATE_LIMIT_PER_MINUTE: "100000", PLANS_CACHE_SECONDS: "0" });
});
after(() => api?.close());

test("GET /plans lists purchasable public plans by tier, without free, private or archived ones", async () => {
  const res = await request(api.baseUrl, "GET", "/plans");
  assert.equal(res.status, 200);
  assert.deepEqual(res.body, [
    { slug: "hobby", name: "Hobby", tier: 1, monthly_limit: 5000, provider_price_id: "price_hobby_monthly" },
    { slug: "pro", name: "Pro", tier: 2, monthly_limit: 25000, provider_price_id: "price_pro_monthly" },
    { slug: "scale", name: "Scale", tier: 3, monthly_limit: 150000, provider_price_id: "price_scale_monthly" },
  ]);
  await api.database.db.plan.update({ where: { slug: "pro" }, data: { archivedAt: new Date() } });
  try {
    const after = await request(api.baseUrl, "GET", "/plans");
    assert.deepEqual(
      after.body.map((p: any) => p.slug),
      ["hobby", "scale"],
    );
  } finally {
    await api.database.db.plan.update({ where: { slug: "pro" }, data: { archivedAt: null } });
  }
});

test("GET /billing/subscription shows the account's own plan, private plans included", async () => {
  const { token, accountId } = await signUp(api);
  const free = await request(api.baseUrl, "GET", "/billing/subscription", { token });
  assert.equal(free.status, 200);
  assert.equal(free.body.plan.slug, "free");
  assert.equal(free.body.status, "free");
  assert.ok(new Date(free.body.current_period_end) > new Date(free.body.current_period_start));

  const founder = await api.database.db.plan.findUniqueOrThrow({ where: { slug: "founder" } });
  await api.database.db.account.update({ where: { id: accountId }, data: { planId: founder.id } });
  const mine = await request(api.baseUrl, "GET", "/billing/subscription", { token });
  assert.equal(mine.body.plan.slug, "founder");
  assert.equal(mine.body.plan.public, false);
  assert.equal(mine.body.plan.monthly_limit, 150000);
  // and still nobody else sees it in the public list
  assert.ok(!(await request(api.baseUrl, "GET", "/plans")).body.some((p: any) => p.slug === "founder"));
});

test("GET /billing/usage reports the current period's sends against the plan limit", async () => {
  const { token, accountId } = await signUp(api);
  const empty = await request(api.baseUrl, "GET", "/billing/usage", { token });
  assert.deepEqual(
    { ...empty.body, period_start: undefined, period_end: undefined },
    { plan_slug: "free", monthly_limit: 100, current_period_sends: 0, remaining: 100, limit_reached: false, period_start: undefined, period_end: undefined },
  );
  const account = await api.database.db.account.findUniqueOrThrow({ where: { id: accountId } });
  await api.database.db.usagePeriod.create({ data: { accountId, periodStart: account.currentPeriodStart, periodEnd: account.currentPeriodEnd, sends: 100 } });
  const full = await request(api.baseUrl, "GET", "/billing/usage", { token });
  assert.equal(full.body.current_period_sends, 100);
  assert.equal(full.body.remaining, 0);
  assert.equal(full.body.limit_reached, true);
});

test("GET /usage reports requests per client_kind and per day", async () => {
  const { accountId, token } = await signUp(api);
  const mcp = await request(api.baseUrl, "POST", "/api_keys", { token, body: { label: "agent", client_kind: "mcp" } });
  for (let i = 0; i < 3; i++) await request(api.baseUrl, "GET", "/billing/usage", { token: mcp.body.plaintext });
  await request(api.baseUrl, "GET", "/api_keys/", { token: mcp.body.plaintext });
  await request(api.baseUrl, "DELETE", "/api_keys/not-a-key", { token });
  await flushUsage(api, { accountId }, 6);
  const res = await request(api.baseUrl, "GET", "/usage?days=7", { token });
  assert.equal(res.status, 200);
  const byKind = Object.fromEntries(res.body.by_client_kind.map((row: any) => [row.client_kind, row]));
  assert.equal(byKind.mcp.requests, 4);
  assert.equal(byKind.mcp.errors, 0);
  assert.equal(byKind.direct.requests, 2, "POST /api_keys and the failed DELETE");
  assert.equal(byKind.direct.errors, 1);
  assert.equal(res.body.total_requests, 6);
  const today = new Date().toISOString().slice(0, 10);
  assert.deepEqual(
    res.body.by_day
      .filter((d: any) => d.date === today)
      .map((d: any) => [d.client_kind, d.requests])
      .sort(),
    [
      ["direct", 2],
      ["mcp", 4],
    ],
  );
  const logged = await api.database.db.requestLog.findMany({ where: { clientKind: "mcp" }, orderBy: { id: "asc" } });
  assert.deepEqual(
    logged.map((r) => `${r.method} ${r.route} ${r.status}`),
    ["GET /billing/usage 200", "GET /billing/usage 200", "GET /billing/usage 200", "GET /api_keys 200"],
  );
  assertError(await request(api.baseUrl, "GET", "/usage?days=500", { token }), api, 422, "validation_failed", /days must be less than or equal to 90/);
});

test("every error code has a human-readable page under {DOCS_URL}/errors/<code>", async () => {
  for (const code of Object.keys(ERROR_CODES)) {
    const res = await request(api.baseUrl, "GET", `/docs/errors/${code}`);
    assert.equal(res.status, 200, code);
    assert.match(res.headers.get("content-type") ?? "", /text\/html/);
    assert.match(res.text, new RegExp(`<h1><code>${code}</code></h1>`));
  }
  const index = await request(api.baseUrl, "GET", "/docs/errors");
  assert.equal(index.status, 200);
  assertError(await request(api.baseUrl, "GET", "/docs/errors/no_such_code"), api, 404, "not_found");
});
