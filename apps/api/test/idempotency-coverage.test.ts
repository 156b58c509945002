import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { redisKeys } from "@outreach/core";
import { createApp } from "../src/app.js";
import { honoursIdempotencyKey } from "../src/middleware/idempotency.js";
import { mountedRoutes } from "../src/route-list.js";
import { signUp, startTestApi, type JsonResponse } from "./helpers.js";
import { startReceiver, type Receiver } from "./webhook-receiver.js";
import { assertEnvelope, call, contactsByEmail, createCampaign, emails, importContacts, QueueProbe, type WorkflowEnv } from "./workflow-fixtures.js";

// Idempotency-Key on every POST that creates or acts (CONTRACT "API documents
// and conventions"): each route is sent the same request twice under one key
// and acts once; another body under that key is 409 idempotency_conflict.

/** POSTs that take no Idempotency-Key, and why. */
const EXEMPT_POSTS = new Map([
  ["/signup", "no account yet to scope a key to (CONTRACT)"],
  ["/webhooks/provider", "the payment provider's signed events, deduplicated by event id (CONTRACT)"],
  ["/webhooks/relay", "the relay's signed reports, harmless to replay (CONTRACT)"],
  ["/u/:token", "a mail client's one-click unsubscribe (RFC 8058): no API key, no account, and unsubscribing twice changes nothing"],
]);

let env: WorkflowEnv;
let receiver: Receiver;
let dispatchProbe: QueueProbe<"campaign-dispatch">;
let testSendProbe: QueueProbe<"test-send">;

before(async () => {
  const api = await startTestApi({ SIGNUP_LIMIT_PER_HOUR: "100000", RATE_LIMIT_PER_MINUTE: "10000000", WEBHOOK_ALLOW_PRIVATE_URLS: "true" });
  env = { api, a: await signUp(api), b: await signUp(api) };
  receiver = await startReceiver();
  dispatchProbe = new QueueProbe(env, "campaign-dispatch");
  testSendProbe = new QueueProbe(env, "test-send");
});
after(async () => {
  await dispatchProbe?.close();
  await testSendProbe?.close();
  await receiver?.close();
  await env?.api.close();
});

const db = () => env.api.database.db;

/** A POST under an Idempotency-Key (body left out when undefined). */
function postWithKey(path: string, key: string, body?: unknown): Promise<JsonResponse> {
  return call(env, "POST", path, { headers: { "idempotency-key": key }, ...(body === undefined ? {} : { body }) });
}

/**
 * Sends the request twice under one fresh key: the second answer is the first,
 * byte for byte, marked Idempotent-Replay: true. Runs `between` after the first
 * (to undo its effect where a second run would be invisible otherwise).
 */
async function sendTwice(path: string, body: unknown, between?: () => Promise<void>): Promise<{ first: JsonResponse; key: string }> {
  const key = `coverage-${randomUUID()}`;
  const first = await postWithKey(path, key, body);
  assert.ok(first.status < 500, first.text);
  assert.equal(first.headers.get("idempotent-replay"), null);
  await between?.();
  const second = await postWithKey(path, key, body);
  assert.equal(second.status, first.status, second.text);
  assert.equal(second.headers.get("idempotent-replay"), "true");
  assert.equal(second.text, first.text, "replayed verbatim");
  return { first, key };
}

/** Another body under the key: 409 idempotency_conflict. */
async function assertConflict(path: string, key: string, otherBody: unknown): Promise<void> {
  assertEnvelope(env, await postWithKey(path, key, otherBody), 409, "idempotency_conflict");
}

