import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { ImapFlow } from "imapflow";
import { createLogger, EgressGuard, type Keyring } from "@outreach/core";
import type { Db } from "@outreach/db";
import { dovecotUnavailableReason, skipWithoutSystemServer, startDovecot, waitFor, type DovecotTestServer } from "@outreach/testing";
import { inboxStoreDeps } from "../src/inbox-store.js";
import { InboxWatcher } from "../src/inbox-watcher.js";
import { enrollmentStatus, IMAP_PASSWORD, replyTo, seedInbox, startConnectionMeter, startPollerFixture, type ConnectionMeter, type PollerFixture } from "./helpers.js";

// A server offering COMPRESS=DEFLATE (as Gmail does; here Dovecot with imap_zlib): the
// watcher's session stays uncompressed, so a watched inbox never holds a zlib deflate and
// inflate state (~270 KB, bench/results/imap-memory.json) and no server's compressed bytes
// are inflated. Dovecot only.
const unavailable = skipWithoutSystemServer("Dovecot", dovecotUnavailableReason());
const OFFER_COMPRESSION = `mail_plugins = $mail_plugins zlib
protocol imap {
  mail_plugins = $mail_plugins imap_zlib
}
`;
let fixture: PollerFixture<DovecotTestServer> | undefined;
let db: Db;
let keyring: Keyring;
let imap: DovecotTestServer;
let meter: ConnectionMeter;
let watcher: InboxWatcher | undefined;

before(async () => {
  if (unavailable) return;
  fixture = await startPollerFixture({ imap: () => startDovecot({ extraConfig: OFFER_COMPRESSION }) });
  ({ imap, db, keyring } = fixture);
  meter = await startConnectionMeter(imap);
});
after(() =>
  fixture?.stop(async () => {
    await watcher?.stop();
    await meter?.close();
  }),
);

test("a server offering COMPRESS=DEFLATE: the watcher never asks for it, and finds the reply", { skip: unavailable }, async () => {
  const s = await seedInbox(db, keyring, imap);
  // the server does offer it once logged in (what the watcher declines)
  const probe = new ImapFlow({ host: imap.host, port: imap.port, secure: false, auth: { user: s.inbox, pass: IMAP_PASSWORD }, logger: false, disableCompression: true });
  await probe.connect();
  assert.ok(probe.capabilities.has("COMPRESS=DEFLATE"), "the test server offers COMPRESS=DEFLATE");
  await probe.logout();

  watcher = new InboxWatcher(
    { credentialId: s.credentialId, host: "127.0.0.1", port: meter.port, secure: false, username: s.inbox, password: IMAP_PASSWORD },
    { guard: new EgressGuard({ allowPrivate: true }), requireTls: false, pollIntervalMs: 60_000, logger: createLogger({ service: "imap-poller", level: "error" }), ...inboxStoreDeps(db) },
  );
  watcher.start();
  await imap.appendMessage(s.inbox, replyTo(s));
  await waitFor(async () => (await enrollmentStatus(db, s.enrollments[0]!.enrollmentId)) === "replied", { what: "the reply", timeoutMs: 20_000 });
  // the whole session in clear: every command readable, none of them COMPRESS
  const sent = meter.clientText();
  assert.match(sent, /^\S+ (EXAMINE|SELECT) INBOX/im);
  assert.match(sent, /^\S+ UID FETCH/im);
  assert.doesNotMatch(sent, /COMPRESS/i);
});
