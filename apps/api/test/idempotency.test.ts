import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { assertError, request, signUp, startTestApi, type TestApi } from "./helpers.js";

let api: TestApi;
before(async () => {
  api = await startTestApi({ SIGNUP_LIMIT_PER_HOUR: "1000", RATE_LIMIT_PER_MINUTE: "100000" });
});
after(() => api?.close());

const post = (token: string, key: string | undefined, body: unknown) => request(api.baseUrl, "POST", "/api_keys", { token, body, headers: key ? { "idempotency-key": key } : {} });

test("a replay returns the original status, headers and body verbatim with Idempotent-Replay: true", async () => {
  const { token, accountId } = await signUp(api);
  const first = await post(token, "create-ci-key", { label: "CI" });
  assert.equal(first.status, 201);
  assert.equal(first.headers.get("idempotent-replay"), null);
  const replay = await post(token, "create-ci-key", { label: "CI" });
  assert.equal(replay.status, 201);
  assert.equal(replay.headers.get("idempotent-replay"), "true");
  assert.equal(replay.text, first.text, "byte for byte");
  assert.equal(replay.headers.get("content-type"), first.headers.get("content-type"));
  assert.equal(await api.database.db.apiKey.count({ where: { accountId, label: "CI" } }), 1, "executed once");
  const stored = await api.database.db.idempotencyRecord.findUniqueOrThrow({ where: { accountId_key: { accountId, key: "create-ci-key" } } });
  assert.ok(!stored.responseBody!.includes(first.body.plaintext), "the key's plaintext is not stored in the clear");
});

test("the same key with a different body gives 409 idempotency_conflict and executes nothing", async () => {
  const { token, accountId } = await signUp(api);
  await post(token, "k", { label: "one" });
  const conflict = await post(token, "k", { label: "two" });
  assertError(conflict, api, 409, "idempotency_conflict");
  assert.equal(await api.database.db.apiKey.count({ where: { accountId, label: "two" } }), 0);
});

test("keys are scoped per account", async () => {
  const alice = await signUp(api);
  const bob = await signUp(api);
  const a = await post(alice.token, "shared-key", { label: "mine" });
  const b = await post(bob.token, "shared-key", { label: "mine" });
  assert.equal(a.status, 201);
  assert.equal(b.status, 201);
  assert.equal(b.headers.get("idempotent-replay"), null);
  assert.notEqual(a.body.id, b.body.id);
});

test("concurrent requests with one key execute once; every response is that one", async () => {
  const { token, accountId } = await signUp(api);
  const responses = await Promise.all(Array.from({ length: 12 }, () => post(token, "parallel", { label: "parallel" })));
  assert.equal(await api.database.db.apiKey.count({ where: { accountId, label: "parallel" } }), 1);
  assert.ok(
    responses.every((r) => r.status === 201),
    JSON.stringify(responses.map((r) => r.status)),
  );
  assert.equal(new Set(responses.map((r) => r.body.id)).size, 1);
  assert.equal(responses.filter((r) => r.headers.get("idempotent-replay") === "true").length, 11);
});

test("an error response is replayed too, but a request without a key always executes", async () => {
  const { token, accountId } = await signUp(api);
  const invalid = await post(token, "bad", { label: "" });
  assertError(invalid, api, 422, "validation_failed");
  const replay = await post(token, "bad", { label: "" });
  assert.equal(replay.status, 422);
  assert.equal(replay.headers.get("idempotent-replay"), "true");
  await post(token, undefined, { label: "free" });
  await post(token, undefined, { label: "free" });
  assert.equal(await api.database.db.apiKey.count({ where: { accountId, label: "free" } }), 2);
});

test("after the 24-hour window the key can be used again", async () => {
  const { token, accountId } = await signUp(api);
  await post(token, "old", { label: "old" });
  await api.database.db.idempotencyRecord.updateMany({ where: { accountId, key: "old" }, data: { expiresAt: new Date(Date.now() - 1000) } });
  const again = await post(token, "old", { label: "old" });
  assert.equal(again.status, 201);
  assert.equal(again.headers.get("idempotent-replay"), null);
  assert.equal(await api.database.db.apiKey.count({ where: { accountId, label: "old" } }), 2);
});

test("a malformed Idempotency-Key is a 400 bad_request", async () => {
  const { token } = await signUp(api);
  assertError(await post(token, "x".repeat(300), { label: "long" }), api, 400, "bad_request", /Idempotency-Key/);
});
