import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, beforeEach, test } from "node:test";
import type { Db } from "@outreach/db";
import { allCredentialsAtDailyLimit, classifyInbound, readInbound, recordInboundMessage } from "@outreach/domain";
import { assertEnvelope, call, QueueProbe, startWorkflowApi, utcMidnight, type WorkflowEnv } from "./workflow-fixtures.js";

let env: WorkflowEnv;
let db: Db;
let probe: QueueProbe<"send-answer">;
let uid = 0n;

before(async () => {
  env = await startWorkflowApi();
  db = env.api.database.db;
  probe = new QueueProbe(env, "send-answer");
});
after(async () => {
  await probe?.close();
  await env?.api.close();
});
beforeEach(async () => {
  await probe.drain();
});

interface Inbox {
  campaignId: string;
  credentialId: string;
  inbox: string;
  /** the contact's enrollment and step 1's Message-ID (with <>) */
  enroll(email: string): Promise<{ enrollmentId: string; contactId: string; messageId: string }>;
}

/** A campaign of the account with one inbox (on mailbox `username`, daily_limit `dailyLimit`). */
async function campaignWithInbox(accountId: string, options: { username?: string; dailyLimit?: number } = {}): Promise<Inbox> {
  const tag = randomUUID().slice(0, 8);
  const { id: campaignId } = await db.campaign.create({ data: { accountId, name: `Replies ${tag}`, status: "active" } });
  const inbox = `inbox-${tag}@sender.test`;
  const credential = await db.smtpCredential.create({
    data: {
      accountId,
      campaignId,
      label: "Inbox",
      fromEmail: inbox,
      fromName: "Jordan Lee",
      smtpHost: "smtp.sender.test",
      smtpPort: 587,
      smtpUsername: options.username ?? inbox,
      smtpPasswordEnc: "x",
      dailyLimit: options.dailyLimit ?? 50,
    },
  });
  return {
    campaignId,
    credentialId: credential.id,
    inbox,
    async enroll(email) {
      const contact = await db.contact.upsert({ where: { accountId_email: { accountId, email } }, create: { accountId, email }, update: {} });
      const now = new Date();
      const enrollment = await db.enrollment.create({ data: { accountId, campaignId, contactId: contact.id, status: "sent", sentAt: now, credentialId: credential.id } });
      const messageId = `<${randomUUID()}@sender.test>`;
      await db.stepSend.create({
        data: { accountId, campaignId, enrollmentId: enrollment.id, stepPosition: 1, credentialId: credential.id, state: "sent", dueAt: now, sentAt: now, messageId, limitDay: utcMidnight(now) },
      });
      return { enrollmentId: enrollment.id, contactId: contact.id, messageId };
    },
  };
}

/** A message arriving in the inbox, recorded as the IMAP poller records it; answers its inbound_messages id. */
async function arrive(accountId: string, inbox: Inbox, headers: Record<string, string>, body: string): Promise<string> {
  const all = { Date: new Date().toUTCString(), "Message-ID": `<${randomUUID()}@contoso.test>`, "MIME-Version": "1.0", "Content-Type": "text/plain; charset=utf-8", To: inbox.inbox, ...headers };
  const message = await readInbound(
    `${Object.entries(all)
      .map(([k, v]) => `${k}: ${v}`)
      .join("\r\n")}\r\n\r\n${body}\r\n`,
  );
  uid += 1n;
  await db.$transaction((tx) => recordInboundMessage(tx, { credentialId: inbox.credentialId, accountId, uidValidity: 1n, uid }, message, classifyInbound(message)));
  return (await db.inboundMessage.findFirstOrThrow({ where: { credentialId: inbox.credentialId, uid } })).id;
}

async function replyFrom(accountId: string, inbox: Inbox, email: string, text = "Sounds good, let's talk.", subject = "Re: Hello"): Promise<string> {
  const sent = await inbox.enroll(email);
  return arrive(accountId, inbox, { From: `Maria <${email}>`, Subject: subject, "In-Reply-To": sent.messageId, References: sent.messageId }, `${text}\r\n\r\nOn Mon, Jordan wrote:\r\n> Hello Maria`);
}

