import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Keyring } from "@outreach/core";
import type { Db } from "@outreach/db";
import { waitFor, type ImapTestServer } from "@outreach/testing";
import {
  bareBounce,
  enrollmentStatus,
  eventsOf,
  inboundFixture,
  mail,
  postfixUserUnknownDsn,
  seedInbox,
  startPollerFixture,
  waitUntilWatched,
  type PollerFixture,
  type SeededEnrollment,
  type SeededInbox,
} from "./helpers.js";

// DSNs and mailto unsubscribes found in a watched inbox, through the real poller and a real IMAP server.
let pollerFixture: PollerFixture | undefined;
let imap: ImapTestServer;
let db: Db;
let keyring: Keyring;

before(async () => {
  pollerFixture = await startPollerFixture({ startPoller: true });
  ({ imap, db, keyring } = pollerFixture);
});
after(() => pollerFixture?.stop());

/** A Postfix "delayed mail" report (4.4.7, still being retried) about step 1 of this enrollment. */
function delayedDsn(s: SeededInbox, e: SeededEnrollment): string {
  return inboundFixture("dsn-postfix-delayed.eml")
    .replaceAll("<1b2c3d4e-5f60-4718-a9b0-c1d2e3f4a5b6@northwind.example>", e.messageId)
    .replaceAll("ops@slowhost.example", e.contactEmail)
    .replaceAll("jordan@northwind.example", s.inbox)
    .replace(/\r?\n/g, "\r\n");
}

const inboundRows = (s: SeededInbox) => db.inboundMessage.findMany({ where: { credentialId: s.credentialId }, orderBy: { uid: "asc" } });

test("a DSN bounces its enrollment once; a delayed (4.x.x) DSN is not a bounce", async () => {
  // a threshold no bounce rate exceeds: this test is about the enrollment, the next about the credential
  const s = await seedInbox(db, keyring, imap, { contacts: 2, bounceRateThreshold: 100 });
  const [bounced, delayed] = s.enrollments as [SeededEnrollment, SeededEnrollment];
  await waitUntilWatched(db, s);

  await imap.appendMessage(s.inbox, delayedDsn(s, delayed));
  await waitFor(async () => (await inboundRows(s)).length === 1, { what: "the delay notice", timeoutMs: 20_000 });
  assert.equal((await inboundRows(s))[0]!.kind, "auto_reply");
  assert.equal(await enrollmentStatus(db, delayed.enrollmentId), "sent");
  assert.equal((await db.stepSend.findFirstOrThrow({ where: { enrollmentId: delayed.enrollmentId, stepPosition: 2 } })).state, "scheduled");

  await imap.appendMessage(s.inbox, postfixUserUnknownDsn(s, bounced));
  const enrollment = await waitFor(
    async () => {
      const row = await db.enrollment.findUniqueOrThrow({ where: { id: bounced.enrollmentId } });
      return row.status === "bounced" ? row : undefined;
    },
    { what: "the bounce", timeoutMs: 20_000 },
  );
  assert.equal(enrollment.bounceReason, `5.1.1 550 5.1.1 <${bounced.contactEmail}>: Recipient address rejected: User unknown in virtual mailbox table`);
  assert.ok(enrollment.bouncedAt);
  const steps = await db.stepSend.findMany({ where: { enrollmentId: bounced.enrollmentId }, orderBy: { stepPosition: "asc" } });
  assert.deepEqual(
    steps.map((step) => step.state),
    ["bounced", "cancelled"],
  );
  const events = await eventsOf(db, s.accountId, "enrollment.bounced");
  assert.equal(events.length, 1);
  assert.equal(events[0]!.data.enrollment_id, bounced.enrollmentId);
  assert.equal(events[0]!.data.bounce_reason, enrollment.bounceReason);
  const rows = await inboundRows(s);
  assert.deepEqual(
    rows.map((row) => [row.kind, row.enrollmentId]),
    [
      ["auto_reply", null],
      ["bounce", bounced.enrollmentId],
    ],
  );

  // another copy of the same report changes nothing
  await imap.appendMessage(s.inbox, postfixUserUnknownDsn(s, bounced));
  await waitFor(async () => (await inboundRows(s)).length === 3, { what: "the second copy", timeoutMs: 20_000 });
  assert.equal((await eventsOf(db, s.accountId, "enrollment.bounced")).length, 1);
  assert.equal(await enrollmentStatus(db, delayed.enrollmentId), "sent");
  // 1 bounce of 2 sends is under the threshold of 100%
  const credential = await db.smtpCredential.findUniqueOrThrow({ where: { id: s.credentialId } });
  assert.equal(credential.disabledAt, null);
  assert.equal((await eventsOf(db, s.accountId, "credential.disabled")).length, 0);
});

