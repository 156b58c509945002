import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, test } from "node:test";
import { signPayload } from "@outreach/core";
import { recordBounce, UNVERIFIED_BOUNCE_PREFIX } from "@outreach/domain";
import type { StepSendState } from "@outreach/db";
import { assertError, request, signUp, startTestApi, type TestApi } from "./helpers.js";

const SECRET = "relay-test-secret";

let api: TestApi;
let unconfigured: TestApi;
let accountA: string;
let tokenA: string;
let accountB: string;
let counter = 0;

before(async () => {
  [api, unconfigured] = await Promise.all([startTestApi({ RELAY_WEBHOOK_SECRET: SECRET }), startTestApi()]);
  ({ accountId: accountA, token: tokenA } = await signUp(api));
  ({ accountId: accountB } = await signUp(api));
});

after(async () => {
  await Promise.all([api?.close(), unconfigured?.close()]);
});

const db = () => api.ctx.db;
const HOUR = 3600_000;

interface Fixture {
  campaignId: string;
  credentialId: string;
  contactId: string;
  enrollmentId: string;
  messageId: string;
  stepIds: string[];
}

/**
 * One enrollment whose step 1 went out through its own credential (the only one
 * of an active campaign), with `extraSends` more sent steps on that credential
 * (so a single bounce stays under the threshold) and a step 2 still scheduled.
 */
async function sentEnrollment(accountId: string, email: string, options: { sentAt?: Date; threshold?: number; extraSends?: number } = {}): Promise<Fixture> {
  const sentAt = options.sentAt ?? new Date(Date.now() - HOUR);
  const campaign = await db().campaign.create({ data: { accountId, name: `Campaign ${++counter}`, status: "active", bounceRateThreshold: options.threshold ?? 8 } });
  const credential = await db().smtpCredential.create({
    data: {
      accountId,
      campaignId: campaign.id,
      label: `inbox ${counter}`,
      fromEmail: `inbox${counter}@sender.test`,
      smtpHost: "127.0.0.1",
      smtpPort: 25,
      smtpUsername: "u",
      smtpPasswordEnc: "x",
      dailyLimit: 100,
    },
  });
  const contact = await db().contact.upsert({ where: { accountId_email: { accountId, email } }, create: { accountId, email }, update: {} });
  const enrollment = await db().enrollment.create({ data: { accountId, campaignId: campaign.id, contactId: contact.id, status: "sent", sentAt, credentialId: credential.id } });
  const messageId = `<${randomUUID()}@sender.test>`;
  const stepIds: string[] = [];
  const steps: Array<[StepSendState, Date]> = [
    ["sent", sentAt],
    ["scheduled", new Date(Date.now() + 24 * HOUR)],
  ];
  for (const [i, [state, dueAt]] of steps.entries()) {
    const row = await db().stepSend.create({
      data: {
        accountId,
        campaignId: campaign.id,
        enrollmentId: enrollment.id,
        stepPosition: i + 1,
        state,
        dueAt,
        credentialId: credential.id,
        ...(state === "sent" ? { sentAt, messageId } : {}),
      },
    });
    stepIds.push(row.id);
  }
  for (let i = 0; i < (options.extraSends ?? 0); i++) {
    const other = await db().contact.create({ data: { accountId, email: `other${++counter}@example.com` } });
    const e = await db().enrollment.create({ data: { accountId, campaignId: campaign.id, contactId: other.id, status: "sent", sentAt, credentialId: credential.id } });
    await db().stepSend.create({
      data: { accountId, campaignId: campaign.id, enrollmentId: e.id, stepPosition: 1, state: "sent", dueAt: sentAt, sentAt, credentialId: credential.id, messageId: `<${randomUUID()}@sender.test>` },
    });
  }
  return { campaignId: campaign.id, credentialId: credential.id, contactId: contact.id, enrollmentId: enrollment.id, messageId, stepIds };
}

const freshEmail = () => `Recipient${++counter}@Example.com`.toLowerCase();

