import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Config, Keyring } from "@outreach/core";
import type { Db } from "@outreach/db";
import { startDnsServer, waitFor, type DnsTestServer, type ImapTestServer } from "@outreach/testing";
import { seedInbox, startConnectionMeter, startPollerFixture, type ConnectionMeter, type PollerFixture } from "./helpers.js";

// The egress guard applies to IMAP: without MAIL_ALLOW_PRIVATE_HOSTS, an inbox on an internal
// address is refused when connecting (also when a public-looking name resolves to one).
let pollerFixture: PollerFixture | undefined;
let imap: ImapTestServer;
let dns: DnsTestServer;
let db: Db;
let config: Config;
let keyring: Keyring;
let meter: ConnectionMeter;

before(async () => {
  dns = await startDnsServer();
  pollerFixture = await startPollerFixture({ env: { DNS_SERVERS: dns.address, MAIL_ALLOW_PRIVATE_HOSTS: "false", MAIL_REQUIRE_TLS: "false" }, startPoller: true });
  ({ imap, db, config, keyring } = pollerFixture);
  meter = await startConnectionMeter(imap);
});
after(async () => {
  const teardown = async () => {
    await meter?.close();
    await dns?.close();
  };
  await (pollerFixture ? pollerFixture.stop(teardown) : teardown());
});

async function reportedError(credentialId: string): Promise<string> {
  const row = await waitFor(
    async () => {
      const credential = await db.smtpCredential.findUniqueOrThrow({ where: { id: credentialId } });
      return credential.imapLastError ? credential : undefined;
    },
    { what: "the IMAP error on the credential", timeoutMs: 20_000 },
  );
  return row.imapLastError!;
}

test("an inbox on a loopback address is refused: the error is on the credential, no connection is made", async () => {
  const s = await seedInbox(db, keyring, imap, { imapHost: "127.0.0.1", imapPort: meter.port });
  assert.match(await reportedError(s.credentialId), /^imap_host 127\.0\.0\.1 must be a public host/);
  const credential = await db.smtpCredential.findUniqueOrThrow({ where: { id: s.credentialId } });
  assert.equal(credential.imapUidValidity, null);
  assert.equal(meter.opened(), 0);
});

test("a public-looking name that resolves to loopback is refused too", async () => {
  dns.setA("imap.rebind.example", ["127.0.0.1"]);
  const s = await seedInbox(db, keyring, imap, { imapHost: "imap.rebind.example", imapPort: meter.port });
  assert.match(await reportedError(s.credentialId), /^imap_host imap\.rebind\.example must be a public host/);
  assert.ok(dns.queryCount("imap.rebind.example") > 0, "the name was resolved");
  assert.equal(meter.opened(), 0);
  // the poller keeps running
  assert.equal((await fetch(`http://127.0.0.1:${config.healthPort}/healthz`)).status, 200);
});