test("a DSN counts toward the credential's health: above the campaign's threshold the credential is disabled and the campaign paused", async () => {
  const s = await seedInbox(db, keyring, imap, { contacts: 1, bounceRateThreshold: 5 });
  const e = s.enrollments[0]!;
  await waitUntilWatched(db, s);
  await imap.appendMessage(s.inbox, postfixUserUnknownDsn(s, e));

  const credential = await waitFor(
    async () => {
      const row = await db.smtpCredential.findUniqueOrThrow({ where: { id: s.credentialId } });
      return row.disabledAt ? row : undefined;
    },
    { what: "the credential to be disabled", timeoutMs: 20_000 },
  );
  assert.match(credential.disabledReason ?? "", /bounce rate 100% exceeded the campaign threshold of 5%/);
  assert.equal(await enrollmentStatus(db, e.enrollmentId), "bounced");
  const disabled = await eventsOf(db, s.accountId, "credential.disabled");
  assert.equal(disabled.length, 1);
  assert.equal(disabled[0]!.data.credential_id, s.credentialId);
  assert.equal(disabled[0]!.data.bounce_rate, 100);
  assert.equal(disabled[0]!.data.threshold, 5);
  // its only inbox disabled: the campaign is paused
  const campaign = await db.campaign.findUniqueOrThrow({ where: { id: s.campaignId } });
  assert.equal(campaign.status, "paused");
  assert.equal(campaign.pausedReason, "all_credentials_disabled");
  const paused = await eventsOf(db, s.accountId, "campaign.paused");
  assert.equal(paused.length, 1);
  assert.equal(paused[0]!.data.reason, "all_credentials_disabled");
  assert.equal((await eventsOf(db, s.accountId, "enrollment.bounced")).length, 1);
});

test("a DSN whose report carries a NUL byte is recorded and does not block the inbox", async () => {
  const s = await seedInbox(db, keyring, imap, { contacts: 2, bounceRateThreshold: 100 });
  const [bounced, replying] = s.enrollments as [SeededEnrollment, SeededEnrollment];
  await waitUntilWatched(db, s);
  // base64 lets any byte through to the decoded report; PostgreSQL text cannot hold NUL
  const report = Buffer.from(
    `Reporting-MTA: dns; mx.example.org\r\n\r\nFinal-Recipient: rfc822; ${bounced.contactEmail}\r\nAction: failed\r\nStatus: 5.1.1\r\nDiagnostic-Code: smtp; 550 5.1.1 no\u0000such user\r\n`,
  ).toString("base64");
  const dsn = [
    "From: MAILER-DAEMON@mx.example.org",
    `To: ${s.inbox}`,
    "Subject: Undelivered Mail Returned to Sender",
    "MIME-Version: 1.0",
    'Content-Type: multipart/report; report-type=delivery-status; boundary="b1"',
    "",
    "--b1",
    "Content-Type: text/plain",
    "",
    "Your message could not be delivered.",
    "--b1",
    "Content-Type: message/delivery-status",
    "Content-Transfer-Encoding: base64",
    "",
    report,
    "--b1",
    "Content-Type: text/rfc822-headers",
    "",
    `Message-ID: ${bounced.messageId}`,
    "--b1--",
    "",
  ].join("\r\n");
  await imap.appendMessage(s.inbox, dsn);
  await imap.appendMessage(s.inbox, mail({ From: replying.contactEmail, To: s.inbox, Subject: "Re: Hello", "In-Reply-To": replying.messageId }, "Yes, interested."));
  await waitFor(async () => (await enrollmentStatus(db, replying.enrollmentId)) === "replied", { what: "the reply after the DSN", timeoutMs: 20_000 });
  const enrollment = await db.enrollment.findUniqueOrThrow({ where: { id: bounced.enrollmentId } });
  assert.equal(enrollment.status, "bounced");
  assert.equal(enrollment.bounceReason, "5.1.1 550 5.1.1 nosuch user");
  assert.deepEqual(
    (await inboundRows(s)).map((row) => row.kind),
    ["bounce", "reply"],
  );
});

