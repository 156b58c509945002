import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import Stripe from "stripe";
import { Keyring } from "@outreach/core";
import { liftQuotas, request, startTestApi, type JsonResponse, type TestApi } from "./helpers.js";
import { startReceiver, type Receiver, type ReceivedRequest } from "./webhook-receiver.js";
import { sealedWebhookSecret, startWebhookReceiver } from "@outreach/testing";

// POST /webhooks/:id/test sends a signed webhook.test event to a real receiver
// on loopback and answers with the attempt's outcome; receivers verify it
// with an off-the-shelf verifier of the same scheme (stripe-node's).
const ENV = { SIGNUP_LIMIT_PER_HOUR: "1000", RATE_LIMIT_PER_MINUTE: "100000", DOCS_URL: "https://docs.outreach.test", WEBHOOK_TIMEOUT_MS: "5000" };
const DELIVERY_KEYS = [
  "attempts",
  "attempts_made",
  "completed_at",
  "created_at",
  "event_id",
  "event_type",
  "id",
  "last_error",
  "last_status_code",
  "max_attempts",
  "next_attempt_at",
  "status",
  "webhook_id",
];

const stripe = new Stripe("sk_test_verifier_only");
let api: TestApi;
let receiver: Receiver;
let token: string;
let accountId: string;

before(async () => {
  api = await startTestApi({ ...ENV, WEBHOOK_ALLOW_PRIVATE_URLS: "true" });
  receiver = await startReceiver();
  const res = await request(api.baseUrl, "POST", "/signup", { body: { email: "ping@webhooks.test" } });
  assert.equal(res.status, 201, res.text);
  token = res.body.api_key.plaintext;
  accountId = res.body.account_id;
  // this file creates more than a free account may hold (see account-quotas.test.ts for the quotas)
  await liftQuotas(api, accountId);
});
after(async () => {
  await receiver?.close();
  await api?.close();
});

function call(method: string, path: string, options: { body?: unknown; rawBody?: string; headers?: Record<string, string> } = {}) {
  return request(api.baseUrl, method, path, { token, ...options });
}

async function createHook(url = receiver.url): Promise<{ id: string; secret: string }> {
  const res = await call("POST", "/webhooks", { body: { webhook: { url } } });
  assert.equal(res.status, 201, res.text);
  return { id: res.body.id, secret: res.body.secret };
}

/** Sends a test ping and returns the answer and the one request the receiver got for it. */
async function ping(webhookId: string, body?: unknown): Promise<{ res: JsonResponse; received: ReceivedRequest }> {
  const seen = receiver.requests.length;
  const res = await call("POST", `/webhooks/${webhookId}/test`, { body });
  assert.equal(res.status, 200, res.text);
  assert.equal(receiver.requests.length, seen + 1, "the receiver got exactly one request");
  return { res, received: receiver.requests[seen]! };
}

function signatureParts(received: ReceivedRequest): { t: string; v1: string[] } {
  const header = received.headers["x-service-signature"];
  assert.equal(typeof header, "string");
  assert.match(header as string, /^t=\d+(,v1=[0-9a-f]{64})+$/);
  const pairs = (header as string).split(",").map((part) => part.split("=") as [string, string]);
  return { t: pairs[0]![1], v1: pairs.slice(1).map(([, value]) => value) };
}

/** stripe-node's verifier, given one t and one v1. */
function verifies(received: ReceivedRequest, t: string, v1: string, secret: string): boolean {
  try {
    stripe.webhooks.constructEvent(received.raw, `t=${t},v1=${v1}`, secret);
    return true;
  } catch {
    return false;
  }
}

async function webhookRow(id: string) {
  return api.database.db.webhook.findUniqueOrThrow({ where: { id } });
}

