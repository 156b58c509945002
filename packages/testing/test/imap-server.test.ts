import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { once } from "node:events";
import { setTimeout as delay } from "node:timers/promises";
import { ImapFlow } from "imapflow";
import { simpleParser } from "mailparser";
import { dovecotUnavailableReason, startDovecot } from "../src/dovecot.js";
import { skipWithoutSystemServer } from "../src/system-servers.js";
import { imapServerKind, startHoodiecrowImap, startImapServer, type ImapTestServer } from "../src/imap-server.js";

const ALICE = { email: "alice@example.test", password: "alice-secret" };
const BOB = { email: "bob@example.test", password: "bob-secret" };

function replyMessage(subject: string, inReplyTo: string, references: string[]): string {
  return [
    "From: Lead <lead@prospect.test>",
    `To: ${ALICE.email}`,
    `Subject: ${subject}`,
    "Date: Tue, 04 Mar 2025 10:00:00 +0000",
    `Message-ID: <reply-${subject.replace(/\W/g, "")}@prospect.test>`,
    `In-Reply-To: ${inReplyTo}`,
    `References: ${references.join(" ")}`,
    "MIME-Version: 1.0",
    "Content-Type: text/plain; charset=utf-8",
    "",
    "Thanks, let's talk next week.",
    "",
  ].join("\r\n");
}

async function waitUntil(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() >= deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await delay(20);
  }
}

function clientFor(server: ImapTestServer, user: { email: string; password: string }): ImapFlow {
  return new ImapFlow({
    host: server.host,
    port: server.port,
    secure: server.secure,
    auth: { user: user.email, pass: user.password },
    logger: false,
    disableAutoIdle: true,
  });
}

function describeImapServer(name: string, start: () => Promise<ImapTestServer>, skip: string | false): void {
  describe(name, { skip }, () => {
    let server: ImapTestServer;
    let client: ImapFlow;

    before(async () => {
      server = await start();
      await server.addUser(ALICE.email, ALICE.password);
      await server.addUser(BOB.email, BOB.password);
      client = clientFor(server, ALICE);
      await client.connect();
    });
    after(async () => {
      await client?.logout().catch(() => undefined);
      await server?.close();
    });

    test("an appended reply round-trips its threading headers through SELECT and UID FETCH", async () => {
      const references = ["<first@outreach.test>", "<second@outreach.test>"];
      const appended = await client.append("INBOX", replyMessage("Re: Intro", "<second@outreach.test>", references));
      assert.ok(appended && appended.uid, "APPEND reports the new UID (UIDPLUS)");

      const mailbox = await client.mailboxOpen("INBOX");
      assert.ok(mailbox.uidValidity > 0n, "SELECT reports UIDVALIDITY");
      assert.equal(mailbox.exists, 1);

      const fetched = await client.fetchAll("1:*", { uid: true, envelope: true, headers: true, source: true }, { uid: true });
      assert.equal(fetched.length, 1);
      const [message] = fetched;
      assert.ok(message);
      assert.equal(message.uid, appended.uid);
      assert.equal(message.envelope?.subject, "Re: Intro");
      assert.equal(message.envelope?.inReplyTo, "<second@outreach.test>");
      assert.equal(message.envelope?.messageId, "<reply-ReIntro@prospect.test>");
      assert.match(message.headers?.toString() ?? "", /^References: <first@outreach.test> <second@outreach.test>\r$/m);

      const parsed = await simpleParser(message.source ?? Buffer.alloc(0));
      assert.equal(parsed.inReplyTo, "<second@outreach.test>");
      assert.deepEqual(parsed.references, references);
      assert.equal(parsed.text?.trim(), "Thanks, let's talk next week.");
    });

    test("a second APPEND gets a higher UID under the same UIDVALIDITY", async () => {
      const before = await client.mailboxOpen("INBOX");
      const first = await client.append("INBOX", replyMessage("Re: One", "<a@outreach.test>", ["<a@outreach.test>"]));
      const second = await client.append("INBOX", replyMessage("Re: Two", "<b@outreach.test>", ["<b@outreach.test>"]));
      assert.ok(first && first.uid && second && second.uid);
      assert.ok(second.uid > first.uid, `${second.uid} > ${first.uid}`);

      const after = await client.mailboxOpen("INBOX");
      assert.equal(after.uidValidity, before.uidValidity);
      const uids = (await client.fetchAll(`${first.uid}:*`, { uid: true }, { uid: true })).map((m) => m.uid);
      assert.deepEqual(uids, [first.uid, second.uid]);
    });

    test("a message put in by the harness is pushed to an IDLE client", async () => {
      await client.mailboxOpen("INBOX");
      const existsBefore = client.mailbox ? client.mailbox.exists : 0;
      const idling = client.idle();
      await waitUntil(() => client.idling, 5000, "the client to enter IDLE");

      const newMail = once(client, "exists", { signal: AbortSignal.timeout(10_000) });
      const appended = await server.appendMessage(ALICE.email, replyMessage("Re: Pushed", "<c@outreach.test>", ["<c@outreach.test>"]));
      const [event] = (await newMail) as [{ count: number; prevCount: number }];
      assert.equal(event.count, existsBefore + 1);

      await client.noop(); // ends IDLE
      await idling;
      const [message] = await client.fetchAll(`${appended.uid}`, { uid: true, envelope: true }, { uid: true });
      assert.equal(message?.envelope?.subject, "Re: Pushed");
    });

    test("each user has their own INBOX and a wrong password is refused", async () => {
      await server.appendMessage(BOB.email, Buffer.from(replyMessage("Re: For Bob", "<d@outreach.test>", ["<d@outreach.test>"])));
      const bob = clientFor(server, BOB);
      await bob.connect();
      try {
        const inbox = await bob.mailboxOpen("INBOX");
        assert.equal(inbox.exists, 1);
        const [message] = await bob.fetchAll("1:*", { envelope: true });
        assert.equal(message?.envelope?.subject, "Re: For Bob");
      } finally {
        await bob.logout();
      }

      const intruder = clientFor(server, { email: ALICE.email, password: "wrong" });
      await assert.rejects(intruder.connect());
      intruder.close();
    });
  });
}

describeImapServer("hoodiecrow IMAP server", startHoodiecrowImap, false);
describeImapServer("Dovecot IMAP server", startDovecot, skipWithoutSystemServer("Dovecot", dovecotUnavailableReason()));

describe("startImapServer", () => {
  test("starts the kind imapServerKind() names", async () => {
    const server = await startImapServer();
    try {
      assert.equal(server.kind, imapServerKind());
      assert.ok(server.port > 0);
    } finally {
      await server.close();
    }
  });
});