test("GET /replies lists the account's replies and auto-replies newest first, with a snippet; filters by campaign and kind; pages", async () => {
  const accountId = env.a.accountId;
  const one = await campaignWithInbox(accountId);
  const two = await campaignWithInbox(accountId);
  const first = await replyFrom(accountId, one, `p1-${randomUUID().slice(0, 6)}@contoso.test`, "First answer.");
  const sent = await one.enroll(`p2-${randomUUID().slice(0, 6)}@contoso.test`);
  const auto = await arrive(accountId, one, { From: "p2@contoso.test", Subject: "Automatic reply: Hello", "Auto-Submitted": "auto-replied", "In-Reply-To": sent.messageId }, "Out of office.");
  const third = await replyFrom(accountId, two, `p3-${randomUUID().slice(0, 6)}@contoso.test`, `Third answer. ${"long ".repeat(100)}`);
  // not listed: a message matched to nobody
  await arrive(accountId, one, { From: "stranger@elsewhere.test", Subject: "Hi" }, "Who are you?");

  const all = await call(env, "GET", "/replies");
  assert.equal(all.status, 200, all.text);
  const mine = all.body.filter((r: any) => [one.campaignId, two.campaignId].includes(r.campaign_id));
  assert.deepEqual(
    mine.map((r: any) => r.id),
    [third, auto, first],
  );
  const top = mine[2];
  assert.deepEqual(
    Object.keys(top).sort(),
    [
      "campaign_id",
      "category",
      "category_source",
      "contact_id",
      "credential_id",
      "enrollment_id",
      "from_email",
      "from_name",
      "id",
      "kind",
      "message_id",
      "received_at",
      "sent_at",
      "snippet",
      "subject",
    ].sort(),
  );
  assert.equal(top.kind, "reply");
  assert.equal(top.snippet, "First answer.");
  assert.equal(top.from_name, "Maria");
  assert.equal(top.subject, "Re: Hello");
  assert.equal(top.credential_id, one.credentialId);
  assert.match(top.message_id, /^<.+@contoso\.test>$/);
  assert.ok(mine[0].snippet.length <= 200 && mine[0].snippet.endsWith("\u2026"));

  const ofOne = await call(env, "GET", `/replies?campaign_id=${one.campaignId}`);
  assert.deepEqual(
    ofOne.body.map((r: any) => r.id),
    [auto, first],
  );
  const autos = await call(env, "GET", `/replies?campaign_id=${one.campaignId}&kind=auto_reply`);
  assert.deepEqual(
    autos.body.map((r: any) => r.id),
    [auto],
  );
  const page1 = await call(env, "GET", `/replies?campaign_id=${one.campaignId}&limit=1`);
  assert.deepEqual(
    page1.body.map((r: any) => r.id),
    [auto],
  );
  const page2 = await call(env, "GET", `/replies?campaign_id=${one.campaignId}&limit=1&starting_after=${auto}`);
  assert.deepEqual(
    page2.body.map((r: any) => r.id),
    [first],
  );
  const page3 = await call(env, "GET", `/replies?campaign_id=${one.campaignId}&limit=1&starting_after=${first}`);
  assert.deepEqual(page3.body, []);
});

