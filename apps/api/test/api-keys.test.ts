import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, test } from "node:test";
import { sha256Hex } from "@outreach/core";
import { ApiKeyCache } from "../src/api-key-cache.js";
import { assertError, countingQueries, flushUsage, request, signUp, startTestApi, type TestApi } from "./helpers.js";

let api: TestApi;
before(async () => {
  api = await startTestApi({ SIGNUP_LIMIT_PER_HOUR: "1000", RATE_LIMIT_PER_MINUTE: "100000" });
});
after(() => api?.close());

test("POST /api_keys issues a key once: plaintext in the response, only its hash stored", async () => {
  const { token, accountId } = await signUp(api);
  const res = await request(api.baseUrl, "POST", "/api_keys", { token, body: { label: "CI", client_kind: "sdk" } });
  assert.equal(res.status, 201);
  assert.deepEqual(Object.keys(res.body).sort(), ["client_kind", "created_at", "id", "label", "last_used_at", "plaintext", "prefix", "revoked_at"]);
  assert.equal(res.body.label, "CI");
  assert.equal(res.body.client_kind, "sdk");
  assert.match(res.body.plaintext, /^ak_live_[A-Za-z0-9_-]{43}$/);
  assert.equal(res.body.prefix, res.body.plaintext.slice(0, 12));
  const row = await api.database.db.apiKey.findUniqueOrThrow({ where: { id: res.body.id } });
  assert.equal(row.accountId, accountId);
  assert.equal(row.tokenHash, sha256Hex(res.body.plaintext));
  assert.ok(!JSON.stringify(row).includes(res.body.plaintext));

  // the new key works, and the list never shows a plaintext
  const list = await request(api.baseUrl, "GET", "/api_keys", { token: res.body.plaintext });
  assert.equal(list.status, 200);
  assert.deepEqual(list.body.map((k: any) => k.label).sort(), ["CI", "Default key (signup)"]);
  assert.ok(list.body.every((k: any) => !("plaintext" in k)));
});

test("client_kind defaults to direct and only direct, mcp and sdk are accepted", async () => {
  const { token } = await signUp(api);
  const plain = await request(api.baseUrl, "POST", "/api_keys", { token, body: { label: "plain" } });
  assert.equal(plain.body.client_kind, "direct");
  assertError(await request(api.baseUrl, "POST", "/api_keys", { token, body: { label: "x", client_kind: "cli" } }), api, 422, "validation_failed", /client_kind must be one of \[direct, mcp, sdk\]/);
  assertError(await request(api.baseUrl, "POST", "/api_keys", { token, body: {} }), api, 422, "validation_failed", /label is required/);
  assertError(await request(api.baseUrl, "POST", "/api_keys", { token, body: { label: "" } }), api, 422, "validation_failed", /label is not allowed to be empty/);
});

test("DELETE /api_keys/:id revokes at once; the revoked key gets 401", async () => {
  const { token } = await signUp(api);
  const second = await request(api.baseUrl, "POST", "/api_keys", { token, body: { label: "to revoke" } });
  const revoked = await request(api.baseUrl, "DELETE", `/api_keys/${second.body.id}`, { token });
  assert.equal(revoked.status, 200);
  assert.ok(revoked.body.revoked_at);
  assertError(await request(api.baseUrl, "GET", "/api_keys", { token: second.body.plaintext }), api, 401, "unauthorized");
  const list = await request(api.baseUrl, "GET", "/api_keys", { token });
  assert.deepEqual(list.body.map((k: any) => k.id).includes(second.body.id), false);
  // revoking it again is a 404: it is no longer an active key
  assertError(await request(api.baseUrl, "DELETE", `/api_keys/${second.body.id}`, { token }), api, 404, "api_key_not_found");
});

test("the last active key cannot be revoked (422 cannot_revoke_last_key), even by concurrent requests", async () => {
  const { token, keyId } = await signUp(api);
  assertError(await request(api.baseUrl, "DELETE", `/api_keys/${keyId}`, { token }), api, 422, "cannot_revoke_last_key");

  const other = await request(api.baseUrl, "POST", "/api_keys", { token, body: { label: "second" } });
  // both keys try to revoke each other at once: one must survive
  const [a, b] = await Promise.all([request(api.baseUrl, "DELETE", `/api_keys/${other.body.id}`, { token }), request(api.baseUrl, "DELETE", `/api_keys/${keyId}`, { token: other.body.plaintext })]);
  // one revocation goes through; the other is refused as the last key (422), or, when the first one
  // landed before it was even authenticated, with its own key already revoked (401)
  const statuses = [a.status, b.status].sort();
  assert.equal(statuses[0], 200, `${a.status} ${a.text} / ${b.status} ${b.text}`);
  assert.ok(statuses[1] === 422 || statuses[1] === 401, `${a.status} ${a.text} / ${b.status} ${b.text}`);
  const active = await api.database.db.apiKey.count({ where: { account: { apiKeys: { some: { id: keyId } } }, revokedAt: null } });
  assert.equal(active, 1);
});

