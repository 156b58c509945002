import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { test } from "node:test";
import { loadConfig } from "@outreach/core";
import { startTcpProxy, uniqueQueuePrefix, waitFor, type TcpProxy } from "@outreach/testing";
import { createAccount, createWebhook, emitEvent, sentData, type Deliverer } from "../kit/webhook-deliverer.js";
import { deliveryStates, delivererEnv, emitEvents, idsPerEvent, webhookFixtures } from "./helpers.js";

// Faults around outbound webhooks: the deliverer killed mid-retry, Redis away
// while events are written, and a receiver that never answers. Deliveries are
// rows in PostgreSQL; these tests check that none is lost, doubled or renamed,
// and that one account's dead receiver stays its own problem.
const fixtures = webhookFixtures();

test("the deliverer killed with SIGKILL mid-retry and started again: every delivery succeeds, once per event, under one id", async (t) => {
  const EVENTS = 8;
  const FAILURES = 3;
  const database = await fixtures.testDatabase();
  const db = database.db;
  const campaigns: string[] = Array.from({ length: EVENTS }, () => randomUUID());
  // half the events have their second attempt in flight at the kill (answered only after 4 s)
  const slowSecond = new Set(campaigns.slice(0, EVENTS / 2));
  // every delivery is answered 500 three times, then 200
  const hook = await fixtures.receiver((_id, previous, data) => {
    if (previous >= FAILURES) return 200;
    return previous === 1 && slowSecond.has(String(data.campaign_id)) ? { status: 500, delayMs: 4_000 } : 500;
  });
  const env = delivererEnv(database, { WEBHOOK_RETRY_BASE_MS: "300", WEBHOOK_TIMEOUT_MS: "5000" });
  const config = loadConfig("webhook-deliverer", { ...process.env, ...env });
  const accountId = await createAccount(db);
  await createWebhook(db, config, accountId, hook.url);

  const victim = await fixtures.delivererProcess(env);
  for (const campaignId of campaigns) await emitEvent(db, accountId, "enrollment.sent", sentData(campaignId));
  const requestsOf = (campaignId: string) => hook.arrivals.filter((a) => a.data.campaign_id === campaignId).length;
  // the first 500s are in, and the slow second attempts are under way; the others' next attempts wait in the queue
  await waitFor(() => campaigns.every((c) => requestsOf(c) >= (slowSecond.has(c) ? 2 : 1)), { timeoutMs: 30_000, intervalMs: 20, what: "the attempts before the kill" });
  const openAtKill = hook.open;
  assert.equal(await victim.stop("SIGKILL"), "SIGKILL");
  const arrivalsAtKill = hook.arrivals.length;
  const pendingAtKill = await db.webhookDelivery.count({ where: { state: "pending" } });
  t.diagnostic(`killed with ${pendingAtKill} deliveries pending, ${openAtKill} requests in flight, after ${arrivalsAtKill} requests`);
  assert.ok(pendingAtKill > 0, "deliveries were still being retried when the process was killed");

  const restartedAt = Date.now();
  const successor = await fixtures.delivererProcess(env);
  await waitFor(async () => (await db.webhookDelivery.count({ where: { state: "pending" } })) === 0, { timeoutMs: 150_000, intervalMs: 250, what: "every delivery to end" }).catch(
    async (err: Error) => {
      throw new Error(`${err.message}; states ${JSON.stringify(await deliveryStates(db))}; ${hook.arrivals.length} requests\n${successor.output()}`);
    },
  );
  t.diagnostic(`every delivery ended ${Date.now() - restartedAt} ms after the restart`);
  assert.deepEqual(await deliveryStates(db), { succeeded: EVENTS });
  assert.ok(hook.arrivals.length > arrivalsAtKill, "the new process carried on");

  const deliveries = await db.webhookDelivery.findMany({ include: { event: true, attemptLog: { orderBy: { number: "asc" } } } });
  assert.equal(deliveries.length, EVENTS, "one delivery row per event, none doubled");
  assert.equal(new Set(deliveries.map((d) => d.eventId)).size, EVENTS);
  const deliveryOf = new Map(deliveries.map((d) => [String((d.event!.data as { campaign_id: string }).campaign_id), d]));

  const seen = idsPerEvent(hook);
  for (const campaignId of campaigns) {
    const delivery = deliveryOf.get(campaignId);
    assert.ok(delivery, `event ${campaignId} has a delivery`);
    assert.deepEqual([...(seen.get(campaignId) ?? [])], [delivery.id], `every attempt of event ${campaignId} carried its delivery's id`);
    // the receiver answers 200 only from the 4th request of an id on, so the id never changed across attempts
    const requests = hook.arrivals.filter((a) => a.id === delivery.id);
    assert.ok(requests.length >= FAILURES + 1, `event ${campaignId}: ${requests.length} requests`);
    assert.equal(requests.at(-1)!.answer, 200);
    assert.equal(delivery.state, "succeeded");
    assert.deepEqual(
      delivery.attemptLog.map((a) => a.number),
      Array.from({ length: delivery.attempts }, (_, i) => i + 1),
      "attempts are numbered 1..n with none recorded twice",
    );
    assert.equal(delivery.attemptLog.at(-1)!.statusCode, 200);
  }
});

