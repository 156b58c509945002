import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, test } from "node:test";
import { createRedis, EgressGuard, RedisSemaphore } from "@outreach/core";
import { findFreePort, startSmtpServer, type SmtpTestServer } from "@outreach/testing";
import { classifySmtpError, type SmtpFailure } from "../src/classify-smtp-error.js";
import { SmtpPool } from "../src/smtp-pool.js";

// Against the real test SMTP server, through the real pool: whether a failed
// send is retried depends on whether the server could have the message, which
// nodemailer's error alone does not tell (see SmtpProgress).
const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const redis = createRedis({ redisUrl }, "producer");
let smtp: SmtpTestServer;
let unpipelined: SmtpTestServer;
let pool: SmtpPool;

before(async () => {
  smtp = await startSmtpServer();
  unpipelined = await startSmtpServer({ pipelining: false });
  const prefix = `test-${randomBytes(6).toString("hex")}`;
  pool = new SmtpPool(new RedisSemaphore(redis, 10, 15_000), {
    leaseKey: (accountId) => `${prefix}:sem:smtp:${accountId}`,
    idleMs: 30_000,
    egress: new EgressGuard({ allowPrivate: true }),
    requireTls: false,
    // a server that never answers fails the send in a second
    timeouts: { connectionTimeout: 2_000, greetingTimeout: 2_000, socketTimeout: 1_000 },
  });
});
after(async () => {
  await pool?.close();
  await smtp?.close();
  await unpipelined?.close();
  await redis.quit();
});

const endpoint = (port: number) => ({ host: smtp.host, port, secure: false, username: "outcome", password: "pw" });

/** Sends one message over a session of the inbox (reused when idle) and classifies how it failed; "sent" when it did not. */
async function send(to: string, port = smtp.port): Promise<SmtpFailure["kind"] | "sent"> {
  const connection = await pool.acquire("acct", `inbox-${port}`, endpoint(port));
  let failed = false;
  try {
    connection.progress.startMessage();
    await connection.transport.sendMail({ from: "outcome@sender.test", to, subject: "s", text: "hello" });
    return "sent";
  } catch (err) {
    failed = true;
    return classifySmtpError(err, connection.progress.phase).kind;
  } finally {
    pool.release(connection, failed);
  }
}

test("failures before the server could have the message are retried or bounced, never unknown", async () => {
  smtp.setRecipientRule("later@example.com", { code: 451, message: "4.2.0 later", times: 1 });
  assert.equal(await send("later@example.com"), "temporary", "4xx to RCPT TO");
  smtp.rejectRecipient("gone@example.com");
  assert.equal(await send("gone@example.com"), "bounce", "5xx to RCPT TO");
  smtp.setDataBehaviour({ kind: "reply", code: 451, message: "4.3.0 try later", times: 1 });
  assert.equal(await send("refused@example.com"), "temporary", "4xx after the final dot is an explicit refusal");
  smtp.setDataBehaviour({ kind: "reply", code: 554, message: "5.7.1 rejected as spam", times: 1 });
  assert.equal(await send("spam@example.com"), "bounce", "5xx after the final dot");
  assert.equal(await send("nobody-listens@example.com", await findFreePort()), "credential", "connection refused");
});

test("no answer after the body (dropped connection, socket timeout) is an unknown outcome", async () => {
  smtp.setDataBehaviour({ kind: "drop", times: 1 });
  assert.equal(await send("dropped@example.com"), "unknown");
  smtp.setDataBehaviour({ kind: "hang", times: 1 });
  assert.equal(await send("hung@example.com"), "unknown");
  assert.deepEqual(
    smtp.transfers.filter((t) => ["dropped@example.com", "hung@example.com"].includes(t.envelope.to[0]!)).map((t) => t.answer),
    ["dropped", "hung"],
  );
});

test("the same without PIPELINING (MAIL FROM, RCPT TO and DATA one at a time)", async () => {
  unpipelined.setRecipientRule("later@example.com", { code: 451, message: "4.2.0 later", times: 1 });
  assert.equal(await send("later@example.com", unpipelined.port), "temporary");
  unpipelined.setDataBehaviour({ kind: "drop", times: 1 });
  assert.equal(await send("dropped@example.com", unpipelined.port), "unknown");
  assert.equal(await send("fine@example.com", unpipelined.port), "sent");
});

test("the phase starts over with each message on a reused session", async () => {
  assert.equal(await send("first@example.com"), "sent");
  // the same idle session: its previous message got as far as the body, this one fails at RCPT TO
  smtp.setRecipientRule("second@example.com", { code: 452, message: "4.2.2 mailbox full", times: 1 });
  assert.equal(await send("second@example.com"), "temporary");
  assert.equal(await send("third@example.com"), "sent");
  // again after a sent message: a connection dropped at RCPT TO (no answer at all) is before the body.
  // (Twice: nodemailer's pool itself resends a message over a new connection once when a reused one
  // fails before any of the message was read.)
  smtp.setRecipientRule("fourth@example.com", { code: 0, message: "", drop: true, times: 2 });
  assert.equal(await send("fourth@example.com"), "credential");
  assert.equal(await send("fifth@example.com"), "sent");
  smtp.setDataBehaviour({ kind: "drop", times: 1 });
  assert.equal(await send("sixth@example.com"), "unknown");
});
