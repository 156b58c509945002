import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createAccount, createWebhook, emitEvent, sentData, startDeliverer, startReceiver, waitFor, type Deliverer, type Receiver } from "./harness.js";

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
  const accountA = await createAccount(deliverer.db);
  const accountB = await createAccount(deliverer.db);
  await createWebhook(deliverer.db, deliverer.config, accountA, rxA.url);
  await createWebhook(deliverer.db, deliverer.config, accountB, rxB.url);

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
  await deliverer.db.$executeRaw`
    INSERT INTO events (id, "accountId", type, data, "createdAt")
    SELECT gen_random_uuid(), ${accountId}::uuid, 'enrollment.sent', ${JSON.stringify(sentData())}::jsonb, clock_timestamp()
    FROM generate_series(1, ${backlog}::int)`;
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
