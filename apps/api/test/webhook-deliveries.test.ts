import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, test } from "node:test";
import { openPgConnection, type PgConnection } from "@outreach/db/testing";
import type { DeliveryState } from "@outreach/db";
import { waitFor, assertErrorEnvelope as assertError } from "@outreach/testing";
import { request, signUpUnlimited, startTestApi, type TestApi } from "./helpers.js";

// GET /webhooks/:id/deliveries[/:delivery_id] and POST .../redeliver, on
// delivery rows written directly; a redelivery is checked in the row the
// webhook deliverer claims from and in the notification that wakes it.
const ENV = { SIGNUP_LIMIT_PER_HOUR: "1000", RATE_LIMIT_PER_MINUTE: "100000", DOCS_URL: "https://docs.outreach.test" };

let api: TestApi;
/** LISTENs on the channel that wakes the deliverers */
let listener: PgConnection;
let notifications = 0;
let tokenA: string;
let accountA: string;
let tokenB: string;
let accountB: string;

before(async () => {
  api = await startTestApi({ ...ENV, WEBHOOK_ALLOW_PRIVATE_URLS: "true" });
  listener = await openPgConnection(api.database.url);
  listener.on("notification", () => (notifications += 1));
  await listener.query("LISTEN webhook_deliveries");
  ({ token: tokenA, accountId: accountA } = await signUpUnlimited(api, "a@deliveries.test"));
  ({ token: tokenB, accountId: accountB } = await signUpUnlimited(api, "b@deliveries.test"));
});
after(async () => {
  await listener?.end();
  await api?.close();
});

function call(method: string, path: string, options: { body?: unknown; token?: string } = {}) {
  return request(api.baseUrl, method, path, { token: tokenA, ...options });
}

async function createHook(token = tokenA): Promise<string> {
  const res = await call("POST", "/webhooks", { body: { url: "https://hooks.example.com/in" }, token });
  assert.equal(res.status, 201, res.text);
  return res.body.id;
}

interface DeliverySeed {
  state?: DeliveryState;
  attempts?: number;
  maxAttempts?: number;
  createdAt?: Date;
  nextAttemptAt?: Date | null;
  attemptingUntil?: Date | null;
  completedAt?: Date | null;
  lastStatusCode?: number | null;
  lastError?: string | null;
  /** a test ping: no event */
  test?: boolean;
  /** status codes of the attempts made, in order */
  attemptLog?: number[];
}

/** A delivery (of a fresh enrollment.sent event, unless a test ping) as the deliverer leaves it. */
async function seedDelivery(accountId: string, webhookId: string, seed: DeliverySeed = {}) {
  const db = api.database.db;
  const createdAt = seed.createdAt ?? new Date();
  const event = seed.test ? null : await db.event.create({ data: { accountId, type: "enrollment.sent", data: { enrollment_id: randomUUID() }, createdAt, dispatchedAt: createdAt } });
  const delivery = await db.webhookDelivery.create({
    data: {
      accountId,
      webhookId,
      eventId: event?.id ?? null,
      eventType: event?.type ?? "webhook.test",
      state: seed.state ?? "pending",
      attempts: seed.attempts ?? seed.attemptLog?.length ?? 0,
      maxAttempts: seed.maxAttempts ?? 5,
      nextAttemptAt: seed.nextAttemptAt === undefined ? null : seed.nextAttemptAt,
      attemptingUntil: seed.attemptingUntil ?? null,
      completedAt: seed.completedAt ?? null,
      lastStatusCode: seed.lastStatusCode ?? null,
      lastError: seed.lastError ?? null,
      createdAt,
    },
  });
  // written newest first, so the answer's order comes from the number, not from insertion
  const log = (seed.attemptLog ?? []).map((statusCode, index) => ({ number: index + 1, statusCode })).reverse();
  for (const { number, statusCode } of log) {
    await db.webhookAttempt.create({
      data: {
        deliveryId: delivery.id,
        number,
        statusCode,
        error: statusCode >= 300 ? `HTTP ${statusCode}` : null,
        responseExcerpt: `answer ${number}`,
        durationMs: 10 * number,
        createdAt: new Date(createdAt.getTime() + number * 1000),
      },
    });
  }
  return delivery;
}

