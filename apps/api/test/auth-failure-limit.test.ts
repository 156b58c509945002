import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, test } from "node:test";
import { sha256Hex } from "@outreach/core";
import { waitFor } from "@outreach/testing";
import { ApiKeyCache } from "../src/api-key-cache.js";
import { assertError, countingQueries, request, signUp, startTestApi, type TestApi } from "./helpers.js";

// Behind one trusted proxy (the test client), so X-Forwarded-For picks the client IP.
// `api` runs with the production default of AUTH_FAILURE_LIMIT_PER_MINUTE (300);
// `strict` with 20, whose budget comes back slowly (one every 3 s), for the
// mechanics of a blocked address.
const DEFAULT_LIMIT = 300;
const LIMIT = 20;
let api: TestApi;
let strict: TestApi;
before(async () => {
  const env = { TRUST_PROXY: "1", SIGNUP_LIMIT_PER_HOUR: "1000", RATE_LIMIT_PER_MINUTE: "100000" };
  api = await startTestApi(env);
  strict = await startTestApi({ ...env, AUTH_FAILURE_LIMIT_PER_MINUTE: String(LIMIT) });
});
after(async () => {
  await api?.close();
  await strict?.close();
});

const randomKey = () => `ak_live_${randomBytes(32).toString("base64url")}`;
const call = (target: TestApi, ip: string, token?: string, headers: Record<string, string> = {}) =>
  request(target.baseUrl, "GET", "/api_keys", { token, headers: { "x-forwarded-for": ip, ...headers } });
const from = (ip: string, token?: string) => call(strict, ip, token);

/** Sends `count` requests from `ip`, `parallel` at a time; answers their statuses in order. */
async function flood(target: TestApi, ip: string, count: number, token: () => string | undefined, parallel = 10): Promise<number[]> {
  const statuses: number[] = [];
  for (let sent = 0; sent < count; sent += parallel) {
    const batch = await Promise.all(Array.from({ length: Math.min(parallel, count - sent) }, () => call(target, ip, token())));
    statuses.push(...batch.map((res) => res.status));
  }
  return statuses;
}

/** Spends an address's whole budget of failed authentications on `strict`, with unknown keys of our shape. */
async function block(ip: string): Promise<void> {
  for (let i = 0; i < LIMIT; i++) assertError(await from(ip, randomKey()), strict, 401, "unauthorized");
}

test("an ordinary client gets the SPEC's 401, never 429: 100 requests in a minute from one IP without a key, with a malformed one, with a wrong one", async () => {
  const ip = "203.0.113.5";
  await countingQueries(api, async (queries) => {
    assert.deepEqual(await flood(api, ip, 100, () => undefined), Array(100).fill(401));
    assert.deepEqual(await flood(api, ip, 100, () => "ak_live_short"), Array(100).fill(401));
    assertError(await call(api, ip, undefined, { authorization: "Basic dXNlcjpwYXNz" }), api, 401, "unauthorized");
    // without a key of our shape there is nothing to look up
    assert.equal(queries(), 0);
  });
  const wrong = randomKey();
  assert.deepEqual(await flood(api, ip, 100, () => wrong), Array(100).fill(401));
  assert.deepEqual(await flood(api, ip, 100, randomKey), Array(100).fill(401));
});

