import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, test } from "node:test";
import type { Db } from "@outreach/db";
import { createTestDatabase, type TestDatabase } from "@outreach/testing";
import { classifyInbound, readInbound, recordInboundMessage } from "../src/inbound/index.js";
import { FREE_MAIL_DOMAINS, isFreeMailDomain } from "../src/audience/free-mail-domains.js";
import { messageIdFor } from "../src/sending/build-step-email.js";
import { recordSent } from "../src/sending/send-outcome.js";

let database: TestDatabase;
let db: Db;
let uid = 0n;

before(async () => {
  database = await createTestDatabase();
  db = database.db;
});

after(async () => {
  await database?.drop();
});

interface Seeded {
  accountId: string;
  campaignId: string;
  credentialId: string;
  inbox: string;
  /** by contact address: the enrollment and step 1's Message-ID (with <>) */
  enrollments: Map<string, { id: string; messageId: string }>;
}

/** A campaign whose contacts got step 1 through one inbox, step 2 scheduled for each. */
async function seed(emails: string[], campaign: { stopOnReplyScope?: string; stopOnAutoReply?: boolean } = {}, accountId?: string): Promise<Seeded> {
  const tag = randomUUID().slice(0, 8);
  const now = new Date();
  if (!accountId) {
    const plan = await db.plan.findUniqueOrThrow({ where: { slug: "scale" } });
    accountId = (await db.account.create({ data: { email: `acct-${tag}@example.test`, planId: plan.id, currentPeriodEnd: new Date(now.getTime() + 30 * 86_400_000) } })).id;
  }
  const { id: campaignId } = await db.campaign.create({ data: { accountId, name: `Campaign ${tag}`, status: "active", ...campaign } });
  const inbox = `inbox-${tag}@sender.test`;
  const credential = await db.smtpCredential.create({
    data: { accountId, campaignId, label: "Inbox", fromEmail: inbox, smtpHost: "127.0.0.1", smtpPort: 25, smtpUsername: inbox, smtpPasswordEnc: "x", dailyLimit: 100 },
  });
  const enrollments = new Map<string, { id: string; messageId: string }>();
  for (const email of emails) {
    const contact = await db.contact.upsert({ where: { accountId_email: { accountId, email } }, create: { accountId, email }, update: {} });
    const enrollment = await db.enrollment.create({ data: { accountId, campaignId, contactId: contact.id, status: "sent", sentAt: now, credentialId: credential.id } });
    const messageId = `<${randomUUID()}@sender.test>`;
    await db.stepSend.createMany({
      data: [
        { accountId, campaignId, enrollmentId: enrollment.id, stepPosition: 1, credentialId: credential.id, state: "sent", dueAt: now, sentAt: now, messageId },
        { accountId, campaignId, enrollmentId: enrollment.id, stepPosition: 2, credentialId: credential.id, state: "scheduled", dueAt: new Date(now.getTime() + 86_400_000) },
      ],
    });
    enrollments.set(email, { id: enrollment.id, messageId });
  }
  return { accountId, campaignId, credentialId: credential.id, inbox, enrollments };
}

function raw(headers: Record<string, string>, body: string): string {
  const all = { Date: "Mon, 03 Mar 2025 10:15:00 +0000", "Message-ID": `<${randomUUID()}@mail.example>`, "MIME-Version": "1.0", "Content-Type": "text/plain; charset=utf-8", ...headers };
  return `${Object.entries(all)
    .map(([k, v]) => `${k}: ${v}`)
    .join("\r\n")}\r\n\r\n${body}\r\n`;
}

const replyFrom = (s: Seeded, email: string, extra: Record<string, string> = {}, body = "Sounds good, let's talk.\r\n\r\nOn Mon, Jordan wrote:\r\n> Hi") =>
  raw({ From: `Maria Keller <${email}>`, To: s.inbox, Subject: "Re: Hello", "In-Reply-To": s.enrollments.get(email)!.messageId, References: s.enrollments.get(email)!.messageId, ...extra }, body);

async function deliver(s: Seeded, message: string) {
  const parsed = await readInbound(message);
  uid += 1n;
  const outcome = await db.$transaction((tx) => recordInboundMessage(tx, { credentialId: s.credentialId, accountId: s.accountId, uidValidity: 1n, uid }, parsed, classifyInbound(parsed)));
  const row = await db.inboundMessage.findFirstOrThrow({ where: { credentialId: s.credentialId, uid } });
  return { outcome, row };
}

const enrollment = (id: string) => db.enrollment.findUniqueOrThrow({ where: { id } });
const step2 = async (id: string) => (await db.stepSend.findFirstOrThrow({ where: { enrollmentId: id, stepPosition: 2 } })).state;