function deliveryRow(id: string) {
  return api.database.db.webhookDelivery.findUniqueOrThrow({ where: { id } });
}

/** The delivery is pending, due now and held by no one: a deliverer claims it next. */
async function assertDueNow(deliveryId: string) {
  const row = await deliveryRow(deliveryId);
  assert.equal(row.state, "pending");
  assert.ok(row.nextAttemptAt !== null && row.nextAttemptAt.getTime() <= Date.now(), "due now");
  assert.equal(row.attemptingUntil, null);
}

/** The deliverers were woken since `since` notifications. */
async function assertWoken(since: number) {
  await waitFor(() => notifications > since, { timeoutMs: 5_000, what: "a webhook_deliveries notification" });
}

const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000);

test("GET /webhooks/:id/deliveries lists the webhook's deliveries newest first, each with its attempts oldest first", async () => {
  const hook = await createHook();
  const otherHook = await createHook();
  const failed = await seedDelivery(accountA, hook, {
    state: "failed",
    createdAt: minutesAgo(40),
    completedAt: minutesAgo(30),
    lastStatusCode: 500,
    lastError: "HTTP 500",
    attemptLog: [503, 500],
    maxAttempts: 2,
  });
  const succeeded = await seedDelivery(accountA, hook, { state: "succeeded", createdAt: minutesAgo(30), completedAt: minutesAgo(30), lastStatusCode: 204, attemptLog: [204] });
  const pending = await seedDelivery(accountA, hook, { state: "pending", createdAt: minutesAgo(20), nextAttemptAt: minutesAgo(-5), lastStatusCode: 429, attemptLog: [429] });
  const skipped = await seedDelivery(accountA, hook, { state: "skipped", createdAt: minutesAgo(10), completedAt: minutesAgo(10), lastError: "the webhook was disabled" });
  await seedDelivery(accountA, otherHook, { state: "failed", createdAt: minutesAgo(5) });

  const list = await call("GET", `/webhooks/${hook}/deliveries`);
  assert.equal(list.status, 200, list.text);
  assert.deepEqual(
    list.body.map((d: any) => d.id),
    [skipped.id, pending.id, succeeded.id, failed.id],
    "newest first, only this webhook's",
  );
  const shownFailed = list.body[3];
  assert.deepEqual(shownFailed, {
    id: failed.id,
    webhook_id: hook,
    event_id: failed.eventId,
    event_type: "enrollment.sent",
    status: "failed",
    attempts_made: 2,
    max_attempts: 2,
    next_attempt_at: null,
    last_status_code: 500,
    last_error: "HTTP 500",
    created_at: failed.createdAt.toISOString(),
    completed_at: failed.completedAt!.toISOString(),
    attempts: [
      { number: 1, status_code: 503, error: "HTTP 503", response_excerpt: "answer 1", duration_ms: 10, created_at: new Date(failed.createdAt.getTime() + 1000).toISOString() },
      { number: 2, status_code: 500, error: "HTTP 500", response_excerpt: "answer 2", duration_ms: 20, created_at: new Date(failed.createdAt.getTime() + 2000).toISOString() },
    ],
  });
  assert.equal(list.body[1].status, "pending");
  assert.equal(list.body[1].next_attempt_at, pending.nextAttemptAt!.toISOString());
  assert.equal(list.body[0].status, "skipped");
  assert.deepEqual(list.body[0].attempts, []);

  for (const delivery of list.body) {
    const one = await call("GET", `/webhooks/${hook}/deliveries/${delivery.id}`);
    assert.equal(one.status, 200, one.text);
    assert.deepEqual(one.body, delivery);
  }
});

