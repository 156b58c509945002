import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { test } from "node:test";
import { Keyring } from "@outreach/core";
import { classifyInbound, readInbound, recordInboundMessage } from "@outreach/domain";
import { sealedCredentialSecrets } from "@outreach/testing";
import { waitFor } from "./harness.js";
import { addWatchedInbox as addWatchedInboxOf, mailEngineForFile } from "./watched-inbox.js";

// The whole path of a reply: step 1 out through the real sender to the SMTP test server, the contact's
// reply into the inbox on the IMAP test server (Dovecot where installed), detected by the real poller,
// read and answered through the API, the answer out through the same inbox, threaded.
const env = mailEngineForFile();

const addWatchedInbox = (accountId: string, campaignId: string, inbox: string, fromName?: string) => addWatchedInboxOf(env.engine, env.imap, accountId, campaignId, inbox, fromName);

test("a reply is read back through the API without its quote, and the answer arrives threaded through the same inbox", async () => {
  const { db, smtp } = env.engine;
  const tag = randomUUID().slice(0, 8);
  const { accountId, token } = await env.api.signUp(`replies-${tag}@example.test`);
  const inbox = `inbox-${tag}@sender.test`;
  const contactEmail = `maria-${tag}@contoso.test`;
  const campaign = await db.campaign.create({
    data: {
      accountId,
      name: "Replies",
      minWaitSeconds: 0,
      maxWaitSeconds: 0,
      steps: { create: [{ position: 1, subject: "Hello {{first_name}}", bodyHtml: "<p>Hi {{first_name}}, a quick question.</p>" }] },
    },
  });
  const credential = await addWatchedInbox(accountId, campaign.id, inbox, "Jordan Lee");
  const contact = await db.contact.create({ data: { accountId, email: contactEmail, firstName: "Maria" } });
  await db.enrollment.create({ data: { accountId, campaignId: campaign.id, contactId: contact.id, batchNumber: 1 } });

  await env.engine.dispatch(accountId, campaign.id);
  const [step1] = await waitFor(() => (smtp.messagesTo(contactEmail).length === 1 ? smtp.messagesTo(contactEmail) : undefined), { what: "step 1", timeoutMs: 30_000 });
  const step1Id = step1!.parsed.messageId!;
  assert.equal(step1!.parsed.subject, "Hello Maria");

  await waitFor(async () => (await db.smtpCredential.findUniqueOrThrow({ where: { id: credential.id } })).imapUidValidity !== null, { what: "the inbox to be watched", timeoutMs: 30_000 });
  const replyId = `<reply-${tag}@contoso.test>`;
  const reply = [
    `From: Maria Keller <${contactEmail}>`,
    `To: Jordan Lee <${inbox}>`,
    "Subject: Re: Hello Maria",
    `Date: ${new Date().toUTCString()}`,
    `Message-ID: ${replyId}`,
    `In-Reply-To: ${step1Id}`,
    `References: ${step1Id}`,
    "MIME-Version: 1.0",
    "Content-Type: text/plain; charset=utf-8",
    "",
    "Yes, let's talk on Tuesday.",
    "",
    `On Mon, Mar 3, 2025 at 10:00 AM Jordan Lee <${inbox}> wrote:`,
    "> Hi Maria, a quick question.",
    "",
  ].join("\r\n");
  await env.imap.appendMessage(inbox, reply);

  const listed = await waitFor(
    async () => {
      const res = await env.api.call("GET", `/replies?campaign_id=${campaign.id}`, token);
      return res.status === 200 && res.body.length === 1 ? res.body[0] : undefined;
    },
    { what: "the reply in GET /replies", timeoutMs: 30_000 },
  );
  assert.equal(listed.kind, "reply");
  assert.equal(listed.from_email, contactEmail);
  assert.equal(listed.from_name, "Maria Keller");
  assert.equal(listed.message_id, replyId);
  assert.equal(listed.contact_id, contact.id);
  assert.equal(listed.snippet, "Yes, let's talk on Tuesday.");

  const read = await env.api.call("GET", `/replies/${listed.id}`, token);
  assert.equal(read.status, 200, read.text);
  assert.equal(read.body.body_text, "Yes, let's talk on Tuesday.");
  assert.equal(read.body.subject, "Re: Hello Maria");

  const answered = await env.api.call("POST", `/replies/${listed.id}/answer`, token, { body_html: "<p>Great, Tuesday 10:00 then.</p>" });
  assert.equal(answered.status, 202, answered.text);
  assert.equal(answered.body.subject, "Re: Hello Maria");

  const answer = await waitFor(() => smtp.messagesTo(contactEmail)[1], { what: "the answer at the SMTP server", timeoutMs: 30_000 });
  assert.equal(answer.username, inbox, "sent through the reply's inbox");
  assert.equal(answer.envelope.from, inbox);
  assert.equal(answer.parsed.from?.value[0]?.address, inbox);
  assert.equal(answer.parsed.subject, "Re: Hello Maria");
  assert.equal(answer.parsed.inReplyTo, replyId);
  const references = ([] as string[]).concat(answer.parsed.references ?? []);
  assert.deepEqual(references, [step1Id, replyId]);
  assert.match(answer.parsed.messageId!, new RegExp(`^<${answered.body.id}@sender\\.test>$`));
  assert.match(String(answer.parsed.html), /Tuesday 10:00/);
  assert.match(answer.parsed.text ?? "", /Tuesday 10:00/);
  // a personal answer: no unsubscribe header or link, no tracking pixel
  assert.equal(answer.parsed.headers.get("list-unsubscribe"), undefined);
  assert.doesNotMatch(String(answer.parsed.html), /outreach\.test/);

  const after = await waitFor(
    async () => {
      const res = await env.api.call("GET", `/replies/${listed.id}`, token);
      return res.body.answers[0]?.state === "sent" ? res.body : undefined;
    },
    { what: "the answer recorded sent", timeoutMs: 15_000 },
  );
  assert.ok(after.answers[0].sent_at);
  assert.equal(after.answers[0].error, null);
  // the answer is not a sequence step: one enrollment.sent event, for step 1
  assert.equal(await db.event.count({ where: { accountId, type: "enrollment.sent" } }), 1);
});

