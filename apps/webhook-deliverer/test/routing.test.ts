import assert from "node:assert/strict";
import { test } from "node:test";
import { EVENT_TYPES } from "@outreach/core";
import { relayOutboxBatch } from "@outreach/domain";
import { createTestDatabase, type TestDatabase } from "@outreach/testing";
import { accountsWithWebhooks, createAccount, createWebhook, emitEvent, sampleEvents, sentData, delivererForFile, receiverPool, waitFor, waitForRelay } from "./harness.js";

const receiver = receiverPool();
const deliverer = delivererForFile();

async function emitAllTypes(accountId: string): Promise<Map<string, string>> {
  const samples = sampleEvents();
  const ids = new Map<string, string>();
  for (const type of EVENT_TYPES) ids.set(type, await emitEvent(deliverer.db, accountId, type, samples[type] as never));
  return ids;
}

test('filters: "*" receives every type, ["enrollment.replied"] only that; two webhooks get their own deliveries; a disabled one none', async () => {
  const [all, repliedOnly, second, disabled] = [await receiver(), await receiver(), await receiver(), await receiver()];
  const accountId = await createAccount(deliverer.db);
  const wAll = await createWebhook(deliverer.db, deliverer.config, accountId, all.url, ["*"]);
  const wReplied = await createWebhook(deliverer.db, deliverer.config, accountId, repliedOnly.url, ["enrollment.replied"]);
  const wSecond = await createWebhook(deliverer.db, deliverer.config, accountId, second.url);
  const wDisabled = await createWebhook(deliverer.db, deliverer.config, accountId, disabled.url);
  await deliverer.db.webhook.update({ where: { id: wDisabled.id }, data: { disabledAt: new Date() } });

  const events = await emitAllTypes(accountId);
  for (const eventId of events.values()) await waitForRelay(deliverer.db, eventId);
  await waitFor(() => all.requests.length >= 7 && second.requests.length >= 7 && repliedOnly.requests.length >= 1, { timeoutMs: 20_000, what: "deliveries" });
  await waitFor(async () => (await deliverer.db.webhookDelivery.count({ where: { accountId, state: "pending" } })) === 0, { timeoutMs: 20_000, what: "all delivered" });

  assert.deepEqual(all.requests.map((r) => r.body.type).sort(), [...EVENT_TYPES].sort());
  assert.deepEqual(second.requests.map((r) => r.body.type).sort(), [...EVENT_TYPES].sort());
  assert.deepEqual(
    repliedOnly.requests.map((r) => r.body.type),
    ["enrollment.replied"],
  );
  assert.equal(disabled.requests.length, 0);

  const rows = await deliverer.db.webhookDelivery.findMany({ where: { accountId } });
  const count = (webhookId: string) => rows.filter((r) => r.webhookId === webhookId).length;
  assert.equal(count(wAll.id), 7);
  assert.equal(count(wSecond.id), 7);
  assert.equal(count(wReplied.id), 1);
  assert.equal(count(wDisabled.id), 0, "a disabled webhook gets no delivery row");
  assert.equal(rows.find((r) => r.webhookId === wReplied.id)!.eventId, events.get("enrollment.replied"));

  // one event, two webhooks: two deliveries with ids of their own, each the id its receiver saw
  const replied = events.get("enrollment.replied")!;
  const a = rows.find((r) => r.webhookId === wAll.id && r.eventId === replied)!;
  const b = rows.find((r) => r.webhookId === wSecond.id && r.eventId === replied)!;
  assert.notEqual(a.id, b.id);
  assert.equal(all.requests.find((r) => r.body.type === "enrollment.replied")!.body.id, a.id);
  assert.equal(second.requests.find((r) => r.body.type === "enrollment.replied")!.body.id, b.id);
  assert.equal(new Set(rows.map((r) => r.id)).size, rows.length);
});

