import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, test } from "node:test";
import { createRedis, EgressGuard, RedisSemaphore } from "@outreach/core";
import { startSmtpServer, type SmtpTestServer } from "@outreach/testing";
import { NoSessionAvailableError, SmtpPool, type SmtpEndpoint } from "../src/smtp-pool.js";

// Two pools stand for two sender replicas sharing an account's session leases
// (10) and each mailbox's (here 2) in Redis. Two campaigns' credentials use the
// same mailbox (same host and username, in another case), a third inbox of the
// account another mailbox.
const ACCOUNT_LIMIT = 10;
const MAILBOX_LIMIT = 2;
const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const producer = createRedis({ redisUrl }, "producer");
let smtp: SmtpTestServer;
before(async () => {
  // a slow end of DATA keeps sessions open while the others try to get one
  smtp = await startSmtpServer({ latencyMs: 60 });
});
after(async () => {
  await smtp?.close();
  await producer.quit();
});

function replicas(accountLimit = ACCOUNT_LIMIT, mailboxLimit = MAILBOX_LIMIT) {
  const prefix = `test-${randomBytes(6).toString("hex")}`;
  const accountSessions = new RedisSemaphore(producer, accountLimit, 15_000);
  const mailboxSessions = new RedisSemaphore(producer, mailboxLimit, 15_000);
  const make = () =>
    new SmtpPool(accountSessions, {
      leaseKey: (accountId) => `${prefix}:sem:smtp:${accountId}`,
      mailbox: { semaphore: mailboxSessions, leaseKey: (accountId, mailbox) => `${prefix}:sem:smtp-mailbox:${accountId}:${mailbox}` },
      idleMs: 50,
      acquireTimeoutMs: 300,
      egress: new EgressGuard({ allowPrivate: true }),
      requireTls: false,
    });
  return [make(), make()];
}

const endpoint = (username: string): SmtpEndpoint => ({ host: smtp.host, port: smtp.port, secure: false, username, password: "pw" });

/** One due send as the sender works it: a session, the message, release; no session free: back to the schedule (here: tried again). */
async function deliver(pool: SmtpPool, credentialId: string, mailbox: SmtpEndpoint, to: string, noSession: { count: number }): Promise<void> {
  for (;;) {
    try {
      const connection = await pool.acquire("acct", credentialId, mailbox);
      try {
        await connection.transport.sendMail({ from: "cap@sender.test", to, subject: "s", text: "t" });
      } finally {
        pool.release(connection);
      }
      return;
    } catch (err) {
      if (!(err instanceof NoSessionAvailableError)) throw err;
      noSession.count++;
    }
  }
}

test("sessions per mailbox stay within the cap across replicas and campaigns; other mailboxes of the account are not held back", async () => {
  smtp.clear();
  const [a, b] = replicas();
  const shared = "shared@mailbox.test";
  const noSession = { count: 0 };
  try {
    const sends: Array<Promise<void>> = [];
    for (let i = 0; i < 24; i++) {
      const pool = i % 2 === 0 ? a! : b!;
      // campaign 1's credential and campaign 2's credential, the same mailbox (the host name's case differs too)
      const credentialId = i % 3 === 0 ? "campaign-1-inbox" : "campaign-2-inbox";
      const mailbox = { ...endpoint(shared), host: i % 3 === 0 ? smtp.host : smtp.host.toUpperCase() };
      sends.push(deliver(pool, credentialId, mailbox, `c${i}@example.com`, noSession));
    }
    for (let i = 0; i < 6; i++) sends.push(deliver(i % 2 === 0 ? a! : b!, `other-inbox-${i % 3}`, endpoint(`other${i % 3}@mailbox.test`), `o${i}@example.com`, noSession));
    await Promise.all(sends);

    assert.equal(smtp.messages.length, 30, "every send went out in the end");
    assert.ok(smtp.sessions.maxFor(shared) <= MAILBOX_LIMIT, `at most ${MAILBOX_LIMIT} sessions of the shared mailbox at once, saw ${smtp.sessions.maxFor(shared)}`);
    assert.equal(smtp.sessions.maxFor(shared), MAILBOX_LIMIT, "the cap is used, not undershot");
    assert.ok(noSession.count > 0, "sends beyond the cap went back (NoSessionAvailableError)");
    // the other mailboxes had sessions open while the shared one was at its cap
    const others = ["other0@mailbox.test", "other1@mailbox.test", "other2@mailbox.test"];
    assert.ok(smtp.sessions.maxForAny([shared, ...others]) > MAILBOX_LIMIT, "the account's other mailboxes are not held back by the cap");
    assert.ok(smtp.sessions.maxForAny([shared, ...others]) <= ACCOUNT_LIMIT);
  } finally {
    await Promise.all([a!.close(), b!.close()]);
  }
});

test("a mailbox at its cap: an idle session of the same mailbox in this process (another campaign's credential) gives up its lease", async () => {
  const [a, b] = replicas();
  const shared = endpoint("idle@mailbox.test");
  try {
    const one = await a!.acquire("acct", "campaign-1-inbox", shared);
    const two = await a!.acquire("acct", "campaign-1-inbox", shared);
    // both leases of the mailbox busy: another replica cannot open a third
    await assert.rejects(b!.acquire("acct", "campaign-2-inbox", shared), NoSessionAvailableError);
    a!.release(one);
    // this process closes its idle session of the mailbox for the other credential
    const three = await a!.acquire("acct", "campaign-2-inbox", shared);
    assert.notEqual(three, one);
    assert.equal(a!.openSessions(), 2);
    a!.release(two);
    a!.release(three);
  } finally {
    await Promise.all([a!.close(), b!.close()]);
  }
});

test("an account at its limit: an idle session of another mailbox gives up its account lease and its mailbox lease", async () => {
  // the account allows one session, each mailbox one
  const [a, b] = replicas(1, 1);
  const first = endpoint("first@mailbox.test");
  const second = endpoint("second@mailbox.test");
  try {
    const one = await a!.acquire("acct", "inbox-1", first);
    a!.release(one);
    // the account's one lease is the idle session's: this process closes it for the other mailbox
    const two = await a!.acquire("acct", "inbox-2", second);
    assert.equal(a!.openSessions(), 1);
    a!.release(two);
    // the first mailbox's lease was given back when its session was closed (else this waits and fails: the mailbox allows one)
    const three = await a!.acquire("acct", "inbox-1", first);
    // and it is held again by the new session
    await assert.rejects(b!.acquire("acct", "inbox-1", first), (err: Error) => err instanceof NoSessionAvailableError && /mailbox/.test(err.message));
    a!.release(three);
  } finally {
    await Promise.all([a!.close(), b!.close()]);
  }
});