/** A campaign whose inbox sends through the SMTP test server, with a contact's reply recorded as the poller records it. */
async function seedReply(tag: string) {
  const { db, smtp, config } = env.engine;
  const { accountId, token } = await env.api.signUp(`answers-${tag}@example.test`);
  const inbox = `answers-${tag}@sender.test`;
  const contactEmail = `sam-${tag}@contoso.test`;
  const campaign = await db.campaign.create({ data: { accountId, name: "Answers", status: "active" } });
  const credential = await db.smtpCredential.create({
    data: {
      accountId,
      campaignId: campaign.id,
      label: "Inbox",
      fromEmail: inbox,
      smtpHost: smtp.host,
      smtpPort: smtp.port,
      smtpSecure: false,
      smtpUsername: inbox,
      ...sealedCredentialSecrets(Keyring.fromConfig(config), "secret"),
      dailyLimit: 100,
    },
  });
  const contact = await db.contact.create({ data: { accountId, email: contactEmail } });
  const enrollment = await db.enrollment.create({ data: { accountId, campaignId: campaign.id, contactId: contact.id, status: "sent", sentAt: new Date(), credentialId: credential.id } });
  const step1Id = `<${randomUUID()}@sender.test>`;
  await db.stepSend.create({
    data: { accountId, campaignId: campaign.id, enrollmentId: enrollment.id, stepPosition: 1, credentialId: credential.id, state: "sent", dueAt: new Date(), sentAt: new Date(), messageId: step1Id },
  });
  const message = await readInbound([`From: ${contactEmail}`, `To: ${inbox}`, "Subject: Re: Hi", `Message-ID: <r-${tag}@contoso.test>`, `In-Reply-To: ${step1Id}`, "", "Interested.", ""].join("\r\n"));
  await db.$transaction((tx) => recordInboundMessage(tx, { credentialId: credential.id, accountId, uidValidity: 1n, uid: 1n }, message, classifyInbound(message)));
  const [reply] = (await env.api.call("GET", "/replies", token)).body;
  return { token, contactEmail, replyId: reply.id as string };
}

const answerOf = async (token: string, replyId: string) => (await env.api.call("GET", `/replies/${replyId}`, token)).body.answers[0];

test("an answer refused for good is failed with the server's answer; a temporary refusal is retried, then sent", async () => {
  const { smtp } = env.engine;
  const refused = await seedReply(randomUUID().slice(0, 8));
  smtp.rejectRecipient(refused.contactEmail, 550, "5.1.1 no such user");
  const res = await env.api.call("POST", `/replies/${refused.replyId}/answer`, refused.token, { body_html: "<p>Hello?</p>" });
  assert.equal(res.status, 202, res.text);
  const failed = await waitFor(
    async () => {
      const answer = await answerOf(refused.token, refused.replyId);
      return answer?.state === "failed" ? answer : undefined;
    },
    { what: "the refused answer failed", timeoutMs: 30_000 },
  );
  assert.match(failed.error, /no such user/);
  assert.equal(failed.sent_at, null);

  const later = await seedReply(randomUUID().slice(0, 8));
  smtp.setRecipientRule(later.contactEmail, { code: 451, message: "4.7.1 try again later", times: 1 });
  const queued = await env.api.call("POST", `/replies/${later.replyId}/answer`, later.token, { body_html: "<p>Hello again.</p>" });
  assert.equal(queued.status, 202, queued.text);
  await waitFor(async () => (await answerOf(later.token, later.replyId))?.error?.includes("try again later") || undefined, { what: "the temporary refusal recorded", timeoutMs: 30_000 });
  const sent = await waitFor(
    async () => {
      const answer = await answerOf(later.token, later.replyId);
      return answer?.state === "sent" ? answer : undefined;
    },
    { what: "the answer sent on its retry", timeoutMs: 60_000 },
  );
  assert.equal(sent.error, null);
  assert.equal(smtp.messagesTo(later.contactEmail).length, 1);
  assert.equal((await env.engine.db.replyAnswer.findUniqueOrThrow({ where: { id: sent.id } })).attempts, 2);
});