describe("every POST route honours Idempotency-Key", () => {
  test("every mounted POST has the idempotency middleware, except the exempt ones", () => {
    const posts = mountedRoutes(createApp(env.api.ctx)).filter((route) => route.method === "POST");
    const paths = posts.map((route) => route.path);
    // the walk finds the routes (a walk that found nothing would prove nothing)
    for (const path of ["/campaigns/:id/dispatch", "/campaigns/:id/test_send", "/contact_imports", "/webhooks/:id/test", "/replies/:id/answer", "/signup"]) {
      assert.ok(paths.includes(path), `${path} in ${paths.join(", ")}`);
    }
    const missing = posts.filter((route) => !EXEMPT_POSTS.has(route.path) && !route.handlers.some(honoursIdempotencyKey)).map((route) => route.path);
    assert.deepEqual(missing, [], "POST routes without Idempotency-Key");
    // an exemption that no longer matches a route is stale
    for (const path of EXEMPT_POSTS.keys()) assert.ok(paths.includes(path), `exempt ${path} is mounted`);
  });

  test("enroll: enrolls once", async () => {
    const campaign = await createCampaign(env);
    const importId = await importContacts(env, emails(3));
    const path = `/campaigns/${campaign.id}/enroll`;
    const { first, key } = await sendTwice(path, { contact_import_id: importId });
    assert.equal(first.status, 200);
    assert.equal(first.body.enrolled, 3);
    assert.equal(await db().enrollment.count({ where: { campaignId: campaign.id } }), 3);
    await assertConflict(path, key, { contact_import_id: importId, batch_number: 2 });
    assert.equal(await db().enrollment.count({ where: { campaignId: campaign.id, batchNumber: 2 } }), 0);
  });

  test("enroll_contact: one enrollment, the replay is the 201 (not 422 contact_already_enrolled)", async () => {
    const campaign = await createCampaign(env);
    const [address] = emails(1);
    await importContacts(env, [address!]);
    const contact = (await contactsByEmail(env, env.a.accountId, [address!])).get(address!)!;
    const path = `/campaigns/${campaign.id}/enroll_contact`;
    const { first, key } = await sendTwice(path, { contact_id: contact.id });
    assert.equal(first.status, 201);
    assert.equal(await db().enrollment.count({ where: { campaignId: campaign.id } }), 1);
    await assertConflict(path, key, { contact_id: contact.id, priority: 5 });
  });

  test("dispatch: one dispatch job", async () => {
    const campaign = await createCampaign(env);
    const importId = await importContacts(env, emails(2));
    assert.equal((await call(env, "POST", `/campaigns/${campaign.id}/enroll`, { body: { contact_import_id: importId } })).status, 200);
    const path = `/campaigns/${campaign.id}/dispatch`;
    const { first, key } = await sendTwice(path, {});
    assert.equal(first.status, 200, first.text);
    assert.equal(first.body.queued, true, first.text);
    const jobs = (await dispatchProbe.jobs()).filter((job) => job.campaignId === campaign.id);
    assert.equal(jobs.length, 1);
    await assertConflict(path, key, { batch_number: 2 });
  });

  test("test_send: each address queued once; a 4xx is replayed; a 429 is not stored, so the retry runs", async () => {
    const campaign = await createCampaign(env);
    const path = `/campaigns/${campaign.id}/test_send`;
    const jobsOf = async () => (await testSendProbe.jobs()).filter((job) => job.campaignId === campaign.id);
    const { first, key } = await sendTwice(path, { emails: ["qa@example.com", "me@example.com"] });
    assert.equal(first.status, 200, first.text);
    assert.equal((await jobsOf()).length, 2);
    await assertConflict(path, key, { emails: ["other@example.com"] });
    assert.equal((await jobsOf()).length, 2);

    // a validation answer is stored and replayed like a success
    const invalid = await sendTwice(path, { emails: [] });
    assertEnvelope(env, invalid.first, 422, "no_emails_provided");

    // the day's allowance used up: 429, not stored; once allowance is back, the same key runs
    const allowanceKey = redisKeys.testSendAllowance(env.api.config, env.a.accountId, new Date());
    const previous = await env.api.ctx.redis.get(allowanceKey);
    await env.api.ctx.redis.set(allowanceKey, "100");
    const retryKey = `coverage-${randomUUID()}`;
    const refused = await postWithKey(path, retryKey, { emails: ["late@example.com"] });
    assertEnvelope(env, refused, 429, "rate_limited");
    await env.api.ctx.redis.set(allowanceKey, previous ?? "0");
    const retried = await postWithKey(path, retryKey, { emails: ["late@example.com"] });
    assert.equal(retried.status, 200, retried.text);
    assert.equal(retried.headers.get("idempotent-replay"), null);
    assert.equal((await jobsOf()).filter((job) => job.email === "late@example.com").length, 1);
  });

  test("pause and resume: a replay does not act again", async () => {
    const campaign = await createCampaign(env);
    await db().campaign.update({ where: { id: campaign.id }, data: { status: "active" } });
    const statusOf = async () => (await db().campaign.findUniqueOrThrow({ where: { id: campaign.id } })).status;

    // paused under a key, resumed without one: the replayed pause leaves it active
    const pause = await sendTwice(`/campaigns/${campaign.id}/pause`, undefined, async () => {
      assert.equal((await call(env, "POST", `/campaigns/${campaign.id}/resume`)).status, 200);
    });
    assert.equal(pause.first.body.status, "paused");
    assert.equal(await statusOf(), "active");
    await assertConflict(`/campaigns/${campaign.id}/pause`, pause.key, { reason: "other" });

    // resumed under a key, paused without one: the replayed resume leaves it paused
    assert.equal((await call(env, "POST", `/campaigns/${campaign.id}/pause`)).status, 200);
    const resume = await sendTwice(`/campaigns/${campaign.id}/resume`, undefined, async () => {
      assert.equal((await call(env, "POST", `/campaigns/${campaign.id}/pause`)).status, 200);
    });
    assert.equal(resume.first.body.status, "active");
    assert.equal(await statusOf(), "paused");
    await assertConflict(`/campaigns/${campaign.id}/resume`, resume.key, { reason: "other" });
  });

  test("smtp_credentials/:id/reenable: a replay does not re-enable again", async () => {
    const campaign = await createCampaign(env);
    const credentialId = campaign.smtp_credentials[0].id as string;
    const disable = () => db().smtpCredential.update({ where: { id: credentialId }, data: { disabledAt: new Date(), disabledReason: "bounce rate too high" } });
    await disable();
    const path = `/campaigns/${campaign.id}/smtp_credentials/${credentialId}/reenable`;
    const { first, key } = await sendTwice(path, undefined, async () => void (await disable()));
    assert.equal(first.body.disabled_at, null);
    assert.notEqual((await db().smtpCredential.findUniqueOrThrow({ where: { id: credentialId } })).disabledAt, null, "disabled again in between, and left so");
    await assertConflict(path, key, {});
  });

  test("webhook delivery redeliver: a replay does not queue the delivery again", async () => {
    const hook = await call(env, "POST", "/webhooks", { body: { url: receiver.url } });
    assert.equal(hook.status, 201, hook.text);
    const event = await db().event.create({ data: { accountId: env.a.accountId, type: "enrollment.sent", data: { enrollment_id: randomUUID() }, dispatchedAt: new Date() } });
    const delivery = await db().webhookDelivery.create({
      data: { accountId: env.a.accountId, webhookId: hook.body.id, eventId: event.id, eventType: event.type, state: "failed", attempts: 5, maxAttempts: 5, completedAt: new Date() },
    });
    const path = `/webhooks/${hook.body.id}/deliveries/${delivery.id}/redeliver`;
    const { first, key } = await sendTwice(path, undefined, async () => {
      // the deliverer delivered it meanwhile
      await db().webhookDelivery.update({ where: { id: delivery.id }, data: { state: "succeeded", completedAt: new Date() } });
    });
    assert.equal(first.status, 202, first.text);
    assert.equal(first.body.status, "pending");
    assert.equal((await db().webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } })).state, "succeeded", "not made pending again");
    await assertConflict(path, key, {});
  });

  test("webhook test: one ping reaches the receiver", async () => {
    const hook = await call(env, "POST", "/webhooks", { body: { url: receiver.url } });
    assert.equal(hook.status, 201, hook.text);
    const seen = receiver.requests.length;
    const path = `/webhooks/${hook.body.id}/test`;
    const { first, key } = await sendTwice(path, undefined);
    assert.equal(first.status, 200, first.text);
    assert.equal(first.body.success, true, first.text);
    assert.equal(receiver.requests.length, seen + 1);
    assert.equal(await db().webhookDelivery.count({ where: { webhookId: hook.body.id } }), 1);
    await assertConflict(path, key, {});
    assert.equal(receiver.requests.length, seen + 1);
  });

  test("contact_imports: a validation answer is stored and replayed too", async () => {
    const { first, key } = await sendTwice("/contact_imports", { contacts: [] });
    assertEnvelope(env, first, 422, "no_contacts_provided");
    await assertConflict("/contact_imports", key, { contacts: [{ email: "x@example.com" }] });
    assert.equal(await db().contact.count({ where: { accountId: env.a.accountId, email: "x@example.com" } }), 0);
  });
});