test("a test ping is one signed webhook.test POST that a standard verifier accepts, answered with its outcome", async () => {
  const hook = await createHook();
  const { res, received } = await ping(hook.id);

  assert.equal(received.method, "POST");
  assert.equal(received.url, "/hook");
  assert.equal(received.headers["content-type"], "application/json");
  assert.equal(received.headers["user-agent"], "service-webhooks/1.0");
  const header = received.headers["x-service-signature"] as string;
  const { t, v1 } = signatureParts(received);
  assert.equal(v1.length, 1, "one signature: the secret was never rotated");
  assert.ok(Math.abs(Number(t) - Date.now() / 1000) < 60, "t is the current unix time in seconds");

  const event = stripe.webhooks.constructEvent(received.raw, header, hook.secret) as unknown as Record<string, any>;
  assert.throws(() => stripe.webhooks.constructEvent(received.raw, header, "whsec_not_the_secret"), /signature/i);
  assert.throws(() => stripe.webhooks.constructEvent(Buffer.concat([received.raw, Buffer.from(" ")]), header, hook.secret), /signature/i);

  assert.deepEqual(Object.keys(event).sort(), ["account_id", "created_at", "data", "id", "type"]);
  assert.equal(event.type, "webhook.test");
  assert.equal(event.account_id, accountId);
  assert.match(event.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  assert.equal(event.data.webhook_id, hook.id);

  assert.deepEqual(Object.keys(res.body).sort(), ["delivery", "duration_ms", "error", "status_code", "success"]);
  assert.equal(res.body.success, true);
  assert.equal(res.body.status_code, 200);
  assert.equal(res.body.error, null);
  assert.equal(typeof res.body.duration_ms, "number");
  const delivery = res.body.delivery;
  assert.deepEqual(Object.keys(delivery).sort(), DELIVERY_KEYS);
  assert.equal(delivery.id, event.id, "the envelope's id is the delivery's id");
  assert.equal(delivery.webhook_id, hook.id);
  assert.equal(delivery.event_id, null);
  assert.equal(delivery.event_type, "webhook.test");
  assert.equal(delivery.status, "succeeded");
  assert.equal(delivery.attempts_made, 1);
  assert.equal(delivery.max_attempts, 1);
  assert.equal(delivery.next_attempt_at, null);
  assert.equal(delivery.last_status_code, 200);
  assert.equal(delivery.last_error, null);
  assert.ok(delivery.completed_at);
  assert.equal(delivery.attempts.length, 1);
  assert.deepEqual(Object.keys(delivery.attempts[0]).sort(), ["created_at", "duration_ms", "error", "number", "response_excerpt", "status_code"]);
  assert.equal(delivery.attempts[0].number, 1);
  assert.equal(delivery.attempts[0].status_code, 200);
  assert.equal(delivery.attempts[0].response_excerpt, "ok");
  assert.equal(delivery.attempts[0].error, null);

  const shown = await call("GET", `/webhooks/${hook.id}/deliveries/${delivery.id}`);
  assert.equal(shown.status, 200, shown.text);
  assert.deepEqual(shown.body, delivery, "the delivery is recorded as answered");
});

test("a test ping accepts an empty JSON body and refuses fields", async () => {
  const hook = await createHook();
  const { res } = await ping(hook.id, {});
  assert.equal(res.body.success, true);
  const seen = receiver.requests.length;
  const bad = await call("POST", `/webhooks/${hook.id}/test`, { body: { event: "enrollment.sent" } });
  assert.equal(bad.status, 422, bad.text);
  assert.equal(bad.body.code, "validation_failed");
  assert.equal(bad.body.message, "event is not allowed");
  assert.equal(receiver.requests.length, seen, "nothing was sent");
});

test("a failing test ping is reported and never changes consecutive_failures or disabled_at", async () => {
  const hook = await createHook();
  await api.database.db.webhook.update({ where: { id: hook.id }, data: { consecutiveFailures: 3 } });
  const before = await webhookRow(hook.id);

  receiver.answers.push({ status: 500, body: "receiver exploded" });
  const { res } = await ping(hook.id);
  assert.equal(res.body.success, false);
  assert.equal(res.body.status_code, 500);
  assert.equal(res.body.error, "HTTP 500");
  assert.equal(res.body.delivery.status, "failed", "a test ping has one attempt: no retry");
  assert.equal(res.body.delivery.next_attempt_at, null);
  assert.equal(res.body.delivery.last_status_code, 500);
  assert.equal(res.body.delivery.attempts[0].response_excerpt, "receiver exploded");
  assert.deepEqual(await webhookRow(hook.id), before, "the webhook's counters are untouched by a failed ping");

  const ok = await ping(hook.id);
  assert.equal(ok.res.body.success, true);
  assert.equal((await webhookRow(hook.id)).consecutiveFailures, 3, "nor by a successful one");
});

test("a test ping goes out to a disabled webhook, which stays disabled", async () => {
  const hook = await createHook();
  const disabledAt = new Date(Date.now() - 60_000);
  await api.database.db.webhook.update({ where: { id: hook.id }, data: { disabledAt, consecutiveFailures: 5 } });
  const { res } = await ping(hook.id);
  assert.equal(res.body.success, true);
  const row = await webhookRow(hook.id);
  assert.equal(row.disabledAt?.toISOString(), disabledAt.toISOString());
  assert.equal(row.consecutiveFailures, 5);
});

test("a redirect is reported as a failure and not followed", async () => {
  const target = await startReceiver("/elsewhere");
  try {
    const hook = await createHook();
    receiver.answers.push({ status: 302, headers: { location: target.url } });
    const { res } = await ping(hook.id);
    assert.equal(res.body.success, false);
    assert.equal(res.body.status_code, 302);
    assert.match(res.body.error, /redirect/);
    assert.equal(res.body.delivery.status, "failed");
    assert.equal(target.requests.length, 0, "the redirect target got nothing");
  } finally {
    await target.close();
  }
});

test("after rotate_secret a ping is signed with the new secret and the old one; after the grace with the new one only", async () => {
  const hook = await createHook();
  const rotated = await call("POST", `/webhooks/${hook.id}/rotate_secret`);
  assert.equal(rotated.status, 200, rotated.text);
  const newSecret: string = rotated.body.secret;

  const during = await ping(hook.id);
  const signed = signatureParts(during.received);
  assert.equal(signed.v1.length, 2, "two v1 values during the grace");
  assert.ok(verifies(during.received, signed.t, signed.v1[0]!, newSecret), "the first v1 is the new secret's");
  assert.ok(verifies(during.received, signed.t, signed.v1[1]!, hook.secret), "the second v1 is the old secret's");
  assert.ok(!verifies(during.received, signed.t, signed.v1[0]!, hook.secret));
  const header = during.received.headers["x-service-signature"] as string;
  for (const secret of [newSecret, hook.secret]) stripe.webhooks.constructEvent(during.received.raw, header, secret);

  await api.database.db.webhook.update({ where: { id: hook.id }, data: { previousSecretUntil: new Date(Date.now() - 1000) } });
  const later = await ping(hook.id);
  const afterGrace = signatureParts(later.received);
  assert.equal(afterGrace.v1.length, 1, "one v1 once the grace is over");
  assert.ok(verifies(later.received, afterGrace.t, afterGrace.v1[0]!, newSecret));
  assert.throws(() => stripe.webhooks.constructEvent(later.received.raw, later.received.headers["x-service-signature"] as string, hook.secret), /signature/i);
});

test("without WEBHOOK_ALLOW_PRIVATE_URLS a stored loopback URL is refused at send time and the receiver gets nothing", async () => {
  const strict = await startTestApi(ENV);
  try {
    const signup = await request(strict.baseUrl, "POST", "/signup", { body: { email: "strict@webhooks.test" } });
    assert.equal(signup.status, 201, signup.text);
    const keyring = Keyring.fromConfig(strict.config);
    // stored before the deployment stopped allowing private URLs
    const hook = await strict.database.db.webhook.create({
      data: { accountId: signup.body.account_id, url: receiver.url, ...sealedWebhookSecret(keyring, "whsec_strict") },
    });
    const seen = receiver.requests.length;
    const res = await request(strict.baseUrl, "POST", `/webhooks/${hook.id}/test`, { token: signup.body.api_key.plaintext });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.success, false);
    assert.equal(res.body.status_code, null);
    assert.match(res.body.error, /^refused: /);
    assert.equal(res.body.delivery.status, "failed");
    assert.equal(res.body.delivery.attempts[0].error, res.body.error);
    assert.equal(receiver.requests.length, seen, "nothing reached the receiver");
  } finally {
    await strict.close();
  }
});

