import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, test } from "node:test";
import { createLogger, EgressGuard, type Keyring } from "@outreach/core";
import type { Db } from "@outreach/db";
import { waitFor, type ImapTestServer } from "@outreach/testing";
import { handleInboxMessage, inboxStoreDeps } from "../src/inbox-store.js";
import { InboxWatcher } from "../src/inbox-watcher.js";
import {
  appendAndExpunge,
  enrollmentStatus,
  eventsOf,
  IMAP_PASSWORD,
  replyTo,
  seedInbox,
  startConnectionMeter,
  startPollerFixture,
  type ConnectionMeter,
  type PollerFixture,
  type SeededInbox,
} from "./helpers.js";

// The polling path alone: a watcher that never IDLEs finds new mail by its periodic check.
let pollerFixture: PollerFixture | undefined;
let imap: ImapTestServer;
let db: Db;
let keyring: Keyring;
let meter: ConnectionMeter;
const watchers: InboxWatcher[] = [];

const POLL_INTERVAL_MS = 1_000;

before(async () => {
  pollerFixture = await startPollerFixture();
  ({ imap, db, keyring } = pollerFixture);
  meter = await startConnectionMeter(imap);
});
after(() =>
  pollerFixture?.stop(async () => {
    for (const watcher of watchers) await watcher.stop();
    await meter?.close();
  }),
);

/** A watcher of this inbox that never IDLEs, on the poller's real store functions. */
function startWatcher(
  s: SeededInbox,
  pollIntervalMs: number,
  handleMessage = async (id: string, uidValidity: bigint, uid: bigint, raw: Buffer) => void (await handleInboxMessage(db, id, uidValidity, uid, raw)),
): InboxWatcher {
  const watcher = new InboxWatcher(
    { credentialId: s.credentialId, host: imap.host, port: meter.port, secure: false, username: s.inbox, password: IMAP_PASSWORD },
    {
      guard: new EgressGuard({ allowPrivate: true }),
      requireTls: false,
      pollIntervalMs,
      idle: false,
      logger: createLogger({ service: "imap-poller", level: "error" }),
      ...inboxStoreDeps(db),
      handleMessage,
    },
  );
  watchers.push(watcher);
  watcher.start();
  return watcher;
}

const cursorOf = (s: SeededInbox) => db.smtpCredential.findUniqueOrThrow({ where: { id: s.credentialId }, select: { imapUidValidity: true, imapLastUid: true } });

test("without IDLE, a reply APPENDed is found by the periodic check, within about the interval", async () => {
  const s = await seedInbox(db, keyring, imap, { imapPort: meter.port, contacts: 2 });
  startWatcher(s, POLL_INTERVAL_MS);
  await waitFor(async () => (await db.smtpCredential.findUniqueOrThrow({ where: { id: s.credentialId } })).imapUidValidity !== null, { what: "the first check", timeoutMs: 20_000 });

  const appendedAt = Date.now();
  await imap.appendMessage(s.inbox, replyTo(s));
  await waitFor(async () => (await enrollmentStatus(db, s.enrollments[0]!.enrollmentId)) === "replied", { what: "the reply", timeoutMs: 20_000 });
  const latency = Date.now() - appendedAt;
  console.log(`# reply found by polling ${latency} ms after APPEND (interval ${POLL_INTERVAL_MS} ms)`);

  assert.equal((await eventsOf(db, s.accountId, "enrollment.replied")).length, 1);
  const followUp = await db.stepSend.findFirstOrThrow({ where: { enrollmentId: s.enrollments[0]!.enrollmentId, stepPosition: 2 } });
  assert.equal(followUp.state, "cancelled");
  // it was the periodic check: one connection, and it never entered IDLE
  assert.equal(meter.opened(), 1);
  assert.doesNotMatch(meter.clientText(), /^\S+ IDLE\r?$/im);
  assert.match(meter.clientText(), /^\S+ EXAMINE "?INBOX"?/im);

  // and it keeps polling: a later reply in the same inbox is found too
  await imap.appendMessage(s.inbox, replyTo(s, s.enrollments[1]));
  await waitFor(async () => (await enrollmentStatus(db, s.enrollments[1]!.enrollmentId)) === "replied", { what: "the second reply", timeoutMs: 20_000 });
  assert.equal((await eventsOf(db, s.accountId, "enrollment.replied")).length, 2);
  assert.equal(meter.opened(), 1);
});