test("GET /replies refuses bad parameters and other accounts' campaigns", async () => {
  const theirs = await campaignWithInbox(env.b.accountId);
  const theirReply = await replyFrom(env.b.accountId, theirs, `b-${randomUUID().slice(0, 6)}@contoso.test`);
  assertEnvelope(env, await call(env, "GET", `/replies?campaign_id=${theirs.campaignId}`), 404, "campaign_not_found");
  assertEnvelope(env, await call(env, "GET", `/replies?campaign_id=${randomUUID()}`), 404, "campaign_not_found");
  assertEnvelope(env, await call(env, "GET", "/replies?campaign_id=not-a-uuid"), 404, "campaign_not_found");
  const badLimit = await call(env, "GET", "/replies?limit=0");
  assertEnvelope(env, badLimit, 422, "validation_failed");
  assert.equal(badLimit.body.details.errors[0].field, "limit");
  const badKind = await call(env, "GET", "/replies?kind=bounce");
  assertEnvelope(env, badKind, 422, "validation_failed");
  assert.equal(badKind.body.details.errors[0].field, "kind");
  const foreignCursor = await call(env, "GET", `/replies?starting_after=${theirReply}`);
  assertEnvelope(env, foreignCursor, 422, "validation_failed");
  assert.equal(foreignCursor.body.details.errors[0].field, "starting_after");
  // B sees its own reply, A never does
  const listB = await call(env, "GET", "/replies", { token: env.b.token });
  assert.ok(listB.body.some((r: any) => r.id === theirReply));
  const listA = await call(env, "GET", "/replies");
  assert.ok(!listA.body.some((r: any) => r.id === theirReply));
});

test("GET /replies/:id has the whole text without the quote and the answers; unknown, foreign and unmatched ids are 404", async () => {
  const accountId = env.a.accountId;
  const inbox = await campaignWithInbox(accountId);
  const id = await replyFrom(accountId, inbox, `r-${randomUUID().slice(0, 6)}@contoso.test`, "Yes.\r\nTuesday at 10 works for me.");
  const res = await call(env, "GET", `/replies/${id}`);
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.id, id);
  assert.equal(res.body.body_text, "Yes.\nTuesday at 10 works for me.");
  assert.deepEqual(res.body.answers, []);
  assert.equal(res.body.snippet, undefined);

  assertEnvelope(env, await call(env, "GET", `/replies/${randomUUID()}`), 404, "reply_not_found");
  assertEnvelope(env, await call(env, "GET", "/replies/nope"), 404, "reply_not_found");
  assertEnvelope(env, await call(env, "GET", `/replies/${id}`, { token: env.b.token }), 404, "reply_not_found");
  const unmatched = await arrive(accountId, inbox, { From: "stranger@elsewhere.test", Subject: "Hi" }, "Who are you?");
  assertEnvelope(env, await call(env, "GET", `/replies/${unmatched}`), 404, "reply_not_found");
});

test("POST /replies/:id/answer records a queued answer threaded to the reply and queues its send", async () => {
  const accountId = env.a.accountId;
  const inbox = await campaignWithInbox(accountId);
  const id = await replyFrom(accountId, inbox, `q-${randomUUID().slice(0, 6)}@contoso.test`, "Tell me more.", "RE: Re: Hello");
  const res = await call(env, "POST", `/replies/${id}/answer`, { body: { body_html: "<p>Sure, here is more.</p>" } });
  assert.equal(res.status, 202, res.text);
  assert.deepEqual(Object.keys(res.body).sort(), ["created_at", "error", "id", "reply_id", "sent_at", "state", "subject"]);
  assert.equal(res.body.state, "queued");
  assert.equal(res.body.reply_id, id);
  assert.equal(res.body.subject, "Re: Hello", "one Re: however many the reply had");
  const row = await db.replyAnswer.findUniqueOrThrow({ where: { id: res.body.id } });
  assert.equal(row.credentialId, inbox.credentialId);
  assert.equal(row.messageId, `<${row.id}@sender.test>`);
  assert.equal(row.limitDay.toISOString(), utcMidnight().toISOString());
  assert.deepEqual(await probe.jobs(), [{ accountId, answerId: row.id }]);

  const subjectGiven = await call(env, "POST", `/replies/${id}/answer`, { body: { answer: { body_html: "<p>More.</p>", subject: "  Our pricing  " } } });
  assert.equal(subjectGiven.status, 202, subjectGiven.text);
  assert.equal(subjectGiven.body.subject, "Our pricing");

  const read = await call(env, "GET", `/replies/${id}`);
  assert.deepEqual(
    read.body.answers.map((a: any) => [a.id, a.state, a.subject]),
    [
      [res.body.id, "queued", "Re: Hello"],
      [subjectGiven.body.id, "queued", "Our pricing"],
    ],
  );
});