test("stop_on_reply_scope domain: a reply from one person at a company stops the campaign's others there; free-mail stops nobody else", async () => {
  const { db, smtp } = env.engine;
  const tag = randomUUID().slice(0, 8);
  const { accountId, token } = await env.api.signUp(`company-${tag}@example.test`);
  const inbox = `company-${tag}@sender.test`;
  const campaign = await db.campaign.create({
    data: {
      accountId,
      name: "Company stop",
      minWaitSeconds: 0,
      maxWaitSeconds: 0,
      stopOnReplyScope: "domain",
      steps: {
        create: [
          { position: 1, subject: "Hello {{first_name}}", bodyHtml: "<p>Hi</p>" },
          { position: 2, subject: "", bodyHtml: "<p>Following up</p>", delayMinutes: 60 },
        ],
      },
    },
  });
  const credential = await addWatchedInbox(accountId, campaign.id, inbox);
  const addresses = [`ceo-${tag}@acme.test`, `cfo-${tag}@acme.test`, `ann-${tag}@gmail.com`, `bob-${tag}@gmail.com`];
  const enrollments = new Map<string, string>();
  for (const email of addresses) {
    const contact = await db.contact.create({ data: { accountId, email, firstName: email.split("-")[0] } });
    enrollments.set(email, (await db.enrollment.create({ data: { accountId, campaignId: campaign.id, contactId: contact.id } })).id);
  }
  await env.engine.dispatch(accountId, campaign.id);
  await waitFor(() => addresses.every((email) => smtp.messagesTo(email).length === 1), { what: "step 1 to all four", timeoutMs: 30_000 });
  await waitFor(async () => (await db.smtpCredential.findUniqueOrThrow({ where: { id: credential.id } })).imapUidValidity !== null, { what: "the inbox to be watched", timeoutMs: 30_000 });

  const replyFrom = (email: string) =>
    [
      `From: <${email}>`,
      `To: <${inbox}>`,
      "Subject: Re: Hello",
      `Date: ${new Date().toUTCString()}`,
      `Message-ID: <r-${randomUUID()}@example.test>`,
      `In-Reply-To: ${smtp.messagesTo(email)[0]!.parsed.messageId}`,
      "Content-Type: text/plain; charset=utf-8",
      "",
      "Not interested, thanks.",
      "",
    ].join("\r\n");
  const state = async (email: string) => db.enrollment.findUniqueOrThrow({ where: { id: enrollments.get(email)! } });

  await env.imap.appendMessage(inbox, replyFrom(addresses[0]!));
  const colleague = await waitFor(async () => ((await state(addresses[1]!)).stoppedAt ? state(addresses[1]!) : undefined), { what: "the colleague stopped", timeoutMs: 30_000 });
  assert.equal(colleague.stoppedReason, "company_replied");
  assert.equal(colleague.status, "sent", "the colleague's status stays: they did not reply");
  assert.equal((await state(addresses[0]!)).status, "replied");
  const step2 = await db.stepSend.findFirstOrThrow({ where: { enrollmentId: enrollments.get(addresses[1]!)!, stepPosition: 2 } });
  assert.equal(step2.state, "cancelled");
  for (const email of addresses.slice(2)) assert.equal((await state(email)).stoppedAt, null, `${email} is at another domain`);

  // a reply from a free-mail address stops only its own enrollment
  await env.imap.appendMessage(inbox, replyFrom(addresses[2]!));
  await waitFor(async () => (await state(addresses[2]!)).status === "replied", { what: "the gmail.com reply", timeoutMs: 30_000 });
  const other = await state(addresses[3]!);
  assert.equal(other.stoppedAt, null);
  assert.equal(other.status, "sent");
  assert.equal((await db.stepSend.findFirstOrThrow({ where: { enrollmentId: other.id, stepPosition: 2 } })).state, "scheduled");
  // the campaign's stats count the stop
  const stats = await env.api.call("GET", `/campaigns/${campaign.id}`, token);
  assert.equal(stats.body.totals.stopped, 1);
  assert.equal(stats.body.totals.replied, 2);
});
