import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createLogger, createRedis, loadConfig, type Config } from "@outreach/core";
import { createTestDatabase, uniqueQueuePrefix, waitFor, type TestDatabase } from "@outreach/testing";
import { RetentionLoop } from "../src/retention-loop.js";

// The retention purge runs in the dispatcher, one replica at a time: of two
// replicas trying in the same period, one purges and the other does nothing.
let database: TestDatabase;
let config: Config;
let redis: ReturnType<typeof createRedis>;
before(async () => {
  database = await createTestDatabase();
  config = loadConfig("dispatcher", { DATABASE_URL: database.url, QUEUE_PREFIX: uniqueQueuePrefix(), LOG_LEVEL: "error", RETENTION_REQUEST_LOG_DAYS: "7" });
  redis = createRedis(config, "producer");
});
after(async () => {
  await redis?.quit();
  await database?.drop();
});

test("two replicas: one purges what is older than RETENTION_REQUEST_LOG_DAYS, the other skips the period; a started loop purges on its own", async () => {
  const db = database.db;
  const plan = await db.plan.findUniqueOrThrow({ where: { slug: "pro" } });
  const account = await db.account.create({ data: { email: "purge@example.test", planId: plan.id, currentPeriodEnd: new Date(Date.now() + 86_400_000) } });
  const apiKey = await db.apiKey.create({ data: { accountId: account.id, label: "k", prefix: "p", tokenHash: "purge" } });
  const log = (days: number) =>
    db.requestLog.create({
      data: { accountId: account.id, apiKeyId: apiKey.id, clientKind: "direct", method: "GET", route: "/x", status: 200, durationMs: 1, createdAt: new Date(Date.now() - days * 86_400_000) },
    });
  await log(8);
  const kept = await log(6);
  // idempotency records: one expiring before the next purge (a minute) is purged now, so no stored response outlives 24 h
  const record = (key: string, expiresInMs: number) =>
    db.idempotencyRecord.create({ data: { accountId: account.id, key, method: "POST", path: "/api_keys", requestHash: "h", expiresAt: new Date(Date.now() + expiresInMs) } });
  await record("expiring", 30_000);
  await record("fresh", 3600_000);

  const logger = createLogger({ service: "dispatcher", level: "error" });
  const replicas = [new RetentionLoop(db, redis, config, logger, 60_000), new RetentionLoop(db, redis, config, logger, 60_000)];
  const results = await Promise.all(replicas.map((r) => r.runOnce()));
  assert.equal(results.filter((r) => r === null).length, 1, "one replica found the period taken");
  assert.equal(results.find((r) => r !== null)?.requestLogs, 1, "the other purged the 8-day-old log (RETENTION_REQUEST_LOG_DAYS=7)");
  assert.deepEqual(
    (await db.requestLog.findMany()).map((r) => r.id),
    [kept.id],
  );
  assert.deepEqual(
    (await db.idempotencyRecord.findMany()).map((r) => r.key),
    ["fresh"],
  );

  // a loop with its own period (another prefix's key) purges when started
  await log(9);
  const loop = new RetentionLoop(db, redis, { ...config, queuePrefix: uniqueQueuePrefix() }, logger, 60_000);
  loop.start();
  try {
    await waitFor(async () => (await db.requestLog.count()) === 1, { what: "the started loop to purge" });
  } finally {
    await loop.stop();
  }
});
