import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Db } from "@outreach/db";
import { startAppProcess, waitFor, type AppProcess, type ImapTestServer } from "@outreach/testing";
import { enrollmentStatus, mail, replyTo, seedInbox, startPollerFixture, type PollerFixture } from "./helpers.js";

// Anyone can mail a watched inbox. A To: of 50,000 addresses and a From: of 20,000 nested groups
// (quadratic and recursive in the address parser of nodemailer 7) must neither stop the poller
// nor stall its event loop: /healthz, asked every 100 ms, answers within 1 s each time, and the
// normal reply that follows in the same inbox is detected.
let pollerFixture: PollerFixture | undefined;
let imap: ImapTestServer;
let db: Db;
let poller: AppProcess | undefined;

before(async () => {
  pollerFixture = await startPollerFixture();
  ({ imap, db } = pollerFixture);
});
after(() => pollerFixture?.stop(async () => await poller?.stop("SIGTERM", 10_000)));

test("a To: of 50,000 addresses and a From: of 20,000 nested groups: /healthz answers within 1 s throughout, and the next reply is detected", async () => {
  const { env, keyring } = pollerFixture!;
  const s = await seedInbox(db, keyring, imap);
  poller = await startAppProcess("imap-poller", { env });
  await waitFor(async () => (await db.smtpCredential.findUniqueOrThrow({ where: { id: s.credentialId } })).imapUidValidity !== null, { what: "the first check", timeoutMs: 20_000 });

  const slowest = { ms: 0 };
  const failures: string[] = [];
  let polling = true;
  const health = (async () => {
    while (polling) {
      const started = Date.now();
      try {
        const res = await fetch(`${poller!.baseUrl}/healthz`, { signal: AbortSignal.timeout(1_000) });
        if (res.status !== 200) failures.push(`status ${res.status}`);
      } catch (err) {
        failures.push((err as Error).message);
      }
      slowest.ms = Math.max(slowest.ms, Date.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();

  const many = Array.from({ length: 50_000 }, (_, i) => `person${i}@example.org`).join(", ");
  const nested = `${"g:".repeat(20_000)}someone@example.org${";".repeat(20_000)}`;
  await imap.appendMessage(s.inbox, mail({ From: "crowd@example.org", To: many, Subject: "To everyone" }, "Hello all."));
  await imap.appendMessage(s.inbox, mail({ From: nested, To: s.inbox, Subject: "Groups" }, "Nested."));
  const reply = await imap.appendMessage(s.inbox, replyTo(s));
  try {
    await waitFor(async () => (await enrollmentStatus(db, s.enrollments[0]!.enrollmentId)) === "replied", { what: "the reply after the bombs", timeoutMs: 40_000 });
  } finally {
    polling = false;
    await health;
  }
  console.log(`# slowest /healthz ${slowest.ms} ms`);
  assert.deepEqual(failures, [], "every /healthz answered 200 within 1 s");
  const rows = await db.inboundMessage.findMany({ where: { credentialId: s.credentialId }, orderBy: { uid: "asc" } });
  assert.equal(rows.length, 3, "all three messages recorded");
  assert.equal(rows.at(-1)!.uid, BigInt(reply.uid));
  assert.equal(rows.at(-1)!.kind, "reply");
  assert.equal(poller.child.exitCode, null, `the poller is still running:\n${poller.output()}`);
});