function signed(body: string, options: { secret?: string; t?: number } = {}): Record<string, string> {
  return { "content-type": "application/json", "x-relay-signature": signPayload(options.secret ?? SECRET, body, options.t) };
}

async function report(events: unknown[], target: TestApi = api) {
  const rawBody = JSON.stringify({ events });
  return request(target.baseUrl, "POST", "/webhooks/relay", { rawBody, headers: signed(rawBody) });
}

/** Everything a report could change, to compare before and after. */
async function snapshot() {
  const [enrollments, contacts, steps, credentials, campaigns, events] = await Promise.all([
    db().enrollment.findMany({ orderBy: { id: "asc" }, select: { id: true, status: true, bouncedAt: true, bounceReason: true, unsubscribedAt: true } }),
    db().contact.findMany({ orderBy: { id: "asc" }, select: { id: true, unsubscribedAt: true } }),
    db().stepSend.findMany({ orderBy: { id: "asc" }, select: { id: true, state: true, lastError: true } }),
    db().smtpCredential.findMany({ orderBy: { id: "asc" }, select: { id: true, disabledAt: true } }),
    db().campaign.findMany({ orderBy: { id: "asc" }, select: { id: true, status: true } }),
    db().event.findMany({ orderBy: { id: "asc" }, select: { id: true } }),
  ]);
  return { enrollments, contacts, steps, credentials, campaigns, events };
}

const eventsOf = (type: string, enrollmentId: string) => db().event.findMany({ where: { type, data: { path: ["enrollment_id"], equals: enrollmentId } } });
const enrollmentOf = (id: string) => db().enrollment.findUniqueOrThrow({ where: { id } });
const stepStates = async (f: Fixture) => (await db().stepSend.findMany({ where: { enrollmentId: f.enrollmentId }, orderBy: { stepPosition: "asc" } })).map((s) => s.state);

test("a report without a valid signature is refused with 401 invalid_signature and changes nothing", async () => {
  const email = freshEmail();
  const f = await sentEnrollment(accountA, email);
  const body = JSON.stringify({ events: [{ type: "bounce", email, message_id: f.messageId }] });
  const now = Math.floor(Date.now() / 1000);
  const before = await snapshot();

  const attempts: Array<[string, TestApi, Record<string, string>, string]> = [
    ["no signature header", api, { "content-type": "application/json" }, body],
    ["an empty header", api, { "content-type": "application/json", "x-relay-signature": "" }, body],
    ["a malformed header", api, { "content-type": "application/json", "x-relay-signature": "garbage" }, body],
    ["a header without v1", api, { "content-type": "application/json", "x-relay-signature": `t=${now}` }, body],
    ["the wrong secret", api, signed(body, { secret: "not-the-secret" }), body],
    ["a timestamp over 300 s old", api, signed(body, { t: now - 301 }), body],
    ["a timestamp in the future", api, signed(body, { t: now + 120 }), body],
    ["a body changed after signing", api, signed(body), body.replace("bounce", "complaint")],
    [
      "a signature over another timestamp",
      api,
      { "content-type": "application/json", "x-relay-signature": signed(body, { t: now - 10 })["x-relay-signature"]!.replace(`t=${now - 10}`, `t=${now}`) },
      body,
    ],
    ["no secret configured (signed)", unconfigured, signed(body), body],
    ["no secret configured (unsigned)", unconfigured, { "content-type": "application/json" }, body],
  ];
  for (const [what, target, headers, rawBody] of attempts) {
    const res = await request(target.baseUrl, "POST", "/webhooks/relay", { rawBody, headers });
    assert.equal(res.status, 401, `${what}: ${res.text}`);
    assertError(res, target, 401, "invalid_signature");
  }
  assert.deepEqual(await snapshot(), before);

  // the same report, correctly signed, does change things: the refusals above were the signature's doing
  const ok = await request(api.baseUrl, "POST", "/webhooks/relay", { rawBody: body, headers: signed(body) });
  assert.equal(ok.status, 200, ok.text);
  assert.equal((await enrollmentOf(f.enrollmentId)).status, "bounced");
});

