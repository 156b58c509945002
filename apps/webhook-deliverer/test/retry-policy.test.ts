import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { findFreePort } from "@outreach/testing";
import { createAccount, createWebhook, emitEvent, sentData, startDeliverer, startReceiver, waitFor, waitForOutcome, type Answer, type Deliverer, type Receiver } from "./harness.js";

// retries come fast here (base 50 ms: 50, 200, 450, 800 ms)
let deliverer: Deliverer;
const receivers: Receiver[] = [];
before(async () => {
  deliverer = await startDeliverer({ WEBHOOK_RETRY_BASE_MS: "50" });
});
after(async () => {
  for (const r of receivers) await r.close();
  await deliverer?.stop();
});

/** A webhook on a receiver of its own answering `answers` in order, then `fallback`; one event emitted to it. */
async function deliverTo(answers: Answer[], fallback: Answer = { status: 200 }, via = deliverer) {
  const rx = await startReceiver();
  receivers.push(rx);
  rx.answers.push(...answers);
  rx.fallback = fallback;
  const accountId = await createAccount(via.db);
  const { id: webhookId } = await createWebhook(via.db, via.config, accountId, rx.url);
  const eventId = await emitEvent(via.db, accountId, "enrollment.sent", sentData());
  return { rx, webhookId, eventId, outcome: () => waitForOutcome(via.db, webhookId, eventId) };
}

/** No further attempt is queued or due: the delivery is over. */
async function assertNoFurtherAttempt(delivery: { id: string; attempts: number; nextAttemptAt: Date | null }) {
  assert.equal(delivery.nextAttemptAt, null);
}

test("500, 500, 200: three attempts of one delivery with one id, then succeeded; each attempt recorded", async () => {
  const { rx, outcome } = await deliverTo([{ status: 500 }, { status: 500, body: "x".repeat(5000) }]);
  const delivery = await outcome();
  assert.equal(delivery.state, "succeeded");
  assert.equal(delivery.attempts, 3);
  assert.equal(delivery.lastStatusCode, 200);
  assert.equal(rx.requests.length, 3);
  assert.deepEqual(
    rx.requests.map((r) => r.body.id),
    [delivery.id, delivery.id, delivery.id],
  );
  // every attempt sends the same envelope
  assert.equal(new Set(rx.requests.map((r) => r.raw.toString("utf8"))).size, 1);
  assert.deepEqual(
    delivery.attemptLog.map((a) => [a.number, a.statusCode]),
    [
      [1, 500],
      [2, 500],
      [3, 200],
    ],
  );
  for (const attempt of delivery.attemptLog) assert.ok(Number.isInteger(attempt.durationMs) && attempt.durationMs >= 0 && attempt.durationMs < 10_000, `duration ${attempt.durationMs}`);
  assert.equal(delivery.attemptLog[1]!.responseExcerpt!.length, 1024, "the answer's body is kept up to 1 KiB");
  await assertNoFurtherAttempt(delivery);
});

test("404: one attempt, failed at once, not retried", async () => {
  const { rx, outcome } = await deliverTo([], { status: 404 });
  const delivery = await outcome();
  assert.equal(delivery.state, "failed");
  assert.equal(delivery.attempts, 1);
  assert.deepEqual(
    delivery.attemptLog.map((a) => a.statusCode),
    [404],
  );
  assert.equal(rx.requests.length, 1);
  await assertNoFurtherAttempt(delivery);
});

for (const status of [408, 429, 503]) {
  test(`${status} is retried`, async () => {
    const { rx, outcome } = await deliverTo([{ status }]);
    const delivery = await outcome();
    assert.equal(delivery.state, "succeeded");
    assert.deepEqual(
      delivery.attemptLog.map((a) => a.statusCode),
      [status, 200],
    );
    assert.equal(rx.requests.length, 2);
  });
}

