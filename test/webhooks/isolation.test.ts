import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { test } from "node:test";
import { uniqueQueuePrefix, waitFor } from "@outreach/testing";
import { createAccount, createWebhook, emitEvent, sentData, type Deliverer } from "../kit/webhook-deliverer.js";
import type { RecordingReceiver } from "./recording-receiver.js";
import { emitEvents, emitManyEvents, webhookFixtures } from "./helpers.js";

// Tenant isolation of outbound webhooks under heavier faults than one dead
// receiver (see faults.test.ts): dead receivers sharing a host with a live
// one, and several dead receivers at once.
// An account whose receiver never answers must not delay another account's
// deliveries beyond a second.
const fixtures = webhookFixtures();
// long enough that no hanging request times out (freeing what it holds) before the probe has been measured
const HANG_TIMEOUT_MS = "30000";

test("receivers that never answer for two accounts do not hold up a third account's receiver on the same host", async (t) => {
  const HANGING_ACCOUNTS = 2;
  const EVENTS_EACH = 10;
  const database = await fixtures.testDatabase();
  const db = database.db;
  const replica = await fixtures.delivererInProcess({ QUEUE_PREFIX: uniqueQueuePrefix(), WEBHOOK_TIMEOUT_MS: HANG_TIMEOUT_MS }, database);
  // one host for all three accounts (as when tenants use the same integration platform): B's event is answered, the rest hang
  const probe = randomUUID();
  const host = await fixtures.receiver((_id, _previous, data) => (data.campaign_id === probe ? 200 : "hang"));
  const hanging: string[] = [];
  for (let i = 0; i < HANGING_ACCOUNTS; i++) {
    const accountId = await createAccount(db);
    await createWebhook(db, replica.config, accountId, `${host.url}/account-${i}`);
    hanging.push(accountId);
  }
  const accountB = await createAccount(db);
  await createWebhook(db, replica.config, accountB, `${host.url}/b`);

  for (const accountId of hanging) await emitManyEvents(db, accountId, EVENTS_EACH);
  // each hanging account holds its 10 slots: 20 requests to the host are under way or waiting for a connection
  await waitFor(async () => (await db.webhookDelivery.count({ where: { attemptingUntil: { not: null } } })) >= HANGING_ACCOUNTS * EVENTS_EACH, {
    timeoutMs: 30_000,
    what: "every hanging account's deliveries under way",
  });
  const emittedAt = Date.now();
  await emitEvent(db, accountB, "enrollment.sent", sentData(probe));
  const arrival = await waitFor(() => host.arrivals.find((a) => a.data.campaign_id === probe), { timeoutMs: 60_000, intervalMs: 10, what: "B's event" }).catch(async (err: Error) => {
    const attempts = await db.webhookAttempt.findMany({ where: { delivery: { accountId: accountB } }, orderBy: { number: "asc" } });
    throw new Error(`${err.message}; B's attempts meanwhile: ${JSON.stringify(attempts.map((a) => [a.number, a.statusCode, a.error]))}`);
  });
  const latencyMs = arrival.at - emittedAt;
  t.diagnostic(`B's event reached the shared host ${latencyMs} ms after it was written (${host.maxOpen} requests open there at most)`);
  assert.ok(latencyMs < 1_000, `B's event took ${latencyMs} ms behind the other accounts' hanging requests to the same host`);
});

test("receivers that never answer for five accounts do not hold up a sixth account's deliveries", async (t) => {
  const HANGING_ACCOUNTS = 5;
  const EVENTS_EACH = 10;
  const database = await fixtures.testDatabase();
  const db = database.db;
  const replica = await fixtures.delivererInProcess({ QUEUE_PREFIX: uniqueQueuePrefix(), WEBHOOK_TIMEOUT_MS: HANG_TIMEOUT_MS }, database);
  // five tenants whose endpoints are down without refusing connections, each on a host of its own
  const hosts: RecordingReceiver[] = [];
  for (let i = 0; i < HANGING_ACCOUNTS; i++) {
    const host = await fixtures.receiver(() => "hang");
    const accountId = await createAccount(db);
    await createWebhook(db, replica.config, accountId, host.url);
    await emitManyEvents(db, accountId, EVENTS_EACH);
    hosts.push(host);
  }
  const answers = await fixtures.receiver();
  const accountB = await createAccount(db);
  await createWebhook(db, replica.config, accountB, answers.url);
  const openAtHosts = () => hosts.reduce((sum, host) => sum + host.open, 0);
  await waitFor(() => openAtHosts() >= HANGING_ACCOUNTS * EVENTS_EACH, { timeoutMs: 30_000, what: "every hanging account's requests open" });

  const emittedAt = Date.now();
  const [probe] = await emitEvents(db, accountB, 1);
  const arrival = await waitFor(() => answers.arrivals.find((a) => a.data.campaign_id === probe), { timeoutMs: 60_000, intervalMs: 10, what: "B's event" });
  const latencyMs = arrival.at - emittedAt;
  t.diagnostic(`B's event reached its receiver ${latencyMs} ms after it was written (${openAtHosts()} requests open at the hanging hosts)`);
  assert.ok(
    hosts.every((host) => host.maxOpen <= 10),
    "each hanging account had at most 10 requests open",
  );
  assert.ok(latencyMs < 1_000, `B's event took ${latencyMs} ms behind ${HANGING_ACCOUNTS} accounts' hanging requests`);
});

test("a backlog of 5,000 deliveries behind account A's dead receiver does not hold up account B's", async (t) => {
  const BACKLOG = 5_000;
  const database = await fixtures.testDatabase();
  const db = database.db;
  const env = { QUEUE_PREFIX: uniqueQueuePrefix(), WEBHOOK_TIMEOUT_MS: HANG_TIMEOUT_MS };
  // two replicas: A's backlog is pending while both go on with everyone else's
  const replicas: Deliverer[] = [await fixtures.delivererInProcess(env, database), await fixtures.delivererInProcess(env, database)];
  const hangs = await fixtures.receiver(() => "hang");
  const answers = await fixtures.receiver();
  const accountA = await createAccount(db);
  const accountB = await createAccount(db);
  await createWebhook(db, replicas[0]!.config, accountA, hangs.url);
  await createWebhook(db, replicas[0]!.config, accountB, answers.url);

  await emitManyEvents(db, accountA, BACKLOG);
  await waitFor(async () => hangs.open >= 10 && (await db.webhookDelivery.count({ where: { accountId: accountA } })) === BACKLOG, {
    timeoutMs: 60_000,
    what: "A's backlog fanned out and 10 of its requests hanging",
  });
  const latencies: number[] = [];
  for (let i = 0; i < 3; i++) {
    const emittedAt = Date.now();
    const [probe] = await emitEvents(db, accountB, 1);
    const arrival = await waitFor(() => answers.arrivals.find((a) => a.data.campaign_id === probe), { timeoutMs: 60_000, intervalMs: 10, what: `B's event ${i + 1}` });
    latencies.push(arrival.at - emittedAt);
  }
  t.diagnostic(`B's events reached their receiver ${latencies.join(", ")} ms after they were written (A: ${BACKLOG} pending, ${hangs.open} requests open)`);
  assert.ok(hangs.maxOpen <= 10, `A had ${hangs.maxOpen} requests open at once`);
  assert.ok(Math.max(...latencies) < 1_000, `B's events took ${latencies.join(", ")} ms behind A's backlog`);
});
