import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createTestDatabase, type TestDatabase } from "@outreach/testing";
import { purgeOldRows } from "../src/index.js";

// Retention: request logs, expired idempotency records, delivered outbox events
// and finished webhook deliveries (with their attempts) older than their window
// are deleted, in batches; newer rows and anything still pending are kept.
let database: TestDatabase;
before(async () => {
  database = await createTestDatabase();
});
after(() => database?.drop());

const DAY = 86_400_000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY);

test("rows older than their retention window are purged, newer and pending ones are kept", async () => {
  const db = database.db;
  const plan = await db.plan.findUniqueOrThrow({ where: { slug: "pro" } });
  const account = await db.account.create({ data: { email: "retention@example.test", planId: plan.id, currentPeriodEnd: new Date(Date.now() + DAY) } });
  const apiKey = await db.apiKey.create({ data: { accountId: account.id, label: "k", prefix: "p", tokenHash: "h" } });
  const log = (createdAt: Date) =>
    db.requestLog.create({ data: { accountId: account.id, apiKeyId: apiKey.id, clientKind: "direct", method: "GET", route: "/x", status: 200, durationMs: 1, createdAt } });
  const oldLogs = await Promise.all(Array.from({ length: 7 }, () => log(daysAgo(31))));
  const newLog = await log(daysAgo(29));

  const record = (key: string, expiresAt: Date, responseBody: string | null) =>
    db.idempotencyRecord.create({
      data: {
        accountId: account.id,
        key,
        method: "POST",
        path: "/api_keys",
        requestHash: "h",
        responseStatus: responseBody ? 201 : null,
        responseBody,
        createdAt: new Date(expiresAt.getTime() - DAY),
        expiresAt,
      },
    });
  await record("expired", new Date(Date.now() - 60_000), "sealed key");
  await record("live", new Date(Date.now() + 60_000), "sealed key");

  const event = (createdAt: Date, dispatchedAt: Date | null) => db.event.create({ data: { accountId: account.id, type: "enrollment.sent", data: {}, createdAt, dispatchedAt } });
  const oldDelivered = await event(daysAgo(40), daysAgo(40));
  const oldUndelivered = await event(daysAgo(40), null);
  const newDelivered = await event(daysAgo(2), daysAgo(2));
  const oldWithPendingDelivery = await event(daysAgo(40), daysAgo(40));
  const oldWithFinishedDelivery = await event(daysAgo(40), daysAgo(40));

  const webhook = await db.webhook.create({ data: { accountId: account.id, url: "https://hooks.example.test/", secretEnc: "x" } });
  const delivery = async (eventId: string | null, state: "pending" | "succeeded" | "failed", completedAt: Date | null, createdAt: Date) => {
    const row = await db.webhookDelivery.create({ data: { accountId: account.id, webhookId: webhook.id, eventId, eventType: "enrollment.sent", state, completedAt, createdAt } });
    await db.webhookAttempt.create({ data: { deliveryId: row.id, number: 1, statusCode: 500, durationMs: 3, createdAt } });
    return row;
  };
  const pending = await delivery(oldWithPendingDelivery.id, "pending", null, daysAgo(40));
  const oldFinished = await delivery(oldWithFinishedDelivery.id, "succeeded", daysAgo(35), daysAgo(40));
  const oldPing = await delivery(null, "failed", daysAgo(35), daysAgo(35));
  const newFinished = await delivery(newDelivered.id, "succeeded", daysAgo(1), daysAgo(2));

  const purged = await purgeOldRows(db, { requestLogDays: 30, eventDays: 30, webhookDeliveryDays: 30 }, new Date(), 3);
  assert.deepEqual(purged, { requestLogs: 7, idempotencyRecords: 1, webhookDeliveries: 2, events: 2 });

  assert.deepEqual(
    (await db.requestLog.findMany()).map((r) => r.id),
    [newLog.id],
    "request logs: only the recent one is left (7 old ones went in batches of 3)",
  );
  assert.ok(oldLogs.length === 7);
  assert.deepEqual(
    (await db.idempotencyRecord.findMany()).map((r) => r.key),
    ["live"],
    "expired idempotency records (and the key they sealed) are gone",
  );
  const events = new Set((await db.event.findMany()).map((e) => e.id));
  assert.ok(!events.has(oldDelivered.id), "an old delivered event is purged");
  assert.ok(!events.has(oldWithFinishedDelivery.id), "so is one whose deliveries were purged");
  assert.ok(events.has(oldUndelivered.id), "an event not yet relayed is kept, however old");
  assert.ok(events.has(newDelivered.id), "a recent event is kept");
  assert.ok(events.has(oldWithPendingDelivery.id), "an event with a delivery still under way is kept");
  const deliveries = new Set((await db.webhookDelivery.findMany()).map((d) => d.id));
  assert.deepEqual([...deliveries].sort(), [pending.id, newFinished.id].sort(), "finished old deliveries are purged; pending and recent ones kept");
  assert.ok(!deliveries.has(oldFinished.id) && !deliveries.has(oldPing.id));
  const attempts = await db.webhookAttempt.findMany();
  assert.deepEqual(attempts.map((a) => a.deliveryId).sort(), [pending.id, newFinished.id].sort(), "attempts go with their delivery");

  assert.deepEqual(
    await purgeOldRows(db, { requestLogDays: 30, eventDays: 30, webhookDeliveryDays: 30 }),
    { requestLogs: 0, idempotencyRecords: 0, webhookDeliveries: 0, events: 0 },
    "a second run finds nothing",
  );
});
