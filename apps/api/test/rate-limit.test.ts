import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { startAppProcess, type AppProcess } from "@outreach/testing";
import { assertError, request, signUp, startTestApi, type TestApi } from "./helpers.js";

let api: TestApi;
before(async () => {
  api = await startTestApi({ SIGNUP_LIMIT_PER_HOUR: "1000", RATE_LIMIT_PER_MINUTE: "5" });
});
after(() => api?.close());

test("each key gets RATE_LIMIT_PER_MINUTE requests per 60 s, then 429 with Retry-After and {limit, period, scope}", async () => {
  const { token } = await signUp(api);
  for (let i = 0; i < 5; i++) {
    const res = await request(api.baseUrl, "GET", "/api_keys", { token });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("ratelimit-limit"), "5");
    assert.equal(res.headers.get("ratelimit-remaining"), String(4 - i));
    assert.ok(Number(res.headers.get("ratelimit-reset")) >= 1);
  }
  const limited = await request(api.baseUrl, "GET", "/api_keys", { token });
  assertError(limited, api, 429, "rate_limited");
  assert.deepEqual(limited.body.details, { limit: 5, period: 60, scope: "key" });
  assert.match(limited.body.message, /per API key/);
  const retryAfter = Number(limited.headers.get("retry-after"));
  // one request comes back every 60 s / 5 = 12 s
  assert.ok(retryAfter >= 11 && retryAfter <= 12, `Retry-After ${retryAfter}`);
  assert.equal(limited.headers.get("ratelimit-remaining"), "0");
});

test("keys have separate budgets, also within one account (up to the account's own limit)", async () => {
  const a = await signUp(api);
  const b = await signUp(api);
  for (let i = 0; i < 5; i++) await request(api.baseUrl, "GET", "/usage", { token: a.token });
  assertError(await request(api.baseUrl, "GET", "/usage", { token: a.token }), api, 429, "rate_limited");
  assert.equal((await request(api.baseUrl, "GET", "/usage", { token: b.token })).status, 200);
  // a second key of b's account has a budget of its own
  const second = await request(api.baseUrl, "POST", "/api_keys", { token: b.token, body: { label: "second" } });
  assert.equal(second.status, 201, second.text);
  for (let i = 0; i < 5; i++) assert.equal((await request(api.baseUrl, "GET", "/usage", { token: second.body.plaintext })).status, 200);
});

test("public endpoints and health checks are not counted against a key", async () => {
  const { token } = await signUp(api);
  for (let i = 0; i < 10; i++) assert.equal((await request(api.baseUrl, "GET", "/plans")).status, 200);
  assert.equal((await request(api.baseUrl, "GET", "/api_keys", { token })).headers.get("ratelimit-remaining"), "4");
});

test("the limit holds across two API processes sharing one Redis", async () => {
  const { token } = await signUp(api);
  const env = { DATABASE_URL: api.config.databaseUrl, QUEUE_PREFIX: api.config.queuePrefix, RATE_LIMIT_PER_MINUTE: "5" };
  const processes: AppProcess[] = await Promise.all([startAppProcess("api", { env }), startAppProcess("api", { env })]);
  try {
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const target = processes[i % 2]!;
      statuses.push((await request(target.baseUrl, "GET", "/api_keys", { token })).status);
    }
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429, 429, 429]);
    // in parallel too: never more than the limit gets through
    const { token: fresh } = await signUp(api);
    const burst = await Promise.all(Array.from({ length: 12 }, (_, i) => request(processes[i % 2]!.baseUrl, "GET", "/usage", { token: fresh })));
    assert.equal(burst.filter((r) => r.status === 200).length, 5);
    assert.equal(burst.filter((r) => r.status === 429).length, 7);
  } finally {
    await Promise.all(processes.map((p) => p.stop()));
  }
});

test("with a large limit the budget is taken from Redis in batches, and RateLimit-Remaining still counts down one by one", async () => {
  const { token } = await signUp(api);
  const env = { DATABASE_URL: api.config.databaseUrl, QUEUE_PREFIX: api.config.queuePrefix, RATE_LIMIT_PER_MINUTE: "1000" };
  const process = await startAppProcess("api", { env });
  try {
    const remaining: number[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await request(process.baseUrl, "GET", "/campaigns", { token });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("ratelimit-limit"), "1000");
      assert.equal(res.headers.get("ratelimit-policy"), "1000;w=60");
      remaining.push(Number(res.headers.get("ratelimit-remaining")));
    }
    // The replica took a batch of 10 (1% of the limit) and counts down through it; a
    // later batch also counts what came back meanwhile (one request every 60 ms).
    // Exact figures within one batch: see rate-limiter.test.ts.
    assert.deepEqual(remaining.slice(0, 2), [999, 998]);
    assert.ok(
      remaining.every((n) => n >= 1000 - 10 * 3 && n <= 999),
      remaining.join(", "),
    );
  } finally {
    await process.stop();
  }
});