test("a bounce matched by message id bounces the enrollment once, cancels later steps and runs the credential health check", async () => {
  const email = freshEmail();
  const f = await sentEnrollment(accountA, email);
  const reason = "550 5.1.1 mailbox does not exist";

  const res = await report([{ type: "bounce", email, message_id: f.messageId, reason, occurred_at: new Date().toISOString() }]);
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body, { received: 1, bounced: 1, unsubscribed: 0, ignored: 0 });

  const enrollment = await enrollmentOf(f.enrollmentId);
  assert.equal(enrollment.status, "bounced");
  assert.equal(enrollment.bounceReason, reason);
  assert.ok(enrollment.bouncedAt);
  assert.deepEqual(await stepStates(f), ["bounced", "cancelled"]);

  const events = await eventsOf("enrollment.bounced", f.enrollmentId);
  assert.equal(events.length, 1);
  assert.equal(events[0]!.accountId, accountA);
  assert.deepEqual(events[0]!.data, {
    enrollment_id: f.enrollmentId,
    contact_id: f.contactId,
    contact_email: email,
    campaign_id: f.campaignId,
    status: "bounced",
    sent_at: enrollment.sentAt!.toISOString(),
    replied_at: null,
    bounce_reason: reason,
  });

  // 1 bounce of 1 send is over the 8% threshold: the credential is disabled, the campaign (no inbox left) paused
  const credential = await db().smtpCredential.findUniqueOrThrow({ where: { id: f.credentialId } });
  assert.ok(credential.disabledAt, "the credential is disabled");
  const disabled = await db().event.findMany({ where: { type: "credential.disabled", data: { path: ["credential_id"], equals: f.credentialId } } });
  assert.equal(disabled.length, 1);
  assert.equal((disabled[0]!.data as { bounce_rate: number }).bounce_rate, 100);
  assert.equal((await db().campaign.findUniqueOrThrow({ where: { id: f.campaignId } })).status, "paused");

  // a replay changes nothing and emits nothing
  const before = await snapshot();
  const replay = await report([{ type: "bounce", email, message_id: f.messageId, reason: "another reason" }]);
  assert.equal(replay.status, 200, replay.text);
  assert.deepEqual(replay.body, { received: 1, bounced: 0, unsubscribed: 0, ignored: 1 });
  assert.deepEqual(await snapshot(), before);
});

test("a message id without angle brackets matches, and the default reason is used when none is given", async () => {
  const email = freshEmail();
  const f = await sentEnrollment(accountA, email, { extraSends: 19 });
  const res = await report([{ type: "bounce", email, message_id: f.messageId.slice(1, -1) }]);
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body, { received: 1, bounced: 1, unsubscribed: 0, ignored: 0 });
  const enrollment = await enrollmentOf(f.enrollmentId);
  assert.equal(enrollment.status, "bounced");
  assert.equal(enrollment.bounceReason, "bounce reported by the relay");
  // 1 bounce in 20 sends is 5%, under the 8% threshold: counted, but the credential stays enabled
  assert.equal((await db().smtpCredential.findUniqueOrThrow({ where: { id: f.credentialId } })).disabledAt, null);
  assert.equal(await db().stepSend.count({ where: { credentialId: f.credentialId, state: "bounced" } }), 1);
});