test("test pings to unknown, malformed or another account's webhooks are 404 webhook_not_found", async () => {
  const other = await request(api.baseUrl, "POST", "/signup", { body: { email: "other-ping@webhooks.test" } });
  const foreign = await request(api.baseUrl, "POST", "/webhooks", { token: other.body.api_key.plaintext, body: { url: receiver.url } });
  assert.equal(foreign.status, 201);
  const seen = receiver.requests.length;
  for (const id of [foreign.body.id, "00000000-0000-4000-8000-000000000000", "nope"]) {
    const res = await call("POST", `/webhooks/${id}/test`);
    assert.equal(res.status, 404, res.text);
    assert.equal(res.body.code, "webhook_not_found");
  }
  assert.equal(receiver.requests.length, seen);
  assert.equal(await api.database.db.webhookDelivery.count({ where: { webhookId: foreign.body.id } }), 0);
});

test("a webhook deleted while its test ping is in flight answers 404 webhook_not_found, not an error", async () => {
  let hookId = "";
  // a receiver that deletes the webhook through the API before it answers
  const deleting = await startWebhookReceiver({
    answer: async () => {
      const deleted = await call("DELETE", `/webhooks/${hookId}`);
      return { status: 200, body: String(deleted.status) };
    },
  });
  try {
    hookId = (await createHook(deleting.url)).id;
    const res = await call("POST", `/webhooks/${hookId}/test`);
    assert.equal(res.status, 404, res.text);
    assert.equal(res.body.code, "webhook_not_found");
    assert.equal(await api.database.db.webhookDelivery.count({ where: { webhookId: hookId } }), 0);
  } finally {
    await deleting.close();
  }
});
