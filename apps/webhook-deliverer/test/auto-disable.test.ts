import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createAccount, createWebhook, emitEvent, sentData, startDeliverer, startReceiver, waitFor, waitForOutcome, waitForRelay, type Deliverer, type Receiver } from "./harness.js";

let deliverer: Deliverer;
const receivers: Receiver[] = [];
before(async () => {
  deliverer = await startDeliverer({ WEBHOOK_RETRY_BASE_MS: "20" });
});
after(async () => {
  for (const r of receivers) await r.close();
  await deliverer?.stop();
});

async function setup() {
  const rx = await startReceiver();
  receivers.push(rx);
  const accountId = await createAccount(deliverer.db);
  const { id: webhookId } = await createWebhook(deliverer.db, deliverer.config, accountId, rx.url);
  const webhook = () => deliverer.db.webhook.findUniqueOrThrow({ where: { id: webhookId } });
  /** Emits one event and waits until its delivery has ended. */
  const deliverOne = async () => {
    const eventId = await emitEvent(deliverer.db, accountId, "enrollment.sent", sentData());
    return waitForOutcome(deliverer.db, webhookId, eventId);
  };
  return { rx, accountId, webhookId, webhook, deliverOne };
}

test("5 failed deliveries in a row disable the webhook; later events skip it until it is re-enabled", async () => {
  const { rx, accountId, webhookId, webhook, deliverOne } = await setup();
  rx.fallback = { status: 410 };
  for (let i = 1; i <= 4; i++) {
    assert.equal((await deliverOne()).state, "failed");
    const current = await webhook();
    assert.equal(current.consecutiveFailures, i);
    assert.equal(current.disabledAt, null, `still enabled after ${i} failed deliveries`);
  }
  const before5 = Date.now();
  assert.equal((await deliverOne()).state, "failed");
  const disabled = await webhook();
  assert.equal(disabled.consecutiveFailures, 5);
  assert.ok(disabled.disabledAt, "disabled_at is set after the 5th failed delivery");
  assert.ok(disabled.disabledAt.getTime() >= before5 - 1000);
  assert.equal(rx.requests.length, 5);

  // a disabled webhook: the event is relayed, no delivery is made, nothing is sent
  rx.fallback = { status: 200 };
  const skipped = await emitEvent(deliverer.db, accountId, "enrollment.sent", sentData());
  await waitForRelay(deliverer.db, skipped);
  assert.equal(await deliverer.db.webhookDelivery.count({ where: { eventId: skipped } }), 0);
  assert.equal(await deliverer.db.webhookDelivery.count({ where: { webhookId, state: "pending" } }), 0);
  assert.equal(rx.requests.length, 5);

  // re-enabled as PATCH {webhook:{disabled_at:null}} leaves it
  await deliverer.db.webhook.update({ where: { id: webhookId }, data: { disabledAt: null, consecutiveFailures: 0 } });
  const delivered = await deliverOne();
  assert.equal(delivered.state, "succeeded");
  assert.equal(rx.requests.length, 6);
  assert.equal(rx.requests[5]!.body.id, delivered.id);
  const enabled = await webhook();
  assert.equal(enabled.disabledAt, null);
  assert.equal(enabled.consecutiveFailures, 0);
});

test("a 2xx delivery resets consecutive_failures: 3 failed deliveries then a success -> 0", async () => {
  const { rx, webhook, deliverOne } = await setup();
  rx.fallback = { status: 400 };
  for (let i = 0; i < 3; i++) assert.equal((await deliverOne()).state, "failed");
  assert.equal((await webhook()).consecutiveFailures, 3);
  // a delivery that succeeds after retries also counts as a success
  rx.answers.push({ status: 502 });
  rx.fallback = { status: 204 };
  const delivered = await deliverOne();
  assert.equal(delivered.state, "succeeded");
  assert.equal(delivered.attempts, 2);
  const current = await webhook();
  assert.equal(current.consecutiveFailures, 0);
  assert.equal(current.disabledAt, null);
});

test("a failed delivery counts once however many attempts it took; retried attempts alone never disable", async () => {
  const { rx, webhook, deliverOne } = await setup();
  rx.fallback = { status: 500 };
  const delivery = await deliverOne();
  assert.equal(delivery.state, "failed");
  assert.equal(delivery.attempts, 5);
  const current = await webhook();
  assert.equal(current.consecutiveFailures, 1);
  assert.equal(current.disabledAt, null);
});

test("deliveries of a webhook disabled meanwhile are skipped, not sent", async () => {
  const { rx, webhookId, accountId } = await setup();
  // the first attempt fails; the webhook is disabled before the retry
  rx.answers.push({ status: 503, headers: { "retry-after": "2" } });
  const eventId = await emitEvent(deliverer.db, accountId, "enrollment.sent", sentData());
  await waitFor(() => rx.requests.length === 1, { timeoutMs: 20_000, what: "the first attempt" });
  await waitFor(async () => (await deliverer.db.webhookAttempt.count({ where: { delivery: { webhookId } } })) === 1, { timeoutMs: 20_000, what: "the attempt recorded" });
  await deliverer.db.webhook.update({ where: { id: webhookId }, data: { disabledAt: new Date() } });
  const delivery = await waitForOutcome(deliverer.db, webhookId, eventId);
  assert.equal(delivery.state, "skipped");
  assert.equal(delivery.attempts, 1);
  assert.equal(rx.requests.length, 1);
});
