import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { encryptSecret, secretAad } from "@outreach/core";
import type { Db } from "@outreach/db";
import { startAppProcess, waitFor, type AppProcess, type ImapTestServer } from "@outreach/testing";
import { enrollmentStatus, replyTo, seedInbox, startPollerFixture, type PollerFixture } from "./helpers.js";
import { ScriptedImapServer } from "./scripted-imap-server.js";

// One account with 30 inboxes on a server that never answers, another with one inbox, a poller
// with room for 5 connections: the second account's inbox is watched and its reply detected.
// The big account's credentials sort first (the order inboxes used to be taken in).
const BIG_ACCOUNT_INBOXES = 30;
let pollerFixture: PollerFixture | undefined;
let imap: ImapTestServer;
let silent: ScriptedImapServer;
let db: Db;
let poller: AppProcess | undefined;

before(async () => {
  pollerFixture = await startPollerFixture({ env: { IMAP_MAX_CONNECTIONS: "5" } });
  ({ imap, db } = pollerFixture);
  silent = await ScriptedImapServer.start({ silent: true });
});
after(() =>
  pollerFixture?.stop(async () => {
    await poller?.stop("SIGTERM", 10_000);
    await silent?.close();
  }),
);

test("an account with 30 inboxes on a silent server does not keep another account's inbox from being watched", async () => {
  const { env, keyring } = pollerFixture!;
  const small = await seedInbox(db, keyring, imap);
  const big = await seedInbox(db, keyring, imap, { imapHost: silent.host, imapPort: silent.port });
  for (let i = 0; i < BIG_ACCOUNT_INBOXES; i++) {
    const id = `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`;
    await db.smtpCredential.create({
      data: {
        id,
        accountId: big.accountId,
        campaignId: big.campaignId,
        label: `Inbox ${i}`,
        fromEmail: `big${i}@sender.test`,
        smtpHost: "127.0.0.1",
        smtpPort: 25,
        smtpUsername: `big${i}@sender.test`,
        smtpPasswordEnc: encryptSecret("x", keyring, secretAad("smtp_credentials", "smtpPasswordEnc", id)),
        dailyLimit: 100,
        imapHost: silent.host,
        imapPort: silent.port,
        imapSecure: false,
        imapUsername: `big${i}@sender.test`,
        imapPasswordEnc: encryptSecret("secret", keyring, secretAad("smtp_credentials", "imapPasswordEnc", id)),
      },
    });
  }
  poller = await startAppProcess("imap-poller", { env });
  await waitFor(() => silent.connections >= 4, { what: "the big account's connections", timeoutMs: 20_000 });
  await imap.appendMessage(small.inbox, replyTo(small));
  await waitFor(async () => (await enrollmentStatus(db, small.enrollments[0]!.enrollmentId)) === "replied", { what: "the small account's reply", timeoutMs: 30_000 });
  // the big account held the rest of the room, no more
  assert.ok(silent.connections >= 4, `${silent.connections} connections to the silent server`);
  assert.equal(poller.child.exitCode, null);
});
