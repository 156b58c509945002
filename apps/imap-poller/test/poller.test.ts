import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Config } from "@outreach/core";
import type { Db } from "@outreach/db";
import { waitFor, type ImapTestServer } from "@outreach/testing";
import { mail, startPollerFixture, type PollerFixture } from "./helpers.js";

// A real IMAP server (Dovecot where installed, as in CI) and the real poller in-process.
let pollerFixture: PollerFixture | undefined;
let imap: ImapTestServer;
let db: Db;
let config: Config;

before(async () => {
  // a long poll interval: replies must be seen through IDLE, not the periodic check
  pollerFixture = await startPollerFixture({ env: { IMAP_POLL_INTERVAL_SECONDS: "60" } });
  ({ imap, db, config } = pollerFixture);
});
after(() => pollerFixture?.stop());

interface Seeded {
  accountId: string;
  credentialId: string;
  inbox: string;
  enrollmentId: string;
  contactEmail: string;
  messageId: string;
}

/** An active campaign whose inbox is on the IMAP server, with one contact who got step 1 (step 2 scheduled). */
async function seed(options: { password?: string } = {}): Promise<Seeded> {
  const seeded = await pollerFixture!.seed(options);
  const [enrollment] = seeded.enrollments;
  return { ...seeded, enrollmentId: enrollment!.enrollmentId, contactEmail: enrollment!.contactEmail, messageId: enrollment!.messageId };
}

const replyTo = (s: Seeded, extra: Record<string, string> = {}) =>
  mail({ From: `Reader <${s.contactEmail}>`, To: s.inbox, Subject: "Re: Hello", "In-Reply-To": s.messageId, References: s.messageId, ...extra }, "Sounds good, let's talk.\r\n\r\n> Hi");

const repliedEvents = (accountId: string) => db.event.findMany({ where: { accountId, type: "enrollment.replied" } });

test("the poller starts and watches the inboxes of active campaigns", async () => {
  await pollerFixture!.startPoller();
});

test("a reply is detected: the enrollment is replied, the follow-up cancelled, enrollment.replied written once", async () => {
  const s = await seed();
  await waitFor(async () => (await db.smtpCredential.findUniqueOrThrow({ where: { id: s.credentialId } })).imapUidValidity !== null, { what: "the inbox to be watched", timeoutMs: 20_000 });
  const appendedAt = Date.now();
  await imap.appendMessage(s.inbox, replyTo(s));
  const enrollment = await waitFor(
    async () => {
      const row = await db.enrollment.findUniqueOrThrow({ where: { id: s.enrollmentId } });
      return row.status === "replied" ? row : undefined;
    },
    { what: "the reply", timeoutMs: 20_000 },
  );
  console.log(`# reply detected ${Date.now() - appendedAt} ms after APPEND`);
  assert.ok(enrollment.repliedAt);
  const followUp = await db.stepSend.findFirstOrThrow({ where: { enrollmentId: s.enrollmentId, stepPosition: 2 } });
  assert.equal(followUp.state, "cancelled");
  const events = await repliedEvents(s.accountId);
  assert.equal(events.length, 1);
  assert.equal((events[0]!.data as any).enrollment_id, s.enrollmentId);
  assert.equal((events[0]!.data as any).status, "replied");
  // the same reply again (another copy) changes nothing
  await imap.appendMessage(s.inbox, replyTo(s));
  await waitFor(async () => (await db.inboundMessage.count({ where: { credentialId: s.credentialId } })) === 2, { what: "the second message", timeoutMs: 20_000 });
  assert.equal((await repliedEvents(s.accountId)).length, 1);
});

test("an out-of-office is ignored; a reply with stripped headers is matched by its sender", async () => {
  const s = await seed();
  await waitFor(async () => (await db.smtpCredential.findUniqueOrThrow({ where: { id: s.credentialId } })).imapUidValidity !== null, { what: "the inbox to be watched", timeoutMs: 20_000 });
  await imap.appendMessage(
    s.inbox,
    mail({ From: s.contactEmail, To: s.inbox, Subject: "Automatic reply: Hello", "Auto-Submitted": "auto-replied", "In-Reply-To": s.messageId }, "I am out of the office until Monday."),
  );
  await waitFor(async () => (await db.inboundMessage.findFirst({ where: { credentialId: s.credentialId, kind: "auto_reply" } })) !== null, { what: "the auto-reply", timeoutMs: 20_000 });
  assert.equal((await db.enrollment.findUniqueOrThrow({ where: { id: s.enrollmentId } })).status, "sent");
  await imap.appendMessage(s.inbox, mail({ From: s.contactEmail, To: s.inbox, Subject: "your email" }, "Interested. Call me."));
  await waitFor(async () => (await db.enrollment.findUniqueOrThrow({ where: { id: s.enrollmentId } })).status === "replied", { what: "the sender-matched reply", timeoutMs: 20_000 });
  assert.equal((await repliedEvents(s.accountId)).length, 1);
});

test("its /metrics counts the inbound messages by kind, as stored, and the inboxes it watches", async () => {
  const response = await fetch(`http://127.0.0.1:${config.healthPort}/metrics`);
  assert.equal(response.status, 200);
  const text = await response.text();
  const sample = (series: string) => {
    const line = text.split("\n").find((l) => l.startsWith(`${series} `));
    return line === undefined ? undefined : Number(line.slice(series.length + 1));
  };
  const stored = await db.inboundMessage.groupBy({ by: ["kind"], _count: true });
  const storedOf = (kind: string) => stored.find((row) => row.kind === kind)?._count ?? 0;
  assert.equal(sample('outreach_inbound_messages_total{kind="reply"}'), storedOf("reply"));
  assert.equal(storedOf("reply"), 3, "the first reply, its second copy, and the one matched by its sender");
  assert.equal(sample('outreach_inbound_messages_total{kind="auto_reply"}'), storedOf("auto_reply"));
  assert.equal(storedOf("auto_reply"), 1);
  assert.equal(sample('outreach_inbound_messages_total{kind="bounce"}'), 0, "every kind is there from the start");
  assert.equal(sample("outreach_imap_inboxes_watched"), 2, "the two seeded inboxes");
  assert.equal(sample("outreach_imap_inboxes_unwatched"), 0, "this replica holds the metrics lease and watches every inbox");
});

test("a wrong IMAP password is reported on the credential without crashing the poller", async () => {
  const s = await seed({ password: "wrong" });
  const row = await waitFor(
    async () => {
      const credential = await db.smtpCredential.findUniqueOrThrow({ where: { id: s.credentialId } });
      return credential.imapLastError ? credential : undefined;
    },
    { what: "the IMAP error on the credential", timeoutMs: 20_000 },
  );
  assert.match(row.imapLastError!, /login refused|auth/i);
  // the other inboxes are still served
  const healthy = await seed();
  await imap.appendMessage(healthy.inbox, replyTo(healthy));
  await waitFor(async () => (await db.enrollment.findUniqueOrThrow({ where: { id: healthy.enrollmentId } })).status === "replied", { what: "a reply in another inbox", timeoutMs: 20_000 });
});