test("deliveries filter by status and take a limit of 1 to 1000, 20 by default", async () => {
  const hook = await createHook();
  const states: DeliveryState[] = ["succeeded", "failed", "pending", "skipped"];
  const seeded = [];
  for (let i = 0; i < 24; i += 1) seeded.push(await seedDelivery(accountA, hook, { state: states[i % 4], createdAt: minutesAgo(100 - i) }));
  const newestFirst = seeded.map((d) => d.id).reverse();

  const all = await call("GET", `/webhooks/${hook}/deliveries`);
  assert.deepEqual(
    all.body.map((d: any) => d.id),
    newestFirst.slice(0, 20),
  );
  const two = await call("GET", `/webhooks/${hook}/deliveries?limit=2`);
  assert.deepEqual(
    two.body.map((d: any) => d.id),
    newestFirst.slice(0, 2),
  );
  const hundred = await call("GET", `/webhooks/${hook}/deliveries?limit=100`);
  assert.equal(hundred.body.length, 24);
  for (const state of states) {
    const filtered = await call("GET", `/webhooks/${hook}/deliveries?status=${state}&limit=100`);
    assert.equal(filtered.status, 200, filtered.text);
    assert.deepEqual(
      filtered.body.map((d: any) => d.id),
      seeded
        .filter((d) => d.state === state)
        .map((d) => d.id)
        .reverse(),
      state,
    );
  }
  const failedTwo = await call("GET", `/webhooks/${hook}/deliveries?status=failed&limit=2`);
  assert.deepEqual(
    failedTwo.body.map((d: any) => d.status),
    ["failed", "failed"],
  );

  const bad: Array<[string, string]> = [
    ["status=done", "status must be one of [pending, succeeded, failed, skipped]"],
    ["status=", "status must be one of [pending, succeeded, failed, skipped]"],
    ["status=failed&status=pending", "status must be one of [pending, succeeded, failed, skipped]"],
    ["limit=0", "limit must be greater than or equal to 1"],
    ["limit=1001", "limit must be less than or equal to 1000"],
    ["limit=ten", "limit must be a number"],
    ["limit=1.5", "limit must be an integer"],
    ["state=failed", "state is not allowed"],
  ];
  for (const [query, message] of bad) assertError(await call("GET", `/webhooks/${hook}/deliveries?${query}`), 422, "validation_failed", message);
});

test("another account's, unknown and malformed webhook ids are 404 webhook_not_found on every delivery route", async () => {
  const foreignHook = await createHook(tokenB);
  const foreignDelivery = await seedDelivery(accountB, foreignHook, { state: "failed", attemptLog: [500] });
  const before = await deliveryRow(foreignDelivery.id);
  for (const id of [foreignHook, randomUUID(), "not-a-uuid"]) {
    assertError(await call("GET", `/webhooks/${id}/deliveries`), 404, "webhook_not_found", "Webhook not found.");
    assertError(await call("GET", `/webhooks/${id}/deliveries/${foreignDelivery.id}`), 404, "webhook_not_found", "Webhook not found.");
    assertError(await call("POST", `/webhooks/${id}/deliveries/${foreignDelivery.id}/redeliver`), 404, "webhook_not_found", "Webhook not found.");
  }
  assert.deepEqual(await deliveryRow(foreignDelivery.id), before);
  const own = await call("GET", `/webhooks/${foreignHook}/deliveries`, { token: tokenB });
  assert.deepEqual(
    own.body.map((d: any) => d.id),
    [foreignDelivery.id],
  );
});