test("a bounce counts towards the credential's bounce rate: the bounce that crosses the threshold disables it", async () => {
  const first = freshEmail();
  // threshold 10%: 1 of 10 sends (10%) is not over it, 2 of 10 is
  const f = await sentEnrollment(accountA, first, { threshold: 10, extraSends: 9 });
  const others = await db().stepSend.findMany({ where: { credentialId: f.credentialId, state: "sent", NOT: { id: f.stepIds[0] } }, include: { enrollment: { include: { contact: true } } } });
  const second = others[0]!;

  assert.equal((await report([{ type: "bounce", email: first, message_id: f.messageId }])).status, 200);
  assert.equal((await db().smtpCredential.findUniqueOrThrow({ where: { id: f.credentialId } })).disabledAt, null, "10% is not over 10%");
  // the replay must not count the same bounce twice
  assert.equal((await report([{ type: "bounce", email: first, message_id: f.messageId }])).status, 200);
  assert.equal((await db().smtpCredential.findUniqueOrThrow({ where: { id: f.credentialId } })).disabledAt, null, "a replay is not a second bounce");

  assert.equal((await report([{ type: "bounce", email: second.enrollment.contact.email, message_id: second.messageId }])).status, 200);
  assert.ok((await db().smtpCredential.findUniqueOrThrow({ where: { id: f.credentialId } })).disabledAt, "20% is over 10%");
  assert.equal(await db().event.count({ where: { type: "credential.disabled", data: { path: ["credential_id"], equals: f.credentialId } } }), 1);
});

test("a bounce without a message id matches the most recent step sent to the address, in whichever account sent it", async () => {
  const email = freshEmail();
  const older = await sentEnrollment(accountA, email, { sentAt: new Date(Date.now() - 3 * HOUR), extraSends: 19 });
  const newer = await sentEnrollment(accountB, email, { sentAt: new Date(Date.now() - HOUR), extraSends: 19 });

  const res = await report([{ type: "bounce", email: email.toUpperCase(), reason: "552 mailbox full" }]);
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body, { received: 1, bounced: 1, unsubscribed: 0, ignored: 0 });
  const bounced = await enrollmentOf(newer.enrollmentId);
  assert.equal(bounced.status, "bounced");
  assert.equal(bounced.bounceReason, "552 mailbox full");
  assert.equal((await eventsOf("enrollment.bounced", newer.enrollmentId))[0]?.accountId, accountB);
  assert.equal((await enrollmentOf(older.enrollmentId)).status, "sent", "the other account's enrollment is untouched");
  assert.deepEqual(await stepStates(older), ["sent", "scheduled"]);

  // the most recent step to the address has bounced already: a replay, not a bounce of the older one
  const before = await snapshot();
  const replay = await report([{ type: "bounce", email }]);
  assert.deepEqual(replay.body, { received: 1, bounced: 0, unsubscribed: 0, ignored: 1 });
  assert.deepEqual(await snapshot(), before);
});

test("a signed report, even without a message id, confirms a bounce known before only from an unverified notice: it then counts", async () => {
  const email = freshEmail();
  // threshold 5%: the one bounce of 10 sends (10%) is over it once it counts
  const f = await sentEnrollment(accountA, email, { threshold: 5, extraSends: 9 });
  await db().$transaction((tx) =>
    recordBounce(tx, { enrollmentId: f.enrollmentId, accountId: accountA, reason: "550 5.1.1 User unknown", stepSendId: f.stepIds[0], credentialId: f.credentialId, verified: false }),
  );
  assert.equal((await enrollmentOf(f.enrollmentId)).bounceReason, `${UNVERIFIED_BOUNCE_PREFIX}550 5.1.1 User unknown`);
  assert.equal((await db().smtpCredential.findUniqueOrThrow({ where: { id: f.credentialId } })).disabledAt, null, "an unverified bounce does not count");
  // the campaign shows it among its bounces; the inbox's bounce rate, what the threshold is compared with, does not
  const shown = await request(api.baseUrl, "GET", `/campaigns/${f.campaignId}`, { token: tokenA });
  assert.equal(shown.status, 200, shown.text);
  assert.deepEqual([shown.body.totals.bounced, shown.body.rates.bounce_rate], [1, 10]);
  assert.deepEqual([shown.body.credentials[0].bounces, shown.body.credentials[0].bounce_rate], [0, 0]);

  const res = await report([{ type: "bounce", email, reason: "550 no such user" }]);
  assert.deepEqual(res.body, { received: 1, bounced: 1, unsubscribed: 0, ignored: 0 });
  const step = await db().stepSend.findUniqueOrThrow({ where: { id: f.stepIds[0] } });
  assert.deepEqual([step.state, step.bounceUnverified], ["bounced", false]);
  assert.equal((await enrollmentOf(f.enrollmentId)).bounceReason, "550 no such user");
  assert.equal((await eventsOf("enrollment.bounced", f.enrollmentId)).length, 1);
  assert.ok((await db().smtpCredential.findUniqueOrThrow({ where: { id: f.credentialId } })).disabledAt, "10% is over 5%");
  // a replay of the report is not a second bounce
  assert.deepEqual((await report([{ type: "bounce", email }])).body, { received: 1, bounced: 0, unsubscribed: 0, ignored: 1 });
});

