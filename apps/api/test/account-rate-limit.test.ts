import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { issueApiKey } from "../src/services/issue-api-key.js";
import { assertError, liftQuotas, request, signUp, startTestApi, type JsonResponse, type TestApi } from "./helpers.js";

// The production defaults: 60 requests per key and 180 per account (three keys' worth) per 60 s.
let api: TestApi;
before(async () => {
  api = await startTestApi({ SIGNUP_LIMIT_PER_HOUR: "1000" });
});
after(() => api?.close());

const ACCOUNT_LIMIT = 180;
/** the account's budget comes back one request every 60 s / 180 */
const REFILL_MS = 60_000 / ACCOUNT_LIMIT;

/** Sends every request, `parallel` at a time; answers the responses in order. */
async function sendAll(tokens: string[], parallel = 8): Promise<JsonResponse[]> {
  const responses: JsonResponse[] = new Array(tokens.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      for (let i = next++; i < tokens.length; i = next++) responses[i] = await request(api.baseUrl, "GET", "/campaigns", { token: tokens[i] });
    }),
  );
  return responses;
}

test("201 keys of one account share the account's budget: 429 scope account once the account has used it, whatever key is used", async () => {
  const { accountId, token } = await signUp(api);
  // an operator let the account hold them all (the quota alone would stop at 5 keys)
  await liftQuotas(api, accountId);
  const tokens = [token];
  for (let i = 0; i < 200; i++) tokens.push((await issueApiKey(api.ctx.db, accountId, `key ${i}`, "direct")).plaintext);

  const startedAt = Date.now();
  // two requests per key: 402, well within each key's 60
  const responses = await sendAll([...tokens, ...tokens]);
  const elapsedMs = Date.now() - startedAt;

  const ok = responses.filter((res) => res.status === 200).length;
  const limited = responses.filter((res) => res.status === 429);
  assert.equal(ok + limited.length, responses.length, responses.find((res) => res.status !== 200 && res.status !== 429)?.text);
  // the burst of 180, and what came back while the requests ran
  assert.ok(ok >= ACCOUNT_LIMIT && ok <= ACCOUNT_LIMIT + Math.ceil(elapsedMs / REFILL_MS) + 1, `${ok} served in ${elapsedMs} ms`);
  for (const res of limited) {
    assertError(res, api, 429, "rate_limited", /per account \(all its API keys together\)/);
    assert.deepEqual(res.body.details, { limit: ACCOUNT_LIMIT, period: 60, scope: "account" });
    assert.ok(Number(res.headers.get("retry-after")) >= 1);
  }
  // a key with almost all of its own budget left shows the account's, which is tighter
  const last = responses.at(-1)!;
  assert.equal(last.headers.get("ratelimit-limit"), String(ACCOUNT_LIMIT));
  assert.equal(last.headers.get("ratelimit-policy"), `${ACCOUNT_LIMIT};w=60`);

  // another account is not held up
  const other = await signUp(api);
  assert.equal((await request(api.baseUrl, "GET", "/campaigns", { token: other.token })).status, 200);
});

test("one key still gets its own 60 per minute (scope key), and its headers show the key's budget", async () => {
  const { token } = await signUp(api);
  const responses: JsonResponse[] = [];
  // the budget refills one request a second: a slow machine may get one more in before the refusal
  const startedAt = Date.now();
  while (responses.length < 70 && responses.at(-1)?.status !== 429) responses.push(await request(api.baseUrl, "GET", "/campaigns", { token }));
  const elapsedMs = Date.now() - startedAt;
  const served = responses.length - 1;
  assert.ok(served >= 60 && served <= 60 + Math.ceil(elapsedMs / 1000) + 1, `${served} served in ${elapsedMs} ms`);
  assert.deepEqual(
    responses.slice(0, 60).map((res) => res.status),
    Array(60).fill(200),
  );
  assert.equal(responses[0]!.headers.get("ratelimit-limit"), "60");
  assert.equal(responses[0]!.headers.get("ratelimit-remaining"), "59");
  assertError(responses.at(-1)!, api, 429, "rate_limited", /per API key/);
  assert.deepEqual(responses.at(-1)!.body.details, { limit: 60, period: 60, scope: "key" });
});
