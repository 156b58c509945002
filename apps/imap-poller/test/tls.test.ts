import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createLogger, EgressGuard, type Keyring } from "@outreach/core";
import type { Db } from "@outreach/db";
import { dovecotUnavailableReason, skipWithoutSystemServer, startDovecot, TEST_TLS_CA, waitFor, type ImapTestServer } from "@outreach/testing";
import { inboxStoreDeps } from "../src/inbox-store.js";
import { InboxWatcher, type InboxEndpoint } from "../src/inbox-watcher.js";
import { enrollmentStatus, IMAP_PASSWORD, replyTo, seedInbox, startConnectionMeter, startPollerFixture, type ConnectionMeter, type PollerFixture, type SeededInbox } from "./helpers.js";

// MAIL_REQUIRE_TLS for IMAP, against Dovecot with the test certificate: STARTTLS and
// implicit TLS both work and keep the password off the wire; an untrusted certificate and a
// server without STARTTLS are the credential's error. Dovecot only (the in-process IMAP
// server has no TLS); .ci/run installs it.
const unavailable = skipWithoutSystemServer("Dovecot", dovecotUnavailableReason());
let pollerFixture: PollerFixture<ImapTestServer & { tlsPort: number | null }> | undefined;
let tlsServer: ImapTestServer & { tlsPort: number | null };
let plainServer: ImapTestServer & { tlsPort: number | null };
let db: Db;
let keyring: Keyring;
let meter: ConnectionMeter;
const watchers: InboxWatcher[] = [];

before(async () => {
  if (unavailable) return;
  pollerFixture = await startPollerFixture({ imap: () => startDovecot({ tls: true }), env: { MAIL_REQUIRE_TLS: "true" } });
  ({ imap: tlsServer, db, keyring } = pollerFixture);
  plainServer = await startDovecot();
  meter = await startConnectionMeter(tlsServer);
});
after(() =>
  pollerFixture?.stop(async () => {
    for (const watcher of watchers) await watcher.stop();
    await meter?.close();
    await plainServer?.close();
  }),
);

/** A watcher requiring TLS, on the poller's real store functions. */
function startWatcher(s: SeededInbox, endpoint: Partial<InboxEndpoint>, trustTestCa = true): InboxWatcher {
  const watcher = new InboxWatcher(
    { credentialId: s.credentialId, host: "127.0.0.1", port: tlsServer.port, secure: false, username: s.inbox, password: IMAP_PASSWORD, ...endpoint },
    {
      guard: new EgressGuard({ allowPrivate: true }),
      requireTls: true,
      tlsCa: trustTestCa ? TEST_TLS_CA : undefined,
      pollIntervalMs: 60_000,
      logger: createLogger({ service: "imap-poller", level: "error" }),
      ...inboxStoreDeps(db),
    },
  );
  watchers.push(watcher);
  watcher.start();
  return watcher;
}

const watched = (s: SeededInbox) =>
  waitFor(async () => (await db.smtpCredential.findUniqueOrThrow({ where: { id: s.credentialId } })).imapUidValidity !== null, { what: "the inbox watched", timeoutMs: 20_000 });
const lastError = async (s: SeededInbox) => (await db.smtpCredential.findUniqueOrThrow({ where: { id: s.credentialId } })).imapLastError;

test("STARTTLS: the watcher upgrades before it logs in, and finds the reply", { skip: unavailable }, async () => {
  const s = await seedInbox(db, keyring, tlsServer);
  startWatcher(s, { port: meter.port });
  await watched(s);
  await tlsServer.appendMessage(s.inbox, replyTo(s));
  await waitFor(async () => (await enrollmentStatus(db, s.enrollments[0]!.enrollmentId)) === "replied", { what: "the reply", timeoutMs: 20_000 });
  // what crossed in clear: the STARTTLS command, and neither the login nor the password
  const clear = meter.clientText();
  assert.match(clear, /^\S+ STARTTLS\r?$/im);
  assert.doesNotMatch(clear, /LOGIN|AUTHENTICATE/i);
  assert.ok(!clear.includes(IMAP_PASSWORD));
  assert.equal(await lastError(s), null);
});

test("implicit TLS: the watcher verifies the certificate and finds the reply", { skip: unavailable }, async () => {
  const s = await seedInbox(db, keyring, tlsServer);
  startWatcher(s, { port: tlsServer.tlsPort!, secure: true });
  await watched(s);
  await tlsServer.appendMessage(s.inbox, replyTo(s));
  await waitFor(async () => (await enrollmentStatus(db, s.enrollments[0]!.enrollmentId)) === "replied", { what: "the reply", timeoutMs: 20_000 });
  assert.equal(await lastError(s), null);
});

test("a certificate from an untrusted issuer is the credential's error, and nothing is read", { skip: unavailable }, async () => {
  const s = await seedInbox(db, keyring, tlsServer);
  startWatcher(s, { port: tlsServer.tlsPort!, secure: true }, false);
  await waitFor(async () => (await lastError(s)) !== null, { what: "the credential's error", timeoutMs: 20_000 });
  assert.match((await lastError(s))!, /certificate was not accepted/);
  assert.equal((await db.smtpCredential.findUniqueOrThrow({ where: { id: s.credentialId } })).imapUidValidity, null);
});

test("a server that does not offer STARTTLS is refused before the login, as the credential's error", { skip: unavailable }, async () => {
  const s = await seedInbox(db, keyring, plainServer);
  const plainMeter = await startConnectionMeter(plainServer);
  try {
    startWatcher(s, { port: plainMeter.port });
    await waitFor(async () => (await lastError(s)) !== null, { what: "the credential's error", timeoutMs: 20_000 });
    assert.match((await lastError(s))!, /TLS is required but the server did not start it/);
    assert.doesNotMatch(plainMeter.clientText(), /LOGIN|AUTHENTICATE/i);
    assert.ok(!plainMeter.clientText().includes(IMAP_PASSWORD));
  } finally {
    await plainMeter.close();
  }
});