test("POST /replies/:id/answer validates its body (422 naming the field) and 404s replies it cannot see", async () => {
  const accountId = env.a.accountId;
  const inbox = await campaignWithInbox(accountId);
  const id = await replyFrom(accountId, inbox, `v-${randomUUID().slice(0, 6)}@contoso.test`);
  const cases: Array<[unknown, string]> = [
    [{}, "body_html"],
    [{ body_html: "" }, "body_html"],
    [{ body_html: "<p>a\u0000b</p>" }, "body_html"],
    [{ body_html: `<p>${"x".repeat(524_288)}</p>` }, "body_html"],
    [{ body_html: "<p>x</p>", subject: "two\r\nlines" }, "subject"],
    // a line break at either end is refused too, not trimmed away
    [{ body_html: "<p>x</p>", subject: "Pricing\r\n" }, "subject"],
    [{ body_html: "<p>x</p>", subject: "\r\nBcc: x@y.test" }, "subject"],
    [{ body_html: "<p>x</p>", subject: "Pricing\n" }, "subject"],
    [{ body_html: "<p>x</p>", subject: "   " }, "subject"],
    [{ body_html: "<p>x</p>", subject: "" }, "subject"],
    [{ body_html: "<p>x</p>", bcc: "x@y.test" }, "bcc"],
  ];
  for (const [body, field] of cases) {
    const res = await call(env, "POST", `/replies/${id}/answer`, { body });
    assertEnvelope(env, res, 422, "validation_failed");
    assert.ok(
      res.body.details.errors.some((e: any) => e.field === field),
      `${field}: ${res.text.slice(0, 300)}`,
    );
  }
  assertEnvelope(env, await call(env, "POST", `/replies/${randomUUID()}/answer`, { body: { body_html: "<p>x</p>" } }), 404, "reply_not_found");
  assertEnvelope(env, await call(env, "POST", `/replies/${id}/answer`, { token: env.b.token, body: { body_html: "<p>x</p>" } }), 404, "reply_not_found");
  assert.equal(await db.replyAnswer.count({ where: { inboundMessageId: id } }), 0);
});

test("POST /replies/:id/answer: 422 mailbox_unavailable for a disabled inbox", async () => {
  const accountId = env.a.accountId;
  const inbox = await campaignWithInbox(accountId);
  const id = await replyFrom(accountId, inbox, `d-${randomUUID().slice(0, 6)}@contoso.test`);
  await db.smtpCredential.update({ where: { id: inbox.credentialId }, data: { disabledAt: new Date() } });
  assertEnvelope(env, await call(env, "POST", `/replies/${id}/answer`, { body: { body_html: "<p>x</p>" } }), 422, "mailbox_unavailable");
  assert.equal(await db.replyAnswer.count({ where: { inboundMessageId: id } }), 0);
});