test("unknown, malformed, another webhook's and another account's delivery ids are the same 404 not_found", async () => {
  const hook = await createHook();
  const sibling = await createHook();
  const siblingDelivery = await seedDelivery(accountA, sibling, { state: "failed" });
  const foreignDelivery = await seedDelivery(accountB, await createHook(tokenB), { state: "failed" });
  const ids = [randomUUID(), "not-a-uuid", "123", siblingDelivery.id, foreignDelivery.id];
  for (const id of ids) {
    const shown = await call("GET", `/webhooks/${hook}/deliveries/${id}`);
    assertError(shown, 404, "not_found", "Webhook delivery not found.");
    assert.deepEqual(Object.keys(shown.body).sort(), ["code", "message", "type"]);
    const redelivered = await call("POST", `/webhooks/${hook}/deliveries/${id}/redeliver`);
    assert.deepEqual(redelivered.body, shown.body, `${id}: redeliver answers the same`);
    assert.equal(redelivered.status, 404);
  }
  for (const delivery of [siblingDelivery, foreignDelivery]) {
    assert.equal((await deliveryRow(delivery.id)).state, "failed", "not redelivered");
  }
});

test("redeliver moves a failed delivery back to pending, due now, with a new budget of 5 attempts, and wakes the deliverers", async () => {
  const hook = await createHook();
  const failed = await seedDelivery(accountA, hook, {
    state: "failed",
    createdAt: minutesAgo(60),
    completedAt: minutesAgo(30),
    lastStatusCode: 500,
    lastError: "HTTP 500",
    attemptLog: [500, 500, 502, 503, 500],
  });
  const before = Date.now();
  const woken = notifications;
  const res = await call("POST", `/webhooks/${hook}/deliveries/${failed.id}/redeliver`);
  assert.equal(res.status, 202, res.text);
  assert.equal(res.body.id, failed.id, "the same delivery, so the same envelope id");
  assert.equal(res.body.status, "pending");
  assert.equal(res.body.attempts_made, 5);
  assert.equal(res.body.max_attempts, 10);
  assert.equal(res.body.completed_at, null);
  assert.ok(Date.parse(res.body.next_attempt_at) >= before - 5 && Date.parse(res.body.next_attempt_at) <= Date.now(), "due now");
  assert.equal(res.body.attempts.length, 5, "the attempts so far stay visible");
  assert.equal(res.body.last_status_code, 500);

  const row = await deliveryRow(failed.id);
  assert.equal(row.state, "pending");
  assert.equal(row.maxAttempts, 10);
  assert.equal(row.completedAt, null);
  assert.equal(row.eventId, failed.eventId);
  await assertDueNow(failed.id);
  await assertWoken(woken);

  const shown = await call("GET", `/webhooks/${hook}/deliveries/${failed.id}`);
  assert.deepEqual(shown.body, res.body);

  const again = await call("POST", `/webhooks/${hook}/deliveries/${failed.id}/redeliver`);
  assert.equal(again.status, 202, again.text);
  assert.equal(again.body.max_attempts, 10);
  assert.equal(again.body.attempts_made, 5, "a second redelivery before the attempt ran changes nothing more");
});

test("a succeeded delivery and a test ping can be redelivered too", async () => {
  const hook = await createHook();
  const succeeded = await seedDelivery(accountA, hook, { state: "succeeded", completedAt: minutesAgo(1), lastStatusCode: 200, attemptLog: [200] });
  const ping = await seedDelivery(accountA, hook, { test: true, state: "failed", maxAttempts: 1, completedAt: minutesAgo(1), lastStatusCode: 404, attemptLog: [404] });

  const first = await call("POST", `/webhooks/${hook}/deliveries/${succeeded.id}/redeliver`);
  assert.equal(first.status, 202, first.text);
  assert.equal(first.body.status, "pending");
  assert.equal(first.body.max_attempts, 6);
  await assertDueNow(succeeded.id);

  const second = await call("POST", `/webhooks/${hook}/deliveries/${ping.id}/redeliver`);
  assert.equal(second.status, 202, second.text);
  assert.equal(second.body.event_type, "webhook.test");
  assert.equal(second.body.event_id, null);
  assert.equal(second.body.status, "pending");
  await assertDueNow(ping.id);
});