test("429 with Retry-After: 1 waits at least a second before the next attempt, though the backoff base is 50 ms", async () => {
  const { rx, outcome } = await deliverTo([{ status: 429, headers: { "retry-after": "1" } }]);
  const delivery = await outcome();
  assert.equal(delivery.state, "succeeded");
  assert.equal(rx.requests.length, 2);
  const gap = rx.requests[1]!.at - rx.requests[0]!.at;
  console.log(`# Retry-After: 1 -> next attempt after ${gap} ms`);
  assert.ok(gap >= 950, `the second attempt came ${gap} ms after the first`);
  assert.ok(delivery.attemptLog[1]!.createdAt.getTime() - delivery.attemptLog[0]!.createdAt.getTime() >= 950);
});

test("a connection refused is retried, and delivered once the receiver listens", async () => {
  const port = await findFreePort();
  const accountId = await createAccount(deliverer.db);
  const { id: webhookId } = await createWebhook(deliverer.db, deliverer.config, accountId, `http://127.0.0.1:${port}/hook`);
  const eventId = await emitEvent(deliverer.db, accountId, "enrollment.sent", sentData());
  await waitFor(async () => (await deliverer.db.webhookAttempt.count({ where: { delivery: { webhookId } } })) >= 2, { timeoutMs: 20_000, what: "two refused attempts" });
  const rx = await startReceiver("/hook", port);
  receivers.push(rx);
  const delivery = await waitForOutcome(deliverer.db, webhookId, eventId);
  assert.equal(delivery.state, "succeeded");
  assert.ok(delivery.attempts >= 3 && delivery.attempts <= 5, `attempts ${delivery.attempts}`);
  const failed = delivery.attemptLog.slice(0, -1);
  for (const attempt of failed) {
    assert.equal(attempt.statusCode, null);
    assert.match(attempt.error!, /ECONNREFUSED/);
  }
  assert.equal(rx.requests.length, 1);
  assert.equal(rx.requests[0]!.body.id, delivery.id);
});

test("a connection closed without an answer is retried", async () => {
  const { rx, outcome } = await deliverTo(["drop"]);
  const delivery = await outcome();
  assert.equal(delivery.state, "succeeded");
  assert.equal(delivery.attempts, 2);
  assert.equal(delivery.attemptLog[0]!.statusCode, null);
  assert.ok(delivery.attemptLog[0]!.error);
  assert.equal(rx.requests.length, 2);
});

test("a receiver that never answers times out and is retried", async () => {
  // a deliverer of its own that gives up on a silent receiver after 1 s
  const TIMEOUT_MS = 1000;
  const impatient = await startDeliverer({ WEBHOOK_RETRY_BASE_MS: "50", WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS) });
  try {
    const { rx, outcome } = await deliverTo(["hang"], { status: 200 }, impatient);
    const delivery = await outcome();
    assert.equal(delivery.state, "succeeded");
    assert.equal(delivery.attempts, 2);
    const [first] = delivery.attemptLog;
    assert.equal(first!.statusCode, null);
    assert.match(first!.error!, /timed out/);
    assert.ok(first!.durationMs >= TIMEOUT_MS - 50 && first!.durationMs < TIMEOUT_MS + 5_000, `the hung attempt took ${first!.durationMs} ms`);
    assert.equal(rx.requests.length, 2);
  } finally {
    await impatient.stop();
  }
});

test("5 retryable failures: failed after exactly 5 attempts", async () => {
  const { rx, webhookId, outcome } = await deliverTo([], { status: 503 });
  const delivery = await outcome();
  assert.equal(delivery.state, "failed");
  assert.equal(delivery.attempts, 5);
  assert.deepEqual(
    delivery.attemptLog.map((a) => [a.number, a.statusCode]),
    [1, 2, 3, 4, 5].map((n) => [n, 503]),
  );
  assert.equal(rx.requests.length, 5);
  await assertNoFurtherAttempt(delivery);
  // backoff grows polynomially: base x n^2 after the n-th failure (50, 200, 450, 800 ms)
  const gaps = rx.requests.slice(1).map((r, i) => r.at - rx.requests[i]!.at);
  console.log(`# gaps between the 5 attempts: ${gaps.join(", ")} ms`);
  gaps.forEach((gap, i) => assert.ok(gap >= 50 * (i + 1) ** 2 - 20, `gap ${i + 1} was ${gap} ms`));
  // one failed delivery counts once against the webhook
  assert.equal((await deliverer.db.webhook.findUniqueOrThrow({ where: { id: webhookId } })).consecutiveFailures, 1);
});
