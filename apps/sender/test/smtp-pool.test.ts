import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, test } from "node:test";
import { createRedis, EgressGuard, RedisSemaphore } from "@outreach/core";
import { startSmtpServer, waitFor, type SmtpTestServer } from "@outreach/testing";
import { RedisSessionWantedSignal } from "../src/session-wanted-signal.js";
import { NoSessionAvailableError, SmtpPool } from "../src/smtp-pool.js";

// Two pools stand for two sender processes: they share an account's session
// leases in Redis and talk over the session-wanted channel.
const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const producer = createRedis({ redisUrl }, "producer");
const subscribers = [createRedis({ redisUrl }, "worker"), createRedis({ redisUrl }, "worker")];
let smtp: SmtpTestServer;
before(async () => {
  smtp = await startSmtpServer();
});
after(async () => {
  await smtp?.close();
  await producer.quit();
  await Promise.all(subscribers.map((s) => s.quit().catch(() => undefined)));
});

const endpoint = (username = "pool") => ({ host: smtp.host, port: smtp.port, secure: false, username, password: "pw" });
const email = (to: string) => ({ from: "pool@sender.test", to, subject: "s", text: "t" });

function pools(withSignal: boolean, { limit = 1, acquireTimeoutMs = 1_500 } = {}) {
  const prefix = `test-${randomBytes(6).toString("hex")}`;
  const semaphore = new RedisSemaphore(producer, limit, 15_000);
  const channel = `${prefix}:smtp-session-wanted`;
  const make = (i: number) =>
    new SmtpPool(semaphore, {
      leaseKey: (accountId) => `${prefix}:sem:smtp:${accountId}`,
      idleMs: 30_000,
      acquireTimeoutMs,
      wanted: withSignal ? new RedisSessionWantedSignal(producer, subscribers[i]!, channel) : undefined,
      // the loopback test server is a private host with no TLS
      egress: new EgressGuard({ allowPrivate: true }),
      requireTls: false,
    });
  return { channel, a: make(0), b: make(1) };
}

test("a session of the same inbox is reused between sends; the account's leases bound the sessions open", async () => {
  const { a: pool } = pools(false, { limit: 2 });
  try {
    const first = await pool.acquire("acct", "inbox-1", endpoint());
    await first.transport.sendMail(email("one@example.com"));
    pool.release(first);
    const second = await pool.acquire("acct", "inbox-1", endpoint());
    assert.equal(second, first, "the idle session of the inbox is taken again");
    await second.transport.sendMail(email("two@example.com"));
    const other = await pool.acquire("acct", "inbox-2", endpoint());
    assert.equal(pool.openSessions(), 2);
    await assert.rejects(pool.acquire("acct", "inbox-3", endpoint()), NoSessionAvailableError, "both leases are busy");
    pool.release(second);
    pool.release(other);
  } finally {
    await pool.close();
  }
});

test("without the signal, another process's idle session keeps the lease until its idle timeout", async () => {
  const { a, b } = pools(false);
  try {
    const held = await a.acquire("acct", "inbox-1", endpoint());
    a.release(held);
    await assert.rejects(b.acquire("acct", "inbox-1", endpoint()), NoSessionAvailableError);
    assert.equal(a.openSessions(), 1);
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});

test("with the signal, a process waiting for a lease gets the other process's idle session closed and takes its lease", async () => {
  // b would give up after 10 s; a keeps idle sessions for 30 s: only the signal can free the lease in time
  const { a, b, channel } = pools(true, { acquireTimeoutMs: 10_000 });
  try {
    // both processes listen before anyone asks
    await waitFor(async () => (await producer.pubsub("NUMSUB", channel))[1] === 2, { what: "both subscriptions" });
    const held = await a.acquire("acct", "inbox-1", endpoint("signal"));
    await held.transport.sendMail(email("held@example.com"));
    a.release(held);
    const taken = await b.acquire("acct", "inbox-1", endpoint("signal"));
    assert.equal(a.openSessions(), 0, "a closed its idle session");
    await taken.transport.sendMail(email("taken@example.com"));
    b.release(taken);
    assert.equal(smtp.messagesTo("taken@example.com").length, 1);
    assert.ok(smtp.sessions.maxForAny(["signal"]) === 1, "never two sessions for the one lease");
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});