test("without a message id, occurred_at picks the step sent before the bounce happened", async () => {
  const email = freshEmail();
  const older = await sentEnrollment(accountA, email, { sentAt: new Date(Date.now() - 3 * HOUR), extraSends: 19 });
  const newer = await sentEnrollment(accountB, email, { sentAt: new Date(Date.now() - HOUR), extraSends: 19 });
  const res = await report([{ type: "bounce", email, occurred_at: new Date(Date.now() - 2 * HOUR).toISOString() }]);
  assert.deepEqual(res.body, { received: 1, bounced: 1, unsubscribed: 0, ignored: 0 });
  assert.equal((await enrollmentOf(older.enrollmentId)).status, "bounced");
  assert.equal((await enrollmentOf(newer.enrollmentId)).status, "sent");
});

test("a bounce by message id affects only the account that sent that step", async () => {
  const email = freshEmail();
  const a = await sentEnrollment(accountA, email, { sentAt: new Date(Date.now() - 3 * HOUR), extraSends: 19 });
  // account B also has this address, and wrote to it more recently
  const b = await sentEnrollment(accountB, email, { sentAt: new Date(Date.now() - HOUR), extraSends: 19 });

  const res = await report([{ type: "bounce", email, message_id: a.messageId }]);
  assert.deepEqual(res.body, { received: 1, bounced: 1, unsubscribed: 0, ignored: 0 });
  assert.equal((await enrollmentOf(a.enrollmentId)).status, "bounced");
  assert.equal((await enrollmentOf(b.enrollmentId)).status, "sent");
  assert.deepEqual(await stepStates(b), ["sent", "scheduled"]);
  assert.equal((await eventsOf("enrollment.bounced", b.enrollmentId)).length, 0);
});

test("a complaint unsubscribes the contact in the sending account only, one event per active enrollment, once", async () => {
  const email = freshEmail();
  const a1 = await sentEnrollment(accountA, email, { extraSends: 19 });
  const a2 = await sentEnrollment(accountA, email, { extraSends: 19 });
  const b = await sentEnrollment(accountB, email, { sentAt: new Date(), extraSends: 19 });

  const res = await report([{ type: "complaint", email, message_id: a1.messageId, reason: "abuse report" }]);
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body, { received: 1, bounced: 0, unsubscribed: 1, ignored: 0 });

  const contactA = await db().contact.findUniqueOrThrow({ where: { id: a1.contactId } });
  assert.ok(contactA.unsubscribedAt, "A's contact is unsubscribed");
  for (const f of [a1, a2]) {
    const enrollment = await enrollmentOf(f.enrollmentId);
    assert.equal(enrollment.status, "unsubscribed");
    assert.deepEqual(await stepStates(f), ["sent", "cancelled"]);
    const events = await eventsOf("enrollment.unsubscribed", f.enrollmentId);
    assert.equal(events.length, 1);
    assert.equal(events[0]!.accountId, accountA);
    assert.deepEqual(events[0]!.data, {
      enrollment_id: f.enrollmentId,
      contact_id: a1.contactId,
      contact_email: email,
      campaign_id: f.campaignId,
      unsubscribed_at: enrollment.unsubscribedAt!.toISOString(),
    });
  }
  assert.equal((await db().contact.findUniqueOrThrow({ where: { id: b.contactId } })).unsubscribedAt, null, "B's contact is not");
  assert.equal((await enrollmentOf(b.enrollmentId)).status, "sent");
  assert.equal((await eventsOf("enrollment.unsubscribed", b.enrollmentId)).length, 0);
  assert.equal((await enrollmentOf(a1.enrollmentId)).bounceReason, null, "a complaint is not a bounce");

  const before = await snapshot();
  const replay = await report([{ type: "complaint", email, message_id: a1.messageId }]);
  assert.deepEqual(replay.body, { received: 1, bounced: 0, unsubscribed: 0, ignored: 1 });
  assert.deepEqual(await snapshot(), before);
});

