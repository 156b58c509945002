import assert from "node:assert/strict";
import { setTimeout as delay } from "node:timers/promises";
import { after, before, test } from "node:test";
import { createTestDatabase, LOOPBACK_MAIL_ENV, startTcpProxy, uniqueQueuePrefix, type TcpProxy, type TestDatabase } from "@outreach/testing";
import { claimIdempotencyKey } from "../apps/api/src/idempotency-claims.js";
import { signUp, startApiServer, type ApiServer } from "./kit/api.js";

// Found by the chaos run: a contact import committed, then PostgreSQL went away before its answer was stored;
// the claim stopped beating, was taken over as abandoned, and the retry imported a second time.
let database: TestDatabase;
let proxy: TcpProxy;
let api: ApiServer;

before(async () => {
  database = await createTestDatabase();
  const direct = new URL(database.url);
  proxy = await startTcpProxy(direct.hostname, Number(direct.port || 5432));
  const throughProxy = new URL(database.url);
  throughProxy.port = String(proxy.port);
  api = await startApiServer({ NODE_ENV: "test", DATABASE_URL: throughProxy.toString(), QUEUE_PREFIX: uniqueQueuePrefix(), LOG_LEVEL: "error", ...LOOPBACK_MAIL_ENV });
});
after(async () => {
  await api?.close();
  await proxy?.close();
  await database?.drop();
});

test("the answer of work that was done is stored once the database is back, so a retry replays it instead of doing the work again", async () => {
  const { accountId } = await signUp(api);
  const request = { accountId, key: "import-once", method: "POST", path: "/contact_imports", requestHash: "hash-of-the-body" };
  const claim = await claimIdempotencyKey(api.ctx, request);
  assert.equal(claim.kind, "claimed");

  proxy.cut(); // the work has committed; the database goes away before its answer is kept
  const released = claim.kind === "claimed" ? claim.release({ status: 201, headers: {}, body: '{"id":"the-import"}' }) : Promise.resolve();
  await delay(1_500);
  proxy.resume();
  await released;

  const record = await database.db.idempotencyRecord.findUniqueOrThrow({ where: { accountId_key: { accountId, key: "import-once" } } });
  assert.equal(record.responseStatus, 201, "the answer was stored after the outage");
  const retry = await claimIdempotencyKey(api.ctx, request);
  assert.equal(retry.kind, "replay");
  assert.equal(retry.kind === "replay" ? retry.body : "", '{"id":"the-import"}');
});
