import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Config, Keyring } from "@outreach/core";
import type { Db } from "@outreach/db";
import { findFreePort, waitFor, type ImapTestServer } from "@outreach/testing";
import {
  enrollmentStatus,
  eventsOf,
  inboxFlags,
  replyTo,
  seedInbox,
  startConnectionMeter,
  startPollerFixture,
  type ConnectionMeter,
  type InProcessPoller,
  type PollerFixture,
  type SeededEnrollment,
} from "./helpers.js";

// The cursor (UIDVALIDITY + last UID) in the database: a restart neither misses nor reprocesses a message.
let pollerFixture: PollerFixture | undefined;
let imap: ImapTestServer;
let db: Db;
let config: Config;
let keyring: Keyring;
const meters: ConnectionMeter[] = [];
let running: InProcessPoller | undefined;

before(async () => {
  pollerFixture = await startPollerFixture({ env: { HEALTH_PORT: "0" } });
  ({ imap, db, config, keyring } = pollerFixture);
});
after(() =>
  pollerFixture?.stop(async () => {
    for (const meter of meters) await meter.close();
  }),
);

async function startPoller(): Promise<InProcessPoller> {
  return pollerFixture!.startPoller({ ...config, healthPort: await findFreePort() });
}

async function meter(): Promise<ConnectionMeter> {
  const m = await startConnectionMeter(imap);
  meters.push(m);
  return m;
}

test("the poller restarted between two messages processes each exactly once, and never marks them read", async () => {
  const m = await meter();
  const s = await seedInbox(db, keyring, imap, { contacts: 2, imapPort: m.port });
  const [a, b] = s.enrollments as [SeededEnrollment, SeededEnrollment];

  const first = (running = await startPoller());
  await waitFor(async () => (await db.smtpCredential.findUniqueOrThrow({ where: { id: s.credentialId } })).imapUidValidity !== null, { what: "the inbox to be watched", timeoutMs: 20_000 });
  const appendedA = await imap.appendMessage(s.inbox, replyTo(s, a));
  await waitFor(async () => (await enrollmentStatus(db, a.enrollmentId)) === "replied", { what: "reply A", timeoutMs: 20_000 });
  await first.close();
  running = undefined;
  await waitFor(() => m.open() === 0, { what: "the stopped poller to close its connection", timeoutMs: 5_000 });

  const appendedB = await imap.appendMessage(s.inbox, replyTo(s, b));
  assert.equal(appendedB.uidValidity, appendedA.uidValidity);
  assert.equal(await enrollmentStatus(db, b.enrollmentId), "sent");

  running = await startPoller();
  await waitFor(async () => (await enrollmentStatus(db, b.enrollmentId)) === "replied", { what: "reply B after the restart", timeoutMs: 20_000 });
  const replied = await eventsOf(db, s.accountId, "enrollment.replied");
  assert.deepEqual(replied.map((event) => event.data.enrollment_id).sort(), [a.enrollmentId, b.enrollmentId].sort());
  const rows = await db.inboundMessage.findMany({ where: { credentialId: s.credentialId }, orderBy: { uid: "asc" } });
  assert.deepEqual(
    rows.map((row) => [row.uidValidity, row.uid, row.kind, row.enrollmentId]),
    [
      [BigInt(appendedA.uidValidity), BigInt(appendedA.uid), "reply", a.enrollmentId],
      [BigInt(appendedB.uidValidity), BigInt(appendedB.uid), "reply", b.enrollmentId],
    ],
  );
  const credential = await db.smtpCredential.findUniqueOrThrow({ where: { id: s.credentialId } });
  assert.equal(credential.imapUidValidity, BigInt(appendedB.uidValidity));
  assert.equal(credential.imapLastUid, BigInt(appendedB.uid));
  assert.equal(m.opened(), 2, "one connection per poller run");

  // never marked read, moved or deleted: both messages still in INBOX, without \Seen or any other stored flag
  // (\Recent is the session's, not stored)
  const flags = await inboxFlags(imap, s.inbox);
  assert.deepEqual([...flags.keys()], [appendedA.uid, appendedB.uid]);
  for (const [uid, messageFlags] of flags)
    assert.deepEqual(
      messageFlags.filter((flag) => flag !== "\\Recent"),
      [],
      `flags of UID ${uid}`,
    );
  assert.match(m.clientText(), /^\S+ EXAMINE "?INBOX"?/im);
  assert.doesNotMatch(m.clientText(), /^\S+ (SELECT|UID STORE|STORE|UID COPY|COPY|UID MOVE|MOVE|EXPUNGE|UID EXPUNGE|DELETE)\b/im);
});

test("a cursor under another UIDVALIDITY (the mailbox was renumbered) starts again: nothing since the last check is missed", async () => {
  const m = await meter();
  const s = await seedInbox(db, keyring, imap, { imapPort: m.port });
  const e = s.enrollments[0]!;
  const appended = await imap.appendMessage(s.inbox, replyTo(s, e));
  // as if the inbox had been watched before under another UIDVALIDITY, up to UID 500, an hour ago
  await db.smtpCredential.update({
    where: { id: s.credentialId },
    data: { imapUidValidity: BigInt(appended.uidValidity) + 1n, imapLastUid: 500n, imapCheckedAt: new Date(Date.now() - 3_600_000) },
  });
  running ??= await startPoller();
  await waitFor(async () => (await enrollmentStatus(db, e.enrollmentId)) === "replied", { what: "the reply under the new UIDVALIDITY", timeoutMs: 20_000 });
  const credential = await db.smtpCredential.findUniqueOrThrow({ where: { id: s.credentialId } });
  assert.equal(credential.imapUidValidity, BigInt(appended.uidValidity));
  assert.equal(credential.imapLastUid, BigInt(appended.uid));
  assert.equal((await eventsOf(db, s.accountId, "enrollment.replied")).length, 1);
});