test("a complaint without a message id unsubscribes the contact of the account that wrote to the address last", async () => {
  const email = freshEmail();
  const a = await sentEnrollment(accountA, email, { sentAt: new Date(Date.now() - HOUR), extraSends: 19 });
  const b = await sentEnrollment(accountB, email, { sentAt: new Date(Date.now() - 3 * HOUR), extraSends: 19 });
  const res = await report([{ type: "complaint", email }]);
  assert.deepEqual(res.body, { received: 1, bounced: 0, unsubscribed: 1, ignored: 0 });
  assert.ok((await db().contact.findUniqueOrThrow({ where: { id: a.contactId } })).unsubscribedAt);
  assert.equal((await db().contact.findUniqueOrThrow({ where: { id: b.contactId } })).unsubscribedAt, null);
  assert.equal((await enrollmentOf(b.enrollmentId)).status, "sent");
});

test("unknown recipients and message ids are accepted and ignored", async () => {
  const email = freshEmail();
  await sentEnrollment(accountA, email, { extraSends: 19 });
  // a contact the account has but never wrote to
  const neverWritten = await db().contact.create({ data: { accountId: accountA, email: freshEmail() } });
  const before = await snapshot();
  const res = await report([
    { type: "bounce", email: "nobody@nowhere.test" },
    { type: "complaint", email: "nobody@nowhere.test", message_id: null, reason: null, occurred_at: null },
    { type: "bounce", email, message_id: `<${randomUUID()}@sender.test>` },
    { type: "complaint", email, message_id: "unknown-id@sender.test" },
    { type: "bounce", email: neverWritten.email },
    { type: "complaint", email: neverWritten.email },
  ]);
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body, { received: 6, bounced: 0, unsubscribed: 0, ignored: 6 });
  assert.deepEqual(await snapshot(), before);

  const empty = await report([]);
  assert.equal(empty.status, 200);
  assert.deepEqual(empty.body, { received: 0, bounced: 0, unsubscribed: 0, ignored: 0 });
});

test("one report can carry bounces and complaints together", async () => {
  const bounceEmail = freshEmail();
  const complaintEmail = freshEmail();
  const bounce = await sentEnrollment(accountA, bounceEmail, { extraSends: 19 });
  const complaint = await sentEnrollment(accountB, complaintEmail, { extraSends: 19 });
  const res = await report([
    { type: "bounce", email: bounceEmail, message_id: bounce.messageId },
    { type: "complaint", email: complaintEmail, message_id: complaint.messageId },
    { type: "complaint", email: "nobody@nowhere.test" },
  ]);
  assert.deepEqual(res.body, { received: 3, bounced: 1, unsubscribed: 1, ignored: 1 });
  assert.equal((await enrollmentOf(bounce.enrollmentId)).status, "bounced");
  assert.equal((await enrollmentOf(complaint.enrollmentId)).status, "unsubscribed");
});