test("a new message beyond a gap of more than a batch of expunged UIDs is not missed", async () => {
  const s = await seedInbox(db, keyring, imap, { imapPort: meter.port });
  // checks only when told to (and on the server's EXISTS during a check)
  const watcher = startWatcher(s, 3_600_000);
  await waitFor(async () => (await cursorOf(s)).imapUidValidity !== null, { what: "the first check", timeoutMs: 20_000 });
  const before = await cursorOf(s);

  // while the connection is open, 60 messages arrive and are deleted by another client before
  // the next check; then the reply arrives
  const removed = await appendAndExpunge(imap, s.inbox, 60);
  const reply = await imap.appendMessage(s.inbox, replyTo(s));
  assert.ok(BigInt(reply.uid) > (before.imapLastUid ?? 0n) + 50n, "the reply lies beyond one batch");
  watcher.sync();
  await waitFor(async () => (await enrollmentStatus(db, s.enrollments[0]!.enrollmentId)) === "replied", { what: "the reply beyond the gap", timeoutMs: 15_000 });
  assert.equal((await cursorOf(s)).imapLastUid, BigInt(reply.uid));
  assert.equal(removed.length, 60);
  assert.equal(await db.inboundMessage.count({ where: { credentialId: s.credentialId } }), 1);
});

test("a reply with a large attachment is recognised from its first megabyte", async () => {
  const s = await seedInbox(db, keyring, imap, { imapPort: meter.port });
  const watcher = startWatcher(s, 3_600_000);
  await waitFor(async () => (await cursorOf(s)).imapUidValidity !== null, { what: "the first check", timeoutMs: 20_000 });
  const e = s.enrollments[0]!;
  const attachment = randomBytes(3 * 1024 * 1024)
    .toString("base64")
    .replace(/.{76}/g, "$&\r\n");
  const raw = [
    `From: Reader <${e.contactEmail}>`,
    `To: ${s.inbox}`,
    "Subject: Re: Hello",
    `In-Reply-To: ${e.messageId}`,
    "MIME-Version: 1.0",
    'Content-Type: multipart/mixed; boundary="m1"',
    "",
    "--m1",
    "Content-Type: text/plain; charset=utf-8",
    "",
    "Here is the deck you asked about.",
    "--m1",
    'Content-Type: application/pdf; name="deck.pdf"',
    "Content-Transfer-Encoding: base64",
    "",
    attachment,
    "--m1--",
    "",
  ].join("\r\n");
  await imap.appendMessage(s.inbox, raw);
  watcher.sync();
  await waitFor(async () => (await enrollmentStatus(db, e.enrollmentId)) === "replied", { what: "the reply with the attachment", timeoutMs: 20_000 });
  const [row] = await db.inboundMessage.findMany({ where: { credentialId: s.credentialId } });
  assert.equal(row?.kind, "reply");
});

test("a message that fails on every try is passed over after 3 tries, and the inbox's later mail is still handled", async () => {
  const s = await seedInbox(db, keyring, imap, { imapPort: meter.port, contacts: 1 });
  const tries = new Map<string, number>();
  startWatcher(s, POLL_INTERVAL_MS, async (id, uidValidity, uid, raw) => {
    if (raw.includes("X-Unreadable: yes")) {
      tries.set(String(uid), (tries.get(String(uid)) ?? 0) + 1);
      throw new Error("cannot be handled");
    }
    await handleInboxMessage(db, id, uidValidity, uid, raw);
  });
  await waitFor(async () => (await db.smtpCredential.findUniqueOrThrow({ where: { id: s.credentialId } })).imapUidValidity !== null, { what: "the first check", timeoutMs: 20_000 });
  await imap.appendMessage(s.inbox, `X-Unreadable: yes\r\n${replyTo(s)}`);
  await imap.appendMessage(s.inbox, replyTo(s));
  // each failed try reconnects after a backoff (2 s, then 5 s)
  await waitFor(async () => (await enrollmentStatus(db, s.enrollments[0]!.enrollmentId)) === "replied", { what: "the reply behind the unreadable message", timeoutMs: 60_000 });
  assert.deepEqual([...tries.values()], [3], "tried three times, then passed over");
  const [poisonUid] = [...tries.keys()];
  const skipped = await db.inboundMessage.findFirstOrThrow({ where: { credentialId: s.credentialId, uid: BigInt(poisonUid!) } });
  assert.equal(skipped.kind, "skipped");
  assert.equal(skipped.skipReason, "failed on 3 tries: cannot be handled");
  assert.ok((await cursorOf(s)).imapLastUid! > BigInt(poisonUid!));
});