test("redeliver on a disabled webhook is 422 until it is re-enabled; then the skipped delivery is due again", async () => {
  const hook = await createHook();
  await api.database.db.webhook.update({ where: { id: hook }, data: { disabledAt: minutesAgo(5), consecutiveFailures: 5 } });
  const skipped = await seedDelivery(accountA, hook, { state: "skipped", completedAt: minutesAgo(4), lastError: "the webhook was disabled" });
  const before = await deliveryRow(skipped.id);

  const refused = await call("POST", `/webhooks/${hook}/deliveries/${skipped.id}/redeliver`);
  assertError(refused, 422, "unprocessable", /disabled.*re-enable it first/);
  assert.deepEqual(await deliveryRow(skipped.id), before, "nothing changed");

  const reenabled = await call("PATCH", `/webhooks/${hook}`, { body: { webhook: { disabled_at: null } } });
  assert.equal(reenabled.status, 200, reenabled.text);
  const res = await call("POST", `/webhooks/${hook}/deliveries/${skipped.id}/redeliver`);
  assert.equal(res.status, 202, res.text);
  assert.equal(res.body.status, "pending");
  assert.equal(res.body.attempts_made, 0);
  assert.equal(res.body.max_attempts, 5);
  await assertDueNow(skipped.id);
});

test("redeliver of a delivery waiting for its retry brings the retry forward; one with an attempt under way is left alone", async () => {
  const hook = await createHook();
  const retryAt = minutesAgo(-60);
  const waiting = await seedDelivery(accountA, hook, { state: "pending", nextAttemptAt: retryAt, lastStatusCode: 503, attemptLog: [503, 503] });

  const res = await call("POST", `/webhooks/${hook}/deliveries/${waiting.id}/redeliver`);
  assert.equal(res.status, 202, res.text);
  assert.equal(res.body.status, "pending");
  assert.equal(res.body.max_attempts, 7);
  assert.ok(Date.parse(res.body.next_attempt_at) <= Date.now());
  await assertDueNow(waiting.id);

  const busy = await seedDelivery(accountA, hook, { state: "pending", nextAttemptAt: minutesAgo(1), attemptingUntil: minutesAgo(-1), attemptLog: [500] });
  const shown = await call("GET", `/webhooks/${hook}/deliveries/${busy.id}`);
  const before = await deliveryRow(busy.id);
  const untouched = await call("POST", `/webhooks/${hook}/deliveries/${busy.id}/redeliver`);
  assert.equal(untouched.status, 202, untouched.text);
  assert.deepEqual(untouched.body, shown.body, "answered as it is");
  assert.deepEqual(await deliveryRow(busy.id), before);
});

test("redeliver takes no body fields", async () => {
  const hook = await createHook();
  const failed = await seedDelivery(accountA, hook, { state: "failed", attemptLog: [400] });
  assertError(await call("POST", `/webhooks/${hook}/deliveries/${failed.id}/redeliver`, { body: { attempt: 9 } }), 422, "validation_failed", "attempt is not allowed");
  assert.equal((await deliveryRow(failed.id)).state, "failed");
  const ok = await call("POST", `/webhooks/${hook}/deliveries/${failed.id}/redeliver`, { body: {} });
  assert.equal(ok.status, 202, ok.text);
});

test("delivery routes require an API key", async () => {
  const id = randomUUID();
  for (const [method, path] of [
    ["GET", `/webhooks/${id}/deliveries`],
    ["GET", `/webhooks/${id}/deliveries/${id}`],
    ["POST", `/webhooks/${id}/deliveries/${id}/redeliver`],
    ["POST", `/webhooks/${id}/test`],
    ["GET", "/events"],
  ] as const) {
    assertError(await request(api.baseUrl, method, path), 401, "unauthorized");
  }
});