test(`a flood of bad keys from one IP gets 429 past ${DEFAULT_LIMIT} failures in a minute (the default), and a 429 costs no database lookup`, async () => {
  const ip = "203.0.113.6";
  // the budget comes back one failure every 200 ms meanwhile: a few more than 300 may get their 401
  const statuses = await flood(api, ip, DEFAULT_LIMIT + 100, randomKey);
  assert.deepEqual(statuses.slice(0, DEFAULT_LIMIT), Array(DEFAULT_LIMIT).fill(401));
  const firstLimited = statuses.indexOf(429);
  assert.ok(firstLimited >= DEFAULT_LIMIT, `the first 429 came at ${firstLimited}`);
  assert.ok(statuses.slice(firstLimited).filter((status) => status === 429).length > 50, statuses.slice(firstLimited).join(","));

  const limited = await call(api, ip, randomKey());
  if (limited.status === 429) {
    assertError(limited, api, 429, "rate_limited", /failed authentications per 60 seconds per client address/);
    assert.deepEqual(limited.body.details, { limit: DEFAULT_LIMIT, period: 60, scope: "ip" });
    assert.equal(limited.headers.get("retry-after"), "1");
  }
  // each 401 among these cost its lookup; each 429 none (one at a time: no race for the last failure left)
  await countingQueries(api, async (queries) => {
    const more = await flood(api, ip, 50, randomKey, 1);
    assert.ok(more.includes(429));
    assert.equal(queries(), more.filter((status) => status === 401).length);
  });
  // without a key it is still a plain 401
  assertError(await call(api, ip), api, 401, "unauthorized");
});

test(`after ${LIMIT} failed authentications from one IP, bad keys get 429 without a database lookup; no key is still 401`, async () => {
  const ip = "203.0.113.10";
  await block(ip);
  await countingQueries(strict, async (queries) => {
    const limited = await from(ip, randomKey());
    assertError(limited, strict, 429, "rate_limited", /failed authentications/);
    assert.deepEqual(limited.body.details, { limit: LIMIT, period: 60, scope: "ip" });
    const retryAfter = Number(limited.headers.get("retry-after"));
    // one failure comes back every 60 s / 20 = 3 s
    assert.ok(retryAfter >= 1 && retryAfter <= 3, `Retry-After ${retryAfter}`);
    // a forged entry before the proxy's own changes nothing
    assertError(await call(strict, `198.51.100.1, ${ip}`, randomKey()), strict, 429, "rate_limited");
    assertError(await from(ip), strict, 401, "unauthorized");
    assertError(await from(ip, "ak_live_short"), strict, 401, "unauthorized");
    assert.equal(queries(), 0);
  });
  // another address has its own budget
  assertError(await from("203.0.113.11", randomKey()), strict, 401, "unauthorized");
});

test("IPv6 clients are counted by /64", async () => {
  await block("2001:db8:5:6::1");
  assertError(await from("2001:db8:5:6:ffff::2", randomKey()), strict, 429, "rate_limited");
  assertError(await from("2001:db8:5:7::1", randomKey()), strict, 401, "unauthorized");
});

test("only failures count: many good requests from one IP leave its budget alone", async () => {
  const { token } = await signUp(strict);
  for (let i = 0; i < LIMIT + 5; i++) assert.equal((await from("203.0.113.20", token)).status, 200);
  assertError(await from("203.0.113.20", randomKey()), strict, 401, "unauthorized");
});

test("a blocked address sending a valid key is still served (one bad client behind a NAT)", async () => {
  const { token } = await signUp(strict);
  const nat = "203.0.113.30";
  assert.equal((await from(nat, token)).status, 200);
  await block(nat);
  assertError(await from(nat, randomKey()), strict, 429, "rate_limited");
  assert.equal((await from(nat, token)).status, 200);

  // once the cached entry is no longer fresh, a key that resolved recently is looked up again, even from the blocked address
  const original = strict.ctx.keyCache;
  const cache = new ApiKeyCache("unused", strict.ctx.producer, null, strict.ctx.logger, { ttlMs: 1 });
  strict.ctx.keyCache = cache;
  try {
    assert.equal((await from("203.0.113.31", token)).status, 200);
    await waitFor(() => cache.get(sha256Hex(token)) === undefined, { what: "the cached key to go stale" });
    await countingQueries(strict, async (queries) => {
      assert.equal((await from(nat, token)).status, 200);
      assert.equal(queries(), 2, "the key lookup and the route's own query");
    });
    // a key this replica has not seen recently costs a query, which a blocked address does not get
    const { token: unseen } = await signUp(strict);
    assertError(await from(nat, unseen), strict, 429, "rate_limited");
    assert.equal((await from("203.0.113.32", unseen)).status, 200);
  } finally {
    strict.ctx.keyCache = original;
  }
});
