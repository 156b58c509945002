import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, test } from "node:test";
import { createRedis, EgressGuard, EgressRefusedError, RedisSemaphore } from "@outreach/core";
import { startDnsServer, startSmtpServer, TEST_TLS_CA, type DnsTestServer, type SmtpTestServer } from "@outreach/testing";
import { classifySmtpError } from "../src/classify-smtp-error.js";
import { SmtpPool, type SmtpEndpoint } from "../src/smtp-pool.js";

// Real servers on loopback: a plaintext one, one that offers STARTTLS and one
// with implicit TLS (both with the test certificate for mail.tls.test), and a
// DNS server that points names at them.
const redis = createRedis({ redisUrl: process.env.REDIS_URL ?? "redis://127.0.0.1:6379" }, "producer");
let plain: SmtpTestServer;
let starttls: SmtpTestServer;
let implicit: SmtpTestServer;
let dns: DnsTestServer;
before(async () => {
  [plain, starttls, implicit, dns] = await Promise.all([startSmtpServer(), startSmtpServer({ tls: "starttls" }), startSmtpServer({ tls: "implicit" }), startDnsServer()]);
  dns.setA("mail.tls.test", ["127.0.0.1"]);
  dns.setA("other.tls.test", ["127.0.0.1"]);
  dns.setA("rebind.example.com", ["10.0.0.5"]);
  dns.setA("loop.example.com", ["127.0.0.1"]);
});
after(async () => {
  await Promise.all([plain?.close(), starttls?.close(), implicit?.close(), dns?.close()]);
  await redis.quit();
});

function pool(options: { requireTls: boolean; allowPrivate: boolean; ca?: boolean }): SmtpPool {
  const prefix = `test-${randomBytes(6).toString("hex")}`;
  return new SmtpPool(new RedisSemaphore(redis, 10, 15_000), {
    leaseKey: (accountId) => `${prefix}:sem:smtp:${accountId}`,
    idleMs: 200,
    acquireTimeoutMs: 2_000,
    egress: new EgressGuard({ allowPrivate: options.allowPrivate, dnsServers: [dns.address] }),
    requireTls: options.requireTls,
    tlsCa: options.ca === false ? undefined : TEST_TLS_CA,
    timeouts: { connectionTimeout: 3_000, greetingTimeout: 3_000, socketTimeout: 5_000 },
  });
}

const endpoint = (server: SmtpTestServer, host = "mail.tls.test", secure = false): SmtpEndpoint => ({
  host,
  port: server.port,
  secure,
  username: `user-${randomBytes(3).toString("hex")}`,
  password: "secret-password",
});
const message = (to: string) => ({ from: "sender@example.com", to, subject: "hello", text: "hi" });

/** Sends one message through a fresh session; resolves to the error, or null when it was accepted. */
async function trySend(p: SmtpPool, server: SmtpTestServer, to: string, host?: string, secure?: boolean): Promise<unknown> {
  const connection = await p.acquire("acct", `inbox-${to}`, endpoint(server, host, secure));
  try {
    await connection.transport.sendMail(message(to));
    p.release(connection);
    return null;
  } catch (err) {
    p.release(connection, true);
    return err;
  }
}

test("MAIL_REQUIRE_TLS: a plaintext server is refused before any password is sent, as a credential error", async () => {
  const p = pool({ requireTls: true, allowPrivate: true });
  try {
    const err = await trySend(p, plain, "plain@example.com");
    assert.ok(err, "the send must fail");
    assert.equal(classifySmtpError(err).kind, "credential", `classified as the credential's failure: ${String(err)}`);
    assert.equal(plain.messagesTo("plain@example.com").length, 0);
    assert.equal(plain.auths.total, 0, "no AUTH was attempted over plaintext");
  } finally {
    await p.close();
  }
});

test("MAIL_REQUIRE_TLS: STARTTLS with a verified certificate is accepted; AUTH happens inside TLS", async () => {
  const p = pool({ requireTls: true, allowPrivate: true });
  try {
    assert.equal(await trySend(p, starttls, "tls@example.com"), null);
    assert.equal(starttls.messagesTo("tls@example.com").length, 1);
    assert.ok(starttls.auths.total >= 1);
    assert.equal(starttls.auths.inClear, 0);
  } finally {
    await p.close();
  }
});

test("MAIL_REQUIRE_TLS: implicit TLS (smtp_secure) is accepted", async () => {
  const p = pool({ requireTls: true, allowPrivate: true });
  try {
    assert.equal(await trySend(p, implicit, "implicit@example.com", "mail.tls.test", true), null);
    assert.equal(implicit.messagesTo("implicit@example.com").length, 1);
  } finally {
    await p.close();
  }
});

test("certificates are verified: an untrusted issuer or a name the certificate does not cover is refused", async () => {
  const untrusted = pool({ requireTls: true, allowPrivate: true, ca: false });
  const strict = pool({ requireTls: true, allowPrivate: true });
  try {
    const unknownIssuer = await trySend(untrusted, starttls, "untrusted@example.com");
    assert.ok(unknownIssuer, "a certificate from an unknown CA is refused");
    assert.equal(classifySmtpError(unknownIssuer).kind, "credential");
    // other.tls.test resolves to the same server, whose certificate names mail.tls.test
    const wrongName = await trySend(strict, starttls, "wrong-name@example.com", "other.tls.test");
    assert.ok(wrongName, "a certificate for another name is refused");
    assert.match(String(wrongName), /other\.tls\.test|altnames|hostname/i);
    assert.equal(starttls.messagesTo("untrusted@example.com").length + starttls.messagesTo("wrong-name@example.com").length, 0);
  } finally {
    await Promise.all([untrusted.close(), strict.close()]);
  }
});

test("MAIL_REQUIRE_TLS=false allows a plaintext server (development, tests)", async () => {
  const p = pool({ requireTls: false, allowPrivate: true });
  try {
    assert.equal(await trySend(p, plain, "dev@example.com", "127.0.0.1"), null);
    assert.equal(plain.messagesTo("dev@example.com").length, 1);
  } finally {
    await p.close();
  }
});

test("the egress guard runs at connect: internal addresses and names resolving to them are never dialled", async () => {
  const p = pool({ requireTls: false, allowPrivate: false });
  const before = plain.sessions.max;
  try {
    for (const host of ["127.0.0.1", "localhost", "loop.example.com", "rebind.example.com", "[::1]", "169.254.169.254"]) {
      await assert.rejects(p.acquire("acct", `inbox-${host}`, endpoint(plain, host)), (err: unknown) => err instanceof EgressRefusedError && /must be a public host/.test(err.reason), host);
    }
    assert.equal(p.openSessions(), 0, "a refused host holds no session lease");
    assert.equal(plain.sessions.max, before, "no connection reached the server");
    assert.equal(classifySmtpError(Object.assign(new Error("x"), { code: "EGRESS_REFUSED" })).kind, "credential");
  } finally {
    await p.close();
  }
});
