import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, test } from "node:test";
import { sha256Hex } from "@outreach/core";
import { waitFor } from "@outreach/testing";
import { ApiKeyCache } from "../src/api-key-cache.js";
import { assertError, request, signUp, startTestApi, type TestApi } from "./helpers.js";

// Behind one trusted proxy (the test client), so X-Forwarded-For picks the client IP.
let api: TestApi;
before(async () => {
  api = await startTestApi({ TRUST_PROXY: "1", SIGNUP_LIMIT_PER_HOUR: "1000", RATE_LIMIT_PER_MINUTE: "100000" });
});
after(() => api?.close());

const LIMIT = 20;
const randomKey = () => `ak_live_${randomBytes(32).toString("base64url")}`;
const from = (ip: string, token?: string) => request(api.baseUrl, "GET", "/api_keys", { token, headers: { "x-forwarded-for": ip } });

/** Spends an address's whole budget of failed authentications (without a key: no query). */
async function block(ip: string): Promise<void> {
  for (let i = 0; i < LIMIT; i++) assertError(await from(ip), api, 401, "unauthorized");
}

/** Counts the API's database queries through a client extension swapped in as ctx.db (read per request). */
async function countingQueries<T>(fn: (queries: () => number) => Promise<T>): Promise<T> {
  const original = api.ctx.db;
  let count = 0;
  api.ctx.db = original.$extends({
    query: {
      async $allOperations({ args, query }) {
        count++;
        return query(args);
      },
    },
  }) as unknown as typeof original;
  try {
    return await fn(() => count);
  } finally {
    api.ctx.db = original;
  }
}

test(`after ${LIMIT} failed authentications from one IP, bad keys get 429 without a database lookup`, async () => {
  const ip = "203.0.113.10";
  for (let i = 0; i < LIMIT; i++) assertError(await from(ip, randomKey()), api, 401, "unauthorized");
  await countingQueries(async (queries) => {
    const limited = await from(ip, randomKey());
    assertError(limited, api, 429, "rate_limited", /failed authentications/);
    assert.deepEqual(limited.body.details, { limit: LIMIT, period: 60 });
    const retryAfter = Number(limited.headers.get("retry-after"));
    // one failure comes back every 60 s / 20 = 3 s
    assert.ok(retryAfter >= 1 && retryAfter <= 3, `Retry-After ${retryAfter}`);
    assertError(await from(ip), api, 429, "rate_limited");
    assertError(await from(ip, "ak_live_short"), api, 429, "rate_limited");
    // a forged entry before the proxy's own changes nothing
    assertError(await from(`198.51.100.1, ${ip}`, randomKey()), api, 429, "rate_limited");
    assert.equal(queries(), 0);
  });
  // another address has its own budget
  assertError(await from("203.0.113.11", randomKey()), api, 401, "unauthorized");
});

test("IPv6 clients are counted by /64", async () => {
  await block("2001:db8:5:6::1");
  assertError(await from("2001:db8:5:6:ffff::2"), api, 429, "rate_limited");
  assertError(await from("2001:db8:5:7::1"), api, 401, "unauthorized");
});

test("only failures count: many good requests from one IP leave its budget alone", async () => {
  const { token } = await signUp(api);
  for (let i = 0; i < LIMIT + 5; i++) assert.equal((await from("203.0.113.20", token)).status, 200);
  assertError(await from("203.0.113.20", randomKey()), api, 401, "unauthorized");
});

test("a blocked address sending a valid key is still served (one bad client behind a NAT)", async () => {
  const { token } = await signUp(api);
  const nat = "203.0.113.30";
  assert.equal((await from(nat, token)).status, 200);
  await block(nat);
  assertError(await from(nat, randomKey()), api, 429, "rate_limited");
  assert.equal((await from(nat, token)).status, 200);

  // once the cached entry is no longer fresh, a key that resolved recently is looked up again, even from the blocked address
  const original = api.ctx.keyCache;
  const cache = new ApiKeyCache("unused", api.ctx.producer, null, api.ctx.logger, { ttlMs: 1 });
  api.ctx.keyCache = cache;
  try {
    assert.equal((await from("203.0.113.31", token)).status, 200);
    await waitFor(() => cache.get(sha256Hex(token)) === undefined, { what: "the cached key to go stale" });
    await countingQueries(async (queries) => {
      assert.equal((await from(nat, token)).status, 200);
      assert.equal(queries(), 2, "the key lookup and the route's own query");
    });
    // a key this replica has not seen recently costs a query, which a blocked address does not get
    const { token: unseen } = await signUp(api);
    assertError(await from(nat, unseen), api, 429, "rate_limited");
    assert.equal((await from("203.0.113.32", unseen)).status, 200);
  } finally {
    api.ctx.keyCache = original;
  }
});