test("a reply is stored with its account, campaign, sender, subject, Date, References and the text without the quote", async () => {
  const s = await seed(["maria@contoso.test"]);
  const e = s.enrollments.get("maria@contoso.test")!;
  const earlier = "<earlier@mail.example>";
  const { outcome, row } = await deliver(s, replyFrom(s, "maria@contoso.test", { References: `${earlier} ${e.messageId}`, Subject: "Re: Hello\u0000 there" }));
  assert.equal(outcome, "reply");
  assert.equal(row.kind, "reply");
  assert.equal(row.accountId, s.accountId);
  assert.equal(row.campaignId, s.campaignId);
  assert.equal(row.enrollmentId, e.id);
  assert.equal(row.fromEmail, "maria@contoso.test");
  assert.equal(row.fromName, "Maria Keller");
  assert.equal(row.subject, "Re: Hello there", "NUL characters are dropped");
  assert.equal(row.sentAt?.toISOString(), "2025-03-03T10:15:00.000Z");
  assert.deepEqual(row.references, ["earlier@mail.example", e.messageId.slice(1, -1)]);
  assert.equal(row.bodyText, "Sounds good, let's talk.");
  assert.equal((await enrollment(e.id)).status, "replied");
});

test("a message that is no reply keeps only its account: no text, subject or sender name", async () => {
  const s = await seed(["maria@contoso.test"]);
  const { outcome, row } = await deliver(s, raw({ From: "Someone <someone@elsewhere.test>", To: s.inbox, Subject: "Hello?" }, "Who is this?"));
  assert.equal(outcome, "unmatched");
  assert.equal(row.accountId, s.accountId);
  assert.equal(row.campaignId, null);
  assert.equal(row.bodyText, null);
  assert.equal(row.subject, null);
  assert.equal(row.fromName, null);
});

test("the stored text is bounded to 16 KiB", async () => {
  const s = await seed(["maria@contoso.test"]);
  const { row } = await deliver(s, replyFrom(s, "maria@contoso.test", {}, "word ".repeat(12_000)));
  assert.equal(row.bodyText!.length, 16 * 1024);
});

test("stop_on_reply_scope domain: a reply from acme stops the campaign's other acme enrollment; free-mail and other domains go on", async () => {
  const s = await seed(["ann@acme.test", "bob@acme.test", "gail@gmail.com", "gus@gmail.com", "olga@other.test"], { stopOnReplyScope: "domain" });
  // another campaign of the account with a contact at acme: not this campaign's, not stopped
  const sibling = await seed(["carl@acme.test"], { stopOnReplyScope: "domain" }, s.accountId);
  const id = (email: string) => s.enrollments.get(email)!.id;

  await deliver(s, replyFrom(s, "ann@acme.test"));
  assert.equal((await enrollment(id("ann@acme.test"))).status, "replied");
  const bob = await enrollment(id("bob@acme.test"));
  assert.equal(bob.status, "sent", "a stopped enrollment keeps its status: it did not reply");
  assert.equal(bob.stoppedReason, "company_replied");
  assert.ok(bob.stoppedAt);
  assert.equal(await step2(bob.id), "cancelled");
  for (const email of ["gail@gmail.com", "gus@gmail.com", "olga@other.test"]) {
    const other = await enrollment(id(email));
    assert.equal(other.stoppedAt, null, email);
    assert.equal(await step2(other.id), "scheduled", email);
  }
  const carl = await enrollment(sibling.enrollments.get("carl@acme.test")!.id);
  assert.equal(carl.stoppedAt, null);

  // a reply from a gmail.com contact stops nobody else at gmail.com
  await deliver(s, replyFrom(s, "gail@gmail.com"));
  assert.equal((await enrollment(id("gail@gmail.com"))).status, "replied");
  const gus = await enrollment(id("gus@gmail.com"));
  assert.equal(gus.stoppedAt, null);
  assert.equal(await step2(gus.id), "scheduled");
  assert.equal(await db.event.count({ where: { accountId: s.accountId, type: "enrollment.replied" } }), 2);
});

test("stop_on_reply_scope contact (the default): a reply stops only its own enrollment", async () => {
  const s = await seed(["ann@acme.test", "bob@acme.test"]);
  await deliver(s, replyFrom(s, "ann@acme.test"));
  const bob = await enrollment(s.enrollments.get("bob@acme.test")!.id);
  assert.equal(bob.stoppedAt, null);
  assert.equal(await step2(bob.id), "scheduled");
});

/** Step 1 of a new enrollment handed to SMTP but not recorded yet: sending, no Message-ID stored, the enrollment pending. */
async function unrecordedSend(s: Seeded, email: string) {
  const contact = await db.contact.create({ data: { accountId: s.accountId, email } });
  const enrollment = await db.enrollment.create({ data: { accountId: s.accountId, campaignId: s.campaignId, contactId: contact.id, status: "pending" } });
  const now = new Date();
  const send = await db.stepSend.create({
    data: { accountId: s.accountId, campaignId: s.campaignId, enrollmentId: enrollment.id, stepPosition: 1, credentialId: s.credentialId, state: "sending", dueAt: now, claimedAt: now },
  });
  await db.stepSend.create({
    data: { accountId: s.accountId, campaignId: s.campaignId, enrollmentId: enrollment.id, stepPosition: 2, state: "scheduled", dueAt: new Date(now.getTime() + 86_400_000) },
  });
  return { enrollmentId: enrollment.id, stepSendId: send.id, messageId: messageIdFor(send.id, s.inbox) };
}

