import assert from "node:assert/strict";
import { request as httpRequest } from "node:http";
import { test } from "node:test";
import { sha256Hex } from "@outreach/core";
import { executor } from "@outreach/db";
import { purgeOldRows } from "@outreach/domain";
import { waitFor } from "@outreach/testing";
import { assertError, request, signUp } from "./helpers.js";
import { billingApiForFile, payingAccount } from "./billing-fixtures.js";

// The claim on an Idempotency-Key is held for as long as its handler runs, also
// when the client has gone; only a claim whose handler cannot be running any
// more (its heartbeat stopped) is taken over.
const env = billingApiForFile();

const checkoutsAtProvider = () => env.stripe.requests.filter((r) => r.method === "POST" && r.path === "/v1/checkout/sessions").length;

/** Sends a request and resolves once the server has its body; the caller then drops the connection. */
function startRequest(path: string, token: string, key: string, body: unknown) {
  const payload = JSON.stringify(body);
  const req = httpRequest(`${env.api.baseUrl}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "content-length": Buffer.byteLength(payload), "idempotency-key": key },
  });
  req.on("error", () => undefined);
  req.end(payload);
  return req;
}

test("a client that disconnects while its request runs does not release the key: the retry gets the one execution's response", async () => {
  const account = await payingAccount(env);
  let closedWhileRunning = 0;
  env.api.server.on("request", (_req, res) => res.on("close", () => void (res.writableFinished || closedWhileRunning++)));
  const slow = env.stripe.holdNext((r) => r.path === "/v1/checkout/sessions");
  const before = checkoutsAtProvider();

  const first = startRequest("/billing/checkout", account.token, "checkout-once", { plan_slug: "pro" });
  await slow.arrived; // the handler is waiting on the provider
  first.destroy();
  await waitFor(() => closedWhileRunning > 0, { what: "the API to see the client go" });

  const retry = request(env.api.baseUrl, "POST", "/billing/checkout", { token: account.token, body: { plan_slug: "pro" }, headers: { "idempotency-key": "checkout-once" } });
  await waitFor(async () => (await env.api.database.db.idempotencyRecord.count({ where: { accountId: account.accountId, key: "checkout-once" } })) === 1 || checkoutsAtProvider() > before + 1, {
    what: "the retry to arrive",
  });
  slow.release();
  const res = await retry;
  assert.equal(checkoutsAtProvider() - before, 1, "the checkout was executed once");
  assert.equal(res.status, 200, res.text);
  assert.equal(res.headers.get("idempotent-replay"), "true", "the retry is the first execution's response");
  assert.ok(env.stripe.checkoutSessions.has(res.body.id));
});

const apiKeyHash = (body: unknown) => sha256Hex(`POST /api_keys\n${JSON.stringify(body)}`);

test("a claim whose handler is still running (fresh heartbeat) is not taken over, however old; a claim whose heartbeat stopped is", async () => {
  const { token, accountId } = await signUp(env.api);
  const db = env.api.database.db;
  const body = { label: "claimed" };
  const longAgo = new Date(Date.now() - 10 * 60_000);
  const claim = (key: string, heartbeatAt: Date) =>
    executor(db).execute(
      `INSERT INTO idempotency_records ("accountId", key, method, path, "requestHash", "createdAt", "expiresAt", "heartbeatAt")
      VALUES ($1::uuid, $2, 'POST', '/api_keys', $3, $4, $5, $6)`,
      [accountId, key, apiKeyHash(body), longAgo, new Date(Date.now() + 3_600_000), heartbeatAt],
    );

  await claim("still-running", new Date());
  const running = await request(env.api.baseUrl, "POST", "/api_keys", { token, body, headers: { "idempotency-key": "still-running" } });
  assertError(running, env.api, 409, "idempotency_conflict", /still being processed/);
  assert.equal(await db.apiKey.count({ where: { accountId, label: "claimed" } }), 0, "not executed a second time");

  await claim("owner-died", longAgo);
  const takenOver = await request(env.api.baseUrl, "POST", "/api_keys", { token, body, headers: { "idempotency-key": "owner-died" } });
  assert.equal(takenOver.status, 201, takenOver.text);
  assert.equal(await db.apiKey.count({ where: { accountId, label: "claimed" } }), 1);
});

test("a stored response is not replayed after it expired, and the retention purge deletes it", async () => {
  const { token, accountId } = await signUp(env.api);
  const db = env.api.database.db;
  const first = await request(env.api.baseUrl, "POST", "/api_keys", { token, body: { label: "old" }, headers: { "idempotency-key": "day-old" } });
  assert.equal(first.status, 201);
  await db.idempotencyRecord.updateMany({ where: { accountId, key: "day-old" }, data: { createdAt: new Date(Date.now() - 25 * 3_600_000), expiresAt: new Date(Date.now() - 3_600_000) } });
  const again = await request(env.api.baseUrl, "POST", "/api_keys", { token, body: { label: "old" }, headers: { "idempotency-key": "day-old" } });
  assert.equal(again.status, 201);
  assert.equal(again.headers.get("idempotent-replay"), null, "executed anew, the old answer (with its key in it) is not shown again");
  assert.notEqual(again.body.plaintext, first.body.plaintext);

  // 24 h later the record, with the sealed plaintext key in it, is deleted by the retention purge
  await db.idempotencyRecord.updateMany({ where: { accountId, key: "day-old" }, data: { expiresAt: new Date(Date.now() - 1) } });
  const purged = await purgeOldRows(db, { requestLogDays: 30, eventDays: 30, webhookDeliveryDays: 30 });
  assert.ok(purged.idempotencyRecords >= 1);
  assert.equal(await db.idempotencyRecord.count({ where: { accountId } }), 0);
});