test("unknown, malformed and other accounts' key ids are the same 404 api_key_not_found", async () => {
  const alice = await signUp(api);
  const bob = await signUp(api);
  const bobsSecond = await request(api.baseUrl, "POST", "/api_keys", { token: bob.token, body: { label: "b2" } });
  const missing = await request(api.baseUrl, "DELETE", "/api_keys/00000000-0000-4000-8000-000000000000", { token: alice.token });
  const foreign = await request(api.baseUrl, "DELETE", `/api_keys/${bobsSecond.body.id}`, { token: alice.token });
  const malformed = await request(api.baseUrl, "DELETE", "/api_keys/not-a-uuid", { token: alice.token });
  for (const res of [missing, foreign, malformed]) assertError(res, api, 404, "api_key_not_found");
  assert.deepEqual(foreign.body, missing.body);
  assert.equal((await api.database.db.apiKey.findUniqueOrThrow({ where: { id: bobsSecond.body.id } })).revokedAt, null);
});

test("last_used_at is updated by authenticated requests", async () => {
  const { accountId, token, keyId } = await signUp(api);
  assert.equal((await api.database.db.apiKey.findUniqueOrThrow({ where: { id: keyId } })).lastUsedAt, null);
  const before = Date.now();
  await request(api.baseUrl, "GET", "/api_keys", { token });
  await flushUsage(api, { accountId }, 1);
  const used = (await api.database.db.apiKey.findUniqueOrThrow({ where: { id: keyId } })).lastUsedAt;
  assert.ok(used && used.getTime() >= before - 5);
  const listed = await request(api.baseUrl, "GET", "/api_keys", { token });
  assert.ok(listed.body.find((k: any) => k.id === keyId).last_used_at);
});

test("a key revoked through one API process stops working on another at once", async () => {
  const { startAppProcess } = await import("@outreach/testing");
  const other = await startAppProcess("api", { env: { DATABASE_URL: api.config.databaseUrl, QUEUE_PREFIX: api.config.queuePrefix } });
  try {
    const { token } = await signUp(api);
    const second = await request(api.baseUrl, "POST", "/api_keys", { token, body: { label: "shared" } });
    // the other replica has the key cached
    assert.equal((await request(other.baseUrl, "GET", "/api_keys", { token: second.body.plaintext })).status, 200);
    assert.equal((await request(api.baseUrl, "DELETE", `/api_keys/${second.body.id}`, { token })).status, 200);
    const { waitFor } = await import("@outreach/testing");
    await waitFor(async () => (await request(other.baseUrl, "GET", "/api_keys", { token: second.body.plaintext })).status === 401, {
      timeoutMs: 2_000,
      what: "the revocation to reach the other replica",
    });
  } finally {
    await other.stop();
  }
});

test("an unknown key costs one database lookup, then none while it is remembered as unknown", async () => {
  const unknown = `ak_live_${randomBytes(32).toString("base64url")}`;
  await countingQueries(api, async (queries) => {
    assertError(await request(api.baseUrl, "GET", "/api_keys", { token: unknown }), api, 401, "unauthorized");
    assert.equal(queries(), 1, "the first request looks the key up");
    for (let i = 0; i < 3; i++) assertError(await request(api.baseUrl, "GET", "/api_keys", { token: unknown }), api, 401, "unauthorized");
    assert.equal(queries(), 1, "repeats are answered without a query");
  });
});

test("a revoked key is refused at once and then without a database lookup; other keys keep working", async () => {
  const { token } = await signUp(api);
  const second = await request(api.baseUrl, "POST", "/api_keys", { token, body: { label: "revoked, then retried" } });
  // cached as valid on this replica before the revocation
  assert.equal((await request(api.baseUrl, "GET", "/api_keys", { token: second.body.plaintext })).status, 200);
  assert.equal((await request(api.baseUrl, "DELETE", `/api_keys/${second.body.id}`, { token })).status, 200);
  await countingQueries(api, async (queries) => {
    for (let i = 0; i < 4; i++) assertError(await request(api.baseUrl, "GET", "/usage", { token: second.body.plaintext }), api, 401, "unauthorized");
    assert.equal(queries(), 0);
    // the remaining key is unaffected (its GET /api_keys is the only query)
    assert.equal((await request(api.baseUrl, "GET", "/api_keys", { token })).status, 200);
    assert.equal(queries(), 1);
  });
});

test("a replica that never saw a revoked key looks it up once, then refuses it without a query", async () => {
  const { token } = await signUp(api);
  const second = await request(api.baseUrl, "POST", "/api_keys", { token, body: { label: "revoked" } });
  assert.equal((await request(api.baseUrl, "DELETE", `/api_keys/${second.body.id}`, { token })).status, 200);
  // a fresh cache, as on a replica that never saw the key: the database has the last word
  const original = api.ctx.keyCache;
  api.ctx.keyCache = new ApiKeyCache("unused", api.ctx.producer, null, api.ctx.logger);
  try {
    await countingQueries(api, async (queries) => {
      assertError(await request(api.baseUrl, "GET", "/api_keys", { token: second.body.plaintext }), api, 401, "unauthorized");
      assertError(await request(api.baseUrl, "GET", "/api_keys", { token: second.body.plaintext }), api, 401, "unauthorized");
      assert.equal(queries(), 1);
    });
  } finally {
    api.ctx.keyCache = original;
  }
});