test("a reply to an email whose send is not recorded yet finds it by the send's id in our Message-ID; the late record keeps it replied", async () => {
  const s = await seed([]);
  const late = await unrecordedSend(s, "nora@late.test");
  const cited = late.messageId.toUpperCase(); // a client may change the case: ids are compared lower-cased
  const { outcome, row } = await deliver(s, raw({ From: `Nora <nora@late.test>`, To: s.inbox, Subject: "Re: Hello", "In-Reply-To": cited, References: cited }, "Yes, interested."));
  assert.equal(outcome, "reply");
  assert.equal(row.enrollmentId, late.enrollmentId);
  assert.equal((await enrollment(late.enrollmentId)).status, "replied");
  assert.equal(await step2(late.enrollmentId), "cancelled");

  const account = await db.account.findUniqueOrThrow({ where: { id: s.accountId } });
  await db.$transaction((tx) =>
    recordSent(tx, {
      stepSendId: late.stepSendId,
      accountId: s.accountId,
      credentialId: s.credentialId,
      messageId: late.messageId,
      accountPeriod: { start: account.currentPeriodStart, end: account.currentPeriodEnd! },
    }),
  );
  assert.equal((await db.stepSend.findUniqueOrThrow({ where: { id: late.stepSendId } })).state, "sent");
  const after = await enrollment(late.enrollmentId);
  assert.equal(after.status, "replied", "the record of the send does not take the enrollment back to sent");
  assert.equal(await db.event.count({ where: { accountId: s.accountId, type: "enrollment.replied" } }), 1);
});

test("a cited Message-ID made of another account's send id matches nothing", async () => {
  const mine = await seed([]);
  const theirs = await seed([]);
  const late = await unrecordedSend(theirs, "nora@late.test");
  const { outcome } = await deliver(mine, raw({ From: `Nora <nora@late.test>`, To: mine.inbox, Subject: "Re: Hello", "In-Reply-To": late.messageId }, "Yes."));
  assert.equal(outcome, "unmatched");
  assert.equal((await enrollment(late.enrollmentId)).status, "pending");
});

const outOfOffice = (s: Seeded, email: string) =>
  raw(
    { From: `Ann <${email}>`, To: s.inbox, Subject: "Automatic reply: Hello", "Auto-Submitted": "auto-replied", "In-Reply-To": s.enrollments.get(email)!.messageId },
    "I am out of the office until Monday.",
  );

test("stop_on_auto_reply off: an out-of-office is stored with its enrollment and changes nothing", async () => {
  const s = await seed(["ann@acme.test"]);
  const e = s.enrollments.get("ann@acme.test")!;
  const { outcome, row } = await deliver(s, outOfOffice(s, "ann@acme.test"));
  assert.equal(outcome, "auto_reply");
  assert.equal(row.kind, "auto_reply");
  assert.equal(row.enrollmentId, e.id);
  assert.equal(row.campaignId, s.campaignId);
  assert.equal(row.bodyText, "I am out of the office until Monday.");
  assert.equal((await enrollment(e.id)).status, "sent");
  assert.equal(await step2(e.id), "scheduled");
  assert.equal(await db.event.count({ where: { accountId: s.accountId, type: "enrollment.replied" } }), 0);
});

test("stop_on_auto_reply on: an out-of-office counts as the reply, with the domain scope", async () => {
  const s = await seed(["ann@acme.test", "bob@acme.test"], { stopOnAutoReply: true, stopOnReplyScope: "domain" });
  const ann = s.enrollments.get("ann@acme.test")!;
  const { outcome, row } = await deliver(s, outOfOffice(s, "ann@acme.test"));
  assert.equal(outcome, "auto_reply");
  assert.equal(row.kind, "auto_reply");
  assert.equal(row.enrollmentId, ann.id);
  const replied = await enrollment(ann.id);
  assert.equal(replied.status, "replied");
  assert.ok(replied.repliedAt);
  assert.equal(await step2(ann.id), "cancelled");
  const events = await db.event.findMany({ where: { accountId: s.accountId, type: "enrollment.replied" } });
  assert.equal(events.length, 1);
  assert.equal((events[0]!.data as { enrollment_id: string }).enrollment_id, ann.id);
  assert.equal((await enrollment(s.enrollments.get("bob@acme.test")!.id)).stoppedReason, "company_replied");
});

test("the free-mail table is one set of exact, lower-case domains", () => {
  assert.ok(FREE_MAIL_DOMAINS.size >= 50 && FREE_MAIL_DOMAINS.size <= 150);
  for (const domain of FREE_MAIL_DOMAINS) assert.equal(domain, domain.toLowerCase().trim());
  assert.ok(isFreeMailDomain("gmail.com") && isFreeMailDomain("GMAIL.com") && isFreeMailDomain("yahoo.co.uk"));
  assert.ok(!isFreeMailDomain("acme.test") && !isFreeMailDomain("mail.google.com"));
});
