import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createLogger, EgressGuard, Keyring } from "@outreach/core";
import { executor } from "@outreach/db";
import { relayOutboxBatch, SecretCache, WebhookHttpClient } from "@outreach/domain";
import { createTestDatabase } from "@outreach/testing";
import { AttemptRecorder } from "../src/attempt-recorder.js";
import { DeliveryFeeder } from "../src/delivery-feeder.js";
import { accountsWithWebhooks, createAccount, createWebhook, emitEvent, sentData, startDeliverer, startReceiver, waitFor, type Deliverer, type Receiver } from "./harness.js";

let deliverer: Deliverer;
const receivers: Receiver[] = [];
before(async () => {
  deliverer = await startDeliverer();
});
after(async () => {
  for (const r of receivers) await r.close();
  await deliverer?.stop();
});

test("at most 10 deliveries of one account are in flight at once, and another account is not held up behind them", async () => {
  const [rxA, rxB] = [await startReceiver(), await startReceiver()];
  receivers.push(rxA, rxB);
  rxA.fallback = { status: 200, delayMs: 400 };
  const [accountA, accountB] = await accountsWithWebhooks(deliverer, [rxA.url, rxB.url]);

  const burst = 30;
  await deliverer.db.$transaction(async (tx) => {
    for (let i = 0; i < burst; i++) await tx.event.create({ data: { accountId: accountA, type: "enrollment.sent", data: sentData() as object } });
  });
  await waitFor(() => rxA.inFlight >= 5, { timeoutMs: 20_000, what: "account A's burst under way" });
  await emitEvent(deliverer.db, accountB, "enrollment.sent", sentData());
  await waitFor(() => rxB.requests.length === 1, { timeoutMs: 20_000, what: "account B's delivery" });
  const aDoneWhenBArrived = rxA.requests.length;
  await waitFor(async () => (await deliverer.db.webhookDelivery.count({ where: { accountId: accountA, state: "succeeded" } })) === burst, { timeoutMs: 60_000, what: "A's burst delivered" });

  console.log(`# account A: at most ${rxA.maxInFlight} in flight; B delivered after ${aDoneWhenBArrived} of A's ${burst} had arrived`);
  assert.ok(rxA.maxInFlight <= 10, `${rxA.maxInFlight} deliveries of one account at once`);
  assert.ok(rxA.maxInFlight >= 5, `deliveries of one account run side by side (at most ${rxA.maxInFlight} at once)`);
  assert.ok(aDoneWhenBArrived < burst, "B's delivery did not wait for A's whole burst");
  assert.equal(new Set(rxA.requests.map((r) => r.body.id)).size, burst);
  // every POST is a recorded attempt (a retry after a timeout would be one more of each)
  const attempts = await deliverer.db.webhookAttempt.findMany({ where: { delivery: { accountId: accountA } } });
  assert.equal(rxA.requests.length, attempts.length, JSON.stringify(attempts.filter((a) => a.number > 1)));
});

test("a backlog of 2,000 deliveries of one account all arrive, each once, and all end succeeded", async () => {
  const rx = await startReceiver();
  receivers.push(rx);
  const accountId = await createAccount(deliverer.db);
  await createWebhook(deliverer.db, deliverer.config, accountId, rx.url);
  const backlog = 2_000;
  // answers arrive in every order, and slots free up while the next batch is being claimed
  rx.answers = Array.from({ length: backlog }, (_, i) => ({ status: 200, delayMs: i % 7 }));
  await executor(deliverer.db).execute(
    `
    INSERT INTO events (id, "accountId", type, data, "createdAt")
    SELECT gen_random_uuid(), $1::uuid, 'enrollment.sent', $2::jsonb, clock_timestamp()
    FROM generate_series(1, $3::int)`,
    [accountId, JSON.stringify(sentData()), backlog],
  );
  await waitFor(async () => (await deliverer.db.webhookDelivery.count({ where: { accountId, state: "succeeded" } })) === backlog, {
    timeoutMs: 120_000,
    what: "the whole backlog delivered",
  }).catch(async (err: Error) => {
    const states = await deliverer.db.webhookDelivery.groupBy({ by: ["state"], where: { accountId }, _count: true });
    throw new Error(`${err.message}: ${rx.requests.length} requests arrived; states ${JSON.stringify(states)}`);
  });
  assert.equal(rx.requests.length, backlog);
  assert.equal(new Set(rx.requests.map((r) => r.body.id)).size, backlog);
  assert.ok(rx.maxInFlight <= 10, `${rx.maxInFlight} requests of one account at once`);
});

test("a process serving as many accounts as it may still takes the others in turn: hanging accounts hand theirs back after a slice", async () => {
  const database = await createTestDatabase();
  const db = database.db;
  const logger = createLogger({ service: "test", level: "error" });
  const hanging = await startReceiver();
  const live = await startReceiver();
  receivers.push(hanging, live);
  hanging.fallback = "hang";
  // a request times out after 30 s: B must get through well before any hanging request ends
  const http = new WebhookHttpClient(new EgressGuard({ allowPrivate: true }), 30_000);
  const feeder = new DeliveryFeeder({
    db,
    http,
    recorder: new AttemptRecorder(db, 50, logger),
    secrets: new SecretCache(Keyring.fromConfig(deliverer.config)),
    logger,
    drainMs: 100,
    pollMs: 100,
    maxAccounts: 3,
    sliceMs: 1_000,
  });
  try {
    for (let i = 0; i < 3; i++) {
      const accountId = await createAccount(db);
      await createWebhook(db, deliverer.config, accountId, hanging.url);
      for (let j = 0; j < 15; j++) await emitEvent(db, accountId, "enrollment.sent", sentData());
    }
    const accountB = await createAccount(db);
    await createWebhook(db, deliverer.config, accountB, live.url);
    while ((await relayOutboxBatch(db)).events > 0);
    feeder.start();
    await waitFor(() => hanging.inFlight + hanging.requests.length >= 30, { timeoutMs: 10_000, what: "the three hanging accounts served" });
    await emitEvent(db, accountB, "enrollment.sent", sentData());
    while ((await relayOutboxBatch(db)).events > 0);
    feeder.wake();
    await waitFor(() => live.requests.length === 1, { timeoutMs: 20_000, what: "B's delivery while three hanging accounts fill the process" });
    assert.ok(hanging.requests.length <= 45);
  } finally {
    await feeder.stop();
    await http.close();
    await database.drop();
  }
});