test("Redis away while events are written: the deliverer relays and delivers them from PostgreSQL alone (/readyz says Redis is away)", async (t) => {
  const EVENTS = 20;
  const database = await fixtures.testDatabase();
  const db = database.db;
  const redis = new URL(process.env.REDIS_URL ?? "redis://127.0.0.1:6379");
  const proxy: TcpProxy = await startTcpProxy(redis.hostname, Number(redis.port || 6379));
  fixtures.onCleanup(() => proxy.close());
  const hook = await fixtures.receiver();
  const env = delivererEnv(database, { REDIS_URL: proxy.url("redis") });
  const config = loadConfig("webhook-deliverer", { ...process.env, ...env });
  const accountId = await createAccount(db);
  await createWebhook(db, config, accountId, hook.url);
  const app = await fixtures.delivererProcess(env);
  const readiness = async () => (await fetch(`${app.baseUrl}/readyz`, { signal: AbortSignal.timeout(5_000) })).status;

  const [warmUp] = await emitEvents(db, accountId, 1);
  await waitFor(() => hook.arrivals.some((a) => a.data.campaign_id === warmUp), { timeoutMs: 30_000, what: "an event delivered through the proxy" });

  proxy.cut();
  await waitFor(async () => (await readiness()) === 503, { timeoutMs: 15_000, what: "the deliverer to see Redis gone" });
  const cutAt = Date.now();
  const campaigns = await emitEvents(db, accountId, EVENTS);
  await waitFor(() => campaigns.every((c) => hook.arrivals.some((a) => a.data.campaign_id === c)), {
    timeoutMs: 60_000,
    intervalMs: 100,
    what: "every event written during the outage to arrive",
  }).catch(async (err: Error) => {
    throw new Error(`${err.message}; ${hook.arrivals.length - 1} of ${EVENTS} arrived; states ${JSON.stringify(await deliveryStates(db))}\n${app.output()}`);
  });
  t.diagnostic(`the events written while Redis was away arrived within ${Math.max(...hook.arrivals.map((a) => a.at)) - cutAt} ms`);
  assert.equal(await readiness(), 503, "still not ready: Redis is away");

  proxy.resume();
  await waitFor(async () => (await readiness()) === 200, { timeoutMs: 30_000, what: "the deliverer ready again" });
  await waitFor(async () => (await db.webhookDelivery.count({ where: { state: "pending" } })) === 0, { timeoutMs: 30_000, what: "every delivery recorded" });
  assert.deepEqual(await deliveryStates(db), { succeeded: EVENTS + 1 });
  const seen = idsPerEvent(hook);
  const deliveries = await db.webhookDelivery.findMany({ include: { event: true } });
  for (const delivery of deliveries) {
    const campaignId = String((delivery.event!.data as { campaign_id: string }).campaign_id);
    assert.deepEqual([...(seen.get(campaignId) ?? [])], [delivery.id], `event ${campaignId} arrived under its delivery's id only`);
  }
});

test("a receiver that never answers for account A holds at most 10 of A's requests open and does not hold up account B", async (t) => {
  const A_EVENTS = 50;
  const database = await fixtures.testDatabase();
  const db = database.db;
  const env = { QUEUE_PREFIX: uniqueQueuePrefix(), WEBHOOK_TIMEOUT_MS: "10000" };
  // two replicas sharing the database and the queues: the per-account limit is for all of them together
  const replicas: Deliverer[] = [await fixtures.delivererInProcess(env, database), await fixtures.delivererInProcess(env, database)];
  const config = replicas[0]!.config;
  const hangs = await fixtures.receiver(() => "hang");
  const answers = await fixtures.receiver();
  const accountA = await createAccount(db);
  const accountB = await createAccount(db);
  await createWebhook(db, config, accountA, hangs.url);
  await createWebhook(db, config, accountB, answers.url);

  await emitEvents(db, accountA, A_EVENTS);
  await waitFor(() => hangs.open >= 10, { timeoutMs: 30_000, what: "10 of A's requests in flight" });
  // A's other 40 deliveries wait for A's slots while B's event goes through
  const emittedAt = Date.now();
  const [probe] = await emitEvents(db, accountB, 1);
  const arrival = await waitFor(() => answers.arrivals.find((a) => a.data.campaign_id === probe), { timeoutMs: 30_000, intervalMs: 10, what: "B's event" });
  const latencyMs = arrival.at - emittedAt;
  t.diagnostic(`B's event reached its receiver ${latencyMs} ms after it was written (A: ${hangs.open} requests open, at most ${hangs.maxOpen})`);
  assert.ok(latencyMs < 1_000, `B's event took ${latencyMs} ms`);

  // A's slots stay taken until its requests time out: the other 40 wait, on both replicas
  assert.ok(hangs.maxOpen <= 10, `A had ${hangs.maxOpen} requests open at once`);
  assert.ok(hangs.arrivals.length <= 10, `${hangs.arrivals.length} of A's deliveries were attempted while its first 10 hung`);
});