test("a signed body that is not JSON is 400, a wrong shape 422, and neither changes anything", async () => {
  const email = freshEmail();
  const f = await sentEnrollment(accountA, email);
  const before = await snapshot();

  for (const rawBody of ["{not json", "", '{"events":[{"type":"bounce"', Buffer.from([0xff, 0xfe, 0x7b, 0x7d]).toString("latin1")]) {
    const res = await request(api.baseUrl, "POST", "/webhooks/relay", { rawBody, headers: signed(rawBody) });
    assertError(res, api, 400, "bad_request");
  }

  const valid = { type: "bounce", email, message_id: f.messageId };
  const shapes: unknown[] = [
    [],
    null,
    {},
    { events: "bounce" },
    { events: [{ ...valid, type: "delivery" }] },
    { events: [{ type: "bounce", message_id: f.messageId }] },
    { events: [{ ...valid, email: 42 }] },
    { events: [{ ...valid, occurred_at: "yesterday" }] },
    { events: [{ ...valid, email: "a\u0000b@example.com" }] },
    // one bad event refuses the whole report, the good one included
    { events: [valid, { ...valid, type: "open" }] },
    { events: Array.from({ length: 1001 }, () => ({ type: "bounce", email: "x@example.com" })) },
  ];
  for (const shape of shapes) {
    const rawBody = JSON.stringify(shape);
    const res = await request(api.baseUrl, "POST", "/webhooks/relay", { rawBody, headers: signed(rawBody) });
    assertError(res, api, 422, "validation_failed");
  }
  assert.deepEqual(await snapshot(), before);

  // a wrong shape without a valid signature is a signature failure: nothing is said about the body
  const unsigned = await request(api.baseUrl, "POST", "/webhooks/relay", { rawBody: "{not json", headers: { "content-type": "application/json" } });
  assertError(unsigned, api, 401, "invalid_signature");
});

test("the body is limited to 1 MB, and fields the relay adds are tolerated", async () => {
  const big = JSON.stringify({ events: [{ type: "bounce", email: "x@example.com", reason: "x".repeat(1024 * 1024) }] });
  const res = await request(api.baseUrl, "POST", "/webhooks/relay", { rawBody: big, headers: signed(big) });
  assertError(res, api, 400, "bad_request");

  const email = freshEmail();
  const f = await sentEnrollment(accountA, email, { extraSends: 19 });
  const extra = JSON.stringify({ id: "report-1", events: [{ type: "bounce", email, message_id: f.messageId, reason: "r\u0000".repeat(800), bounce_type: "hard" }] });
  const ok = await request(api.baseUrl, "POST", "/webhooks/relay", { rawBody: extra, headers: signed(extra) });
  assert.equal(ok.status, 200, ok.text);
  const enrollment = await enrollmentOf(f.enrollmentId);
  assert.equal(enrollment.status, "bounced");
  assert.equal(enrollment.bounceReason, "r".repeat(800), "NUL characters are dropped from the reason");
});

test("the same report delivered several times at once is applied once", async () => {
  const email = freshEmail();
  const f = await sentEnrollment(accountA, email, { extraSends: 19 });
  const results = await Promise.all(
    Array.from({ length: 5 }, () =>
      report([
        { type: "bounce", email, message_id: f.messageId },
        { type: "complaint", email },
      ]),
    ),
  );
  assert.ok(
    results.every((r) => r.status === 200),
    results.map((r) => r.text).join("\n"),
  );
  assert.equal(
    results.reduce((n, r) => n + r.body.bounced, 0),
    1,
  );
  assert.equal((await eventsOf("enrollment.bounced", f.enrollmentId)).length, 1);
  assert.equal(await db().stepSend.count({ where: { credentialId: f.credentialId, state: "bounced" } }), 1);
  // the enrollment bounced before the complaints arrived, so they only unsubscribe the contact
  assert.equal((await eventsOf("enrollment.unsubscribed", f.enrollmentId)).length, 0);
  assert.ok((await db().contact.findUniqueOrThrow({ where: { id: f.contactId } })).unsubscribedAt);
  assert.equal(
    results.reduce((n, r) => n + r.body.unsubscribed, 0),
    1,
  );
});