test("an answer counts against its mailbox's day: 422 mailbox_limit_reached once step-1 sends and answers of every credential on it reach daily_limit", async () => {
  const accountId = env.a.accountId;
  const username = `shared-${randomUUID().slice(0, 6)}@sender.test`;
  const inbox = await campaignWithInbox(accountId, { username, dailyLimit: 3 });
  // another campaign's credential on the same mailbox: its step-1 send counts too
  const sibling = await campaignWithInbox(accountId, { username, dailyLimit: 3 });
  await sibling.enroll(`s-${randomUUID().slice(0, 6)}@contoso.test`);
  const id = await replyFrom(accountId, inbox, `l-${randomUUID().slice(0, 6)}@contoso.test`);
  // used: 2 step-1 sends
  const ok = await call(env, "POST", `/replies/${id}/answer`, { body: { body_html: "<p>One.</p>" } });
  assert.equal(ok.status, 202, ok.text);
  // used: 3 = daily_limit; the planner sees the mailbox's day as full as well
  assert.equal(await allCredentialsAtDailyLimit(db, inbox.campaignId), true);
  const refused = await call(env, "POST", `/replies/${id}/answer`, { body: { body_html: "<p>Two.</p>" } });
  assertEnvelope(env, refused, 422, "mailbox_limit_reached");
  assert.deepEqual(refused.body.details, { daily_limit: 3, used: 3 });
  // a failed answer gives its place back
  await db.replyAnswer.update({ where: { id: ok.body.id }, data: { state: "failed" } });
  assert.equal(await allCredentialsAtDailyLimit(db, inbox.campaignId), false);
  const again = await call(env, "POST", `/replies/${id}/answer`, { body: { body_html: "<p>Two.</p>" } });
  assert.equal(again.status, 202, again.text);
});

test("POST /replies/:id/answer with an Idempotency-Key answers once", async () => {
  const accountId = env.a.accountId;
  const inbox = await campaignWithInbox(accountId);
  const id = await replyFrom(accountId, inbox, `i-${randomUUID().slice(0, 6)}@contoso.test`);
  const headers = { "idempotency-key": `answer-${randomUUID()}` };
  const first = await call(env, "POST", `/replies/${id}/answer`, { headers, body: { body_html: "<p>Once.</p>" } });
  const second = await call(env, "POST", `/replies/${id}/answer`, { headers, body: { body_html: "<p>Once.</p>" } });
  assert.equal(first.status, 202, first.text);
  assert.equal(second.status, 202);
  assert.equal(second.headers.get("idempotent-replay"), "true");
  assert.equal(second.body.id, first.body.id);
  assert.equal(await db.replyAnswer.count({ where: { inboundMessageId: id } }), 1);
  assertEnvelope(env, await call(env, "POST", `/replies/${id}/answer`, { headers, body: { body_html: "<p>Other.</p>" } }), 409, "idempotency_conflict");
});

test("replies carry their category: GET /replies?category=, PATCH /replies/:id corrects it (manual) and runs its actions, GET /campaigns/:id counts them", async () => {
  const accountId = env.a.accountId;
  const inbox = await campaignWithInbox(accountId);
  const keen = await replyFrom(accountId, inbox, `keen-${randomUUID().slice(0, 6)}@contoso.test`, "This sounds interesting. Can we schedule a call next week?");
  const vague = await replyFrom(accountId, inbox, `vague-${randomUUID().slice(0, 6)}@contoso.test`, "Received.");

  const listed = await call(env, "GET", `/replies?campaign_id=${inbox.campaignId}`);
  assert.deepEqual(
    listed.body.map((r: any) => [r.id, r.category, r.category_source]),
    [
      [vague, "other", "rules"],
      [keen, "interested", "rules"],
    ],
  );
  const interested = await call(env, "GET", `/replies?campaign_id=${inbox.campaignId}&category=interested`);
  assert.deepEqual(
    interested.body.map((r: any) => r.id),
    [keen],
  );
  assertEnvelope(env, await call(env, "GET", "/replies?category=excited"), 422, "validation_failed");

  // a person's correction: an unsubscribe request unsubscribes the contact (the campaign's unsubscribe_on_request is on)
  const corrected = await call(env, "PATCH", `/replies/${vague}`, { body: { reply: { category: "unsubscribe_request" } } });
  assert.equal(corrected.status, 200, corrected.text);
  assert.equal(corrected.body.category, "unsubscribe_request");
  assert.equal(corrected.body.category_source, "manual");
  assert.equal(corrected.body.id, vague);
  const enrollmentId = (await db.inboundMessage.findUniqueOrThrow({ where: { id: vague } })).enrollmentId!;
  const enrollment = await db.enrollment.findUniqueOrThrow({ where: { id: enrollmentId }, include: { contact: true } });
  assert.notEqual(enrollment.contact.unsubscribedAt, null);
  assert.equal(await db.blocklistEntry.count({ where: { accountId, value: enrollment.contact.email } }), 1);
  // the same again changes nothing; no body, a bad category and an unknown reply are refused
  assert.equal((await call(env, "PATCH", `/replies/${vague}`, { body: { category: "unsubscribe_request" } })).status, 200);
  assertEnvelope(env, await call(env, "PATCH", `/replies/${vague}`, { body: { category: "maybe" } }), 422, "validation_failed");
  assertEnvelope(env, await call(env, "PATCH", `/replies/${vague}`, { body: {} }), 422, "validation_failed");
  assertEnvelope(env, await call(env, "PATCH", `/replies/${randomUUID()}`, { body: { category: "other" } }), 404, "reply_not_found");
  assertEnvelope(env, await call(env, "PATCH", `/replies/${vague}`, { body: { category: "other" }, token: env.b.token }), 404, "reply_not_found");

  // reply.categorized: the rules' category, then the one correction (opt-in delivery: test/engine and the deliverer's tests)
  const events = await db.event.findMany({ where: { accountId, type: "reply.categorized" }, orderBy: { createdAt: "asc" } });
  const ofVague = events.map((e) => e.data as Record<string, unknown>).filter((data) => data.reply_id === vague);
  assert.deepEqual(
    ofVague.map((data) => [data.category, data.category_source, data.previous_category]),
    [
      ["other", "rules", null],
      ["unsubscribe_request", "manual", "other"],
    ],
  );

  const campaign = await call(env, "GET", `/campaigns/${inbox.campaignId}`);
  assert.equal(campaign.status, 200, campaign.text);
  assert.deepEqual(campaign.body.replies_by_category, { interested: 1, not_interested: 0, out_of_office: 0, unsubscribe_request: 1, wrong_person: 0, other: 0 });
});