test("a mailto unsubscribe from the contact unsubscribes it in that account; from a stranger it does nothing", async () => {
  const s = await seedInbox(db, keyring, imap, { contacts: 2 });
  const [contact, other] = s.enrollments as [SeededEnrollment, SeededEnrollment];
  // the same address in another account is another tenant's contact: left alone
  const elsewhere = await seedInbox(db, keyring, imap);
  await db.contact.update({ where: { id: elsewhere.enrollments[0]!.contactId }, data: { email: contact.contactEmail } });
  await waitUntilWatched(db, s);

  await imap.appendMessage(s.inbox, mail({ From: "stranger@example.org", To: s.inbox, Subject: "unsubscribe" }, ""));
  await waitFor(async () => (await inboundRows(s)).length === 1, { what: "the stranger's request", timeoutMs: 20_000 });
  assert.equal((await inboundRows(s))[0]!.kind, "unmatched");
  assert.equal(await db.contact.count({ where: { accountId: s.accountId, unsubscribedAt: { not: null } } }), 0);
  assert.equal((await eventsOf(db, s.accountId, "enrollment.unsubscribed")).length, 0);

  // as a mail client sends our List-Unsubscribe mailto
  await imap.appendMessage(s.inbox, mail({ From: `Reader <${contact.contactEmail.toUpperCase()}>`, To: s.inbox, Subject: "unsubscribe" }, ""));
  const unsubscribed = await waitFor(
    async () => {
      const row = await db.contact.findUniqueOrThrow({ where: { id: contact.contactId } });
      return row.unsubscribedAt ? row : undefined;
    },
    { what: "the contact to be unsubscribed", timeoutMs: 20_000 },
  );
  assert.ok(unsubscribed.unsubscribedAt);
  assert.equal(await enrollmentStatus(db, contact.enrollmentId), "unsubscribed");
  assert.equal((await db.stepSend.findFirstOrThrow({ where: { enrollmentId: contact.enrollmentId, stepPosition: 2 } })).state, "cancelled");
  const events = await eventsOf(db, s.accountId, "enrollment.unsubscribed");
  assert.equal(events.length, 1);
  assert.equal(events[0]!.data.enrollment_id, contact.enrollmentId);
  assert.equal(events[0]!.data.contact_email, contact.contactEmail);
  assert.equal((await inboundRows(s))[1]!.kind, "unsubscribe");
  // nobody else
  assert.equal(await enrollmentStatus(db, other.enrollmentId), "sent");
  assert.equal((await db.contact.findUniqueOrThrow({ where: { id: other.contactId } })).unsubscribedAt, null);
  assert.equal((await db.contact.findUniqueOrThrow({ where: { id: elsewhere.enrollments[0]!.contactId } })).unsubscribedAt, null);
  assert.equal(await enrollmentStatus(db, elsewhere.enrollments[0]!.enrollmentId), "sent");
  assert.equal((await eventsOf(db, s.accountId, "enrollment.replied")).length, 0);
});

test("a DSN that names only the failed address bounces the enrollment this inbox last sent to at that address", async () => {
  const s = await seedInbox(db, keyring, imap, { contacts: 2, bounceRateThreshold: 100 });
  const [bounced, other] = s.enrollments as [SeededEnrollment, SeededEnrollment];
  await waitUntilWatched(db, s);
  await imap.appendMessage(s.inbox, bareBounce(s, bounced));
  await waitFor(async () => (await enrollmentStatus(db, bounced.enrollmentId)) === "bounced", { what: "the bounce", timeoutMs: 20_000 });
  assert.equal(await enrollmentStatus(db, other.enrollmentId), "sent");
  assert.deepEqual(
    (await inboundRows(s)).map((row) => [row.kind, row.enrollmentId]),
    [["bounce", bounced.enrollmentId]],
  );
  assert.equal((await eventsOf(db, s.accountId, "enrollment.bounced")).length, 1);
});

test("mail from the account's own sending address that cites our Message-ID is not a reply", async () => {
  const s = await seedInbox(db, keyring, imap, { contacts: 1 });
  const [e] = s.enrollments as [SeededEnrollment];
  await waitUntilWatched(db, s);
  // a copy the tenant sent itself on the thread (a BCC to its own inbox, a colleague's note from the same address)
  const ownCopy = mail({ From: `Sales <${s.inbox.toUpperCase()}>`, To: e.contactEmail, Subject: "Re: Hello", "In-Reply-To": e.messageId, References: e.messageId }, "Just checking in.");
  await imap.appendMessage(s.inbox, ownCopy);
  await waitFor(async () => (await inboundRows(s)).length === 1, { what: "the copy recorded", timeoutMs: 20_000 });
  assert.equal((await inboundRows(s))[0]!.kind, "unmatched");
  assert.equal(await enrollmentStatus(db, e.enrollmentId), "sent");
  assert.equal((await eventsOf(db, s.accountId, "enrollment.replied")).length, 0);
});
