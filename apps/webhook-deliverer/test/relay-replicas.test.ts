import assert from "node:assert/strict";
import { test } from "node:test";
import { createLogger } from "@outreach/core";
import { createTestDatabase, startAppProcess, type AppProcess } from "@outreach/testing";
import { OutboxRelay } from "../src/outbox-relay.js";
import { PgListener } from "../src/pg-listener.js";
import { createAccount, createWebhook, emitEvent, sentData, delivererForFile, receiverPool, waitFor } from "./harness.js";

const receiver = receiverPool();
const deliverer = delivererForFile();

test("the relay is woken by the commit's notification, not by its polling", async () => {
  const database = await createTestDatabase();
  let relayed = 0;
  // polling every 10 minutes: within this test only the NOTIFY can wake it
  const logger = createLogger({ service: "test", level: "error" });
  const relay = new OutboxRelay(database.db, (count) => void (relayed += count), logger, { pollMs: 600_000 });
  const listener = new PgListener(database.url, { outbox_events: () => relay.wake() }, logger);
  try {
    const accountId = await createAccount(database.db);
    await createWebhook(database.db, deliverer.config, accountId, "http://127.0.0.1:9/unused");
    relay.start();
    await listener.start();
    for (let i = 0; i < 3; i++) {
      const started = Date.now();
      const eventId = await emitEvent(database.db, accountId, "enrollment.sent", sentData());
      await waitFor(async () => (await database.db.event.findUniqueOrThrow({ where: { id: eventId } })).dispatchedAt !== null, { timeoutMs: 30_000, what: "the event relayed" });
      console.log(`# relayed by NOTIFY in ${Date.now() - started} ms`);
      assert.equal(relayed, i + 1);
    }
  } finally {
    await listener.stop();
    await relay.stop();
    await database.drop();
  }
});

test("at idle an event reaches its receiver well under a second after its commit", async () => {
  const rx = await receiver();
  const accountId = await createAccount(deliverer.db);
  await createWebhook(deliverer.db, deliverer.config, accountId, rx.url);
  const latencies: number[] = [];
  for (let i = 0; i < 7; i++) {
    const committed = (await emitEvent(deliverer.db, accountId, "enrollment.sent", sentData()), Date.now());
    await waitFor(() => rx.requests.length === i + 1, { timeoutMs: 20_000, what: `delivery ${i + 1}` });
    latencies.push(rx.requests[i]!.at - committed);
  }
  const sorted = [...latencies].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  console.log(`# commit -> receiver latency at idle: ${latencies.join(", ")} ms (median ${median}, max ${sorted.at(-1)})`);
  assert.ok(median < 1000, `median latency ${median} ms`);
});

test("two deliverers on one database and queue prefix relay each event once and POST each delivery once", async () => {
  let replica: AppProcess | undefined;
  try {
    // a second deliverer process on the same database and queue prefix
    replica = await startAppProcess("webhook-deliverer", { env: { ...deliverer.env, LOG_LEVEL: "warn" }, timeoutMs: 60_000 });
    const accounts = await Promise.all([0, 1, 2].map(() => createAccount(deliverer.db)));
    const rxs = await Promise.all(accounts.map(() => receiver()));
    const webhooks = await Promise.all(accounts.map((accountId, i) => createWebhook(deliverer.db, deliverer.config, accountId, rxs[i]!.url)));
    const perAccount = 25;
    const eventIds = (
      await Promise.all(
        accounts.map(async (accountId) => {
          const ids: string[] = [];
          for (let i = 0; i < perAccount; i++) ids.push(await emitEvent(deliverer.db, accountId, "enrollment.opened", sentData()));
          return ids;
        }),
      )
    ).flat();
    const total = eventIds.length;
    await waitFor(async () => (await deliverer.db.webhookDelivery.count({ where: { accountId: { in: accounts }, state: "succeeded" } })) === total, {
      timeoutMs: 60_000,
      what: `${total} deliveries succeeded`,
    });
    assert.equal(await deliverer.db.event.count({ where: { id: { in: eventIds }, dispatchedAt: null } }), 0);

    const rows = await deliverer.db.webhookDelivery.findMany({ where: { accountId: { in: accounts } }, include: { attemptLog: true } });
    assert.equal(rows.length, total, "one delivery row per event and webhook");
    assert.equal(new Set(rows.map((r) => `${r.webhookId}:${r.eventId}`)).size, total);
    assert.deepEqual(new Set(rows.map((r) => r.eventId)), new Set(eventIds));
    for (const row of rows) assert.equal(row.attemptLog.length, 1, `delivery ${row.id} attempted once`);

    accounts.forEach((accountId, i) => {
      const ids = rxs[i]!.requests.map((r) => r.body.id);
      assert.equal(ids.length, perAccount, `receiver ${i} got ${ids.length} POSTs`);
      assert.equal(new Set(ids).size, ids.length, "no delivery id was POSTed twice");
      assert.deepEqual(new Set(ids), new Set(rows.filter((r) => r.webhookId === webhooks[i]!.id).map((r) => r.id)));
      for (const r of rxs[i]!.requests) assert.equal(r.body.account_id, accountId);
    });
    const relayTimes = new Set(rows.map((r) => r.createdAt.getTime()));
    console.log(`# ${total} events relayed in ${relayTimes.size} batches by two deliverers`);
    assert.equal(replica.child.exitCode, null, `the replica is still running: ${replica.output()}`);
  } finally {
    if (replica) assert.equal(await replica.stop(), 0, `the replica stopped cleanly: ${replica.output()}`);
  }
});