test("isolation: one account's events never reach another account's receiver", async () => {
  const [rxA, rxB] = [await receiver(), await receiver()];
  const [accountA, accountB] = await accountsWithWebhooks(deliverer, [rxA.url, rxB.url]);
  const emitted: string[] = [];
  for (let i = 0; i < 5; i++) {
    emitted.push(await emitEvent(deliverer.db, accountA, "enrollment.sent", sentData(`00000000-0000-4000-8000-0000000000a${i}`)));
    emitted.push(await emitEvent(deliverer.db, accountB, "enrollment.sent", sentData(`00000000-0000-4000-8000-0000000000b${i}`)));
  }
  await waitFor(() => rxA.requests.length >= 5 && rxB.requests.length >= 5, { timeoutMs: 20_000, what: "5 deliveries each" });
  for (const eventId of emitted) await waitForRelay(deliverer.db, eventId);
  await waitFor(async () => (await deliverer.db.webhookDelivery.count({ where: { accountId: { in: [accountA, accountB] }, state: "pending" } })) === 0, {
    timeoutMs: 20_000,
    what: "all delivered",
  });
  assert.equal(rxA.requests.length, 5);
  assert.equal(rxB.requests.length, 5);
  for (const r of rxA.requests) {
    assert.equal(r.body.account_id, accountA);
    assert.match(r.body.data.campaign_id, /a\d$/);
  }
  for (const r of rxB.requests) {
    assert.equal(r.body.account_id, accountB);
    assert.match(r.body.data.campaign_id, /b\d$/);
  }
});

test("ordering: events emitted one after another are fanned out in the order they were created", async () => {
  const rx = await receiver();
  const accountId = await createAccount(deliverer.db);
  const { id: webhookId } = await createWebhook(deliverer.db, deliverer.config, accountId, rx.url);
  const ids: string[] = [];
  for (let i = 0; i < 25; i++) {
    const eventId = await emitEvent(deliverer.db, accountId, "enrollment.sent", sentData(`00000000-0000-4000-8000-0000000001${String(i).padStart(2, "0")}`));
    ids.push(eventId);
    // events of distinct milliseconds (creation times are stored to the millisecond)
    const { createdAt } = await deliverer.db.event.findUniqueOrThrow({ where: { id: eventId } });
    await waitFor(() => Date.now() > createdAt.getTime() + 1, { intervalMs: 1 });
  }
  for (const eventId of ids) await waitForRelay(deliverer.db, eventId);
  const rows = await deliverer.db.webhookDelivery.findMany({ where: { webhookId } });
  assert.equal(rows.length, ids.length);
  const relayedAt = new Map(rows.map((r) => [r.eventId!, r.createdAt.getTime()]));
  const times = ids.map((id) => relayedAt.get(id)!);
  for (let i = 1; i < times.length; i++) assert.ok(times[i]! >= times[i - 1]!, `event ${i} was relayed before event ${i - 1}: ${times.join(",")}`);
  await waitFor(() => rx.requests.length >= ids.length, { timeoutMs: 20_000, what: "all delivered" });
  assert.deepEqual(new Set(rx.requests.map((r) => r.body.id)), new Set(rows.map((r) => r.id)));
});

test("ordering: a backlog is drained oldest first, batch after batch (relayOutboxBatch)", async () => {
  // a database of its own with no relay running, so the batches are ours to take
  const database: TestDatabase = await createTestDatabase();
  try {
    const accountId = await createAccount(database.db);
    await createWebhook(database.db, deliverer.config, accountId, "http://127.0.0.1:9/never");
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const eventId = await emitEvent(database.db, accountId, "enrollment.sent", sentData());
      ids.push(eventId);
      const { createdAt } = await database.db.event.findUniqueOrThrow({ where: { id: eventId } });
      await waitFor(() => Date.now() > createdAt.getTime() + 1, { intervalMs: 1 });
    }
    const relayed: string[] = [];
    for (;;) {
      const batch = await relayOutboxBatch(database.db, 5);
      if (batch.events === 0) break;
      assert.ok(batch.events <= 5);
      const rows = await database.db.webhookDelivery.findMany({ where: { eventId: { notIn: relayed } } });
      assert.equal(batch.deliveries, rows.length);
      const inBatch = new Set(rows.map((r) => r.eventId!));
      // each batch is exactly the oldest events not relayed yet
      assert.deepEqual([...inBatch].sort(), ids.slice(relayed.length, relayed.length + batch.events).sort());
      relayed.push(...ids.slice(relayed.length, relayed.length + batch.events));
    }
    assert.deepEqual(relayed, ids);
    assert.equal(await database.db.event.count({ where: { dispatchedAt: null } }), 0);
  } finally {
    await database.drop();
  }
});