test("GET /campaigns/:id/enrollments/:enrollment_id shows an enrollment with resume_at and its moves; 404s what it cannot see", async () => {
  const accountId = env.a.accountId;
  const inbox = await campaignWithInbox(accountId);
  const sent = await inbox.enroll(`away-${randomUUID().slice(0, 6)}@contoso.test`);
  const step2 = await db.stepSend.create({
    data: { accountId, campaignId: inbox.campaignId, enrollmentId: sent.enrollmentId, stepPosition: 2, credentialId: inbox.credentialId, state: "scheduled", dueAt: new Date(Date.now() + 3_600_000) },
  });
  await arrive(
    accountId,
    inbox,
    { From: `away@contoso.test`, Subject: "Out of office: Hello", "Auto-Submitted": "auto-replied", "In-Reply-To": sent.messageId },
    "I am on vacation and back on Monday next week... or later.",
  );
  const got = await call(env, "GET", `/campaigns/${inbox.campaignId}/enrollments/${sent.enrollmentId}`);
  assert.equal(got.status, 200, got.text);
  assert.equal(got.body.enrollment_id, sent.enrollmentId);
  assert.equal(got.body.status, "sent");
  const moved = await db.stepSend.findUniqueOrThrow({ where: { id: step2.id } });
  assert.equal(got.body.resume_at, moved.dueAt.toISOString());
  assert.ok(moved.dueAt.getTime() > Date.now() + 86_400_000);
  assert.equal(got.body.completed_at, null);
  assert.equal(got.body.moved_from_enrollment_id, null);
  assertEnvelope(env, await call(env, "GET", `/campaigns/${inbox.campaignId}/enrollments/${randomUUID()}`), 404, "enrollment_not_found");
  assertEnvelope(env, await call(env, "GET", `/campaigns/${inbox.campaignId}/enrollments/not-a-uuid`), 404, "enrollment_not_found");
  assertEnvelope(env, await call(env, "GET", `/campaigns/${inbox.campaignId}/enrollments/${sent.enrollmentId}`, { token: env.b.token }), 404, "campaign_not_found");
});
