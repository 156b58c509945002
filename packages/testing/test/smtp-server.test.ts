import { test, describe, before, after, beforeEach } from "node:test";
import assert from "node:assert/strict";
import nodemailer from "nodemailer";
import { startSmtpServer, type SmtpTestServer } from "../src/smtp-server.js";

function transportFor(server: SmtpTestServer, user: string, extra: Record<string, unknown> = {}) {
  return nodemailer.createTransport({
    host: server.host,
    port: server.port,
    secure: false,
    ignoreTLS: true,
    auth: { user, pass: "any-password" },
    ...extra,
  });
}

function responseCodeOf(error: unknown): number | undefined {
  return (error as { responseCode?: number }).responseCode;
}

describe("startSmtpServer", () => {
  let server: SmtpTestServer;

  before(async () => {
    server = await startSmtpServer();
  });
  after(async () => {
    await server.close();
  });
  beforeEach(() => server.clear());

  test("records an authenticated message with its envelope, headers and username", async () => {
    const transport = transportFor(server, "sender-one@example.test");
    await transport.sendMail({
      from: "Sender One <sender-one@example.test>",
      to: "lead@example.test",
      subject: "Quick question",
      text: "Hello in text",
      html: "<p>Hello in html</p>",
      messageId: "<msg-1@example.test>",
      inReplyTo: "<earlier@example.test>",
      references: ["<root@example.test>", "<earlier@example.test>"],
      headers: { "X-Campaign-Id": "campaign-42" },
    });
    transport.close();

    const [message] = await server.waitForMessages(1, 5000);
    assert.ok(message);
    assert.equal(message.username, "sender-one@example.test");
    assert.deepEqual(message.envelope, { from: "sender-one@example.test", to: ["lead@example.test"] });
    assert.equal(message.parsed.subject, "Quick question");
    assert.equal(message.parsed.messageId, "<msg-1@example.test>");
    assert.equal(message.parsed.inReplyTo, "<earlier@example.test>");
    assert.deepEqual(message.parsed.references, ["<root@example.test>", "<earlier@example.test>"]);
    assert.equal(message.parsed.text?.trim(), "Hello in text");
    assert.equal(message.parsed.html, "<p>Hello in html</p>");
    assert.equal(message.parsed.headers.get("x-campaign-id"), "campaign-42");
    assert.match(message.raw.toString("utf8"), /^Subject: Quick question\r$/m);
    assert.ok(message.receivedAt instanceof Date);
  });

  test("a 5xx recipient rule bounces that recipient and records nothing for it", async () => {
    server.rejectRecipient("bounce@example.test");
    const transport = transportFor(server, "sender-one@example.test");

    await assert.rejects(transport.sendMail({ from: "sender-one@example.test", to: "bounce@example.test", subject: "x", text: "x" }), (error: unknown) => {
      assert.equal(responseCodeOf(error), 550);
      return true;
    });

    const info = await transport.sendMail({
      from: "sender-one@example.test",
      to: ["bounce@example.test", "ok@example.test"],
      subject: "partly rejected",
      text: "x",
    });
    transport.close();

    assert.deepEqual(info.rejected, ["bounce@example.test"]);
    const [message] = await server.waitForMessages(1, 5000);
    assert.deepEqual(message?.envelope.to, ["ok@example.test"]);
    assert.equal(server.messagesTo("bounce@example.test").length, 0);
    assert.equal(server.messages.length, 1);
  });

  test("a 4xx recipient rule is a temporary failure and can expire after N attempts", async () => {
    server.setRecipientRule("later@example.test", { code: 451, message: "4.7.1 Try again later", times: 1 });
    const transport = transportFor(server, "sender-one@example.test");
    const mail = { from: "sender-one@example.test", to: "later@example.test", subject: "retry", text: "x" };

    await assert.rejects(transport.sendMail(mail), (error: unknown) => {
      assert.equal(responseCodeOf(error), 451);
      return true;
    });
    assert.equal(server.messages.length, 0);

    await transport.sendMail(mail);
    transport.close();
    assert.equal(server.messagesTo("later@example.test").length, 1);
  });

  test("counts concurrent sessions per authenticated username", async () => {
    const slowServer = await startSmtpServer({ latencyMs: 300 });
    try {
      const sendAs = (user: string, count: number) => {
        const transport = transportFor(slowServer, user, { pool: true, maxConnections: count });
        const sends = Array.from({ length: count }, (_, i) => transport.sendMail({ from: user, to: `lead${i}@example.test`, subject: `s${i}`, text: "x" }));
        return Promise.all(sends).finally(() => transport.close());
      };

      await Promise.all([sendAs("alpha@example.test", 3), sendAs("beta@example.test", 1)]);

      assert.equal(slowServer.messages.length, 4);
      assert.equal(slowServer.sessions.maxFor("alpha@example.test"), 3);
      assert.equal(slowServer.sessions.maxFor("beta@example.test"), 1);
      assert.equal(slowServer.sessions.max, 4);
      assert.equal(slowServer.messages.filter((m) => m.username === "alpha@example.test").length, 3);
    } finally {
      await slowServer.close();
    }
  });

  test("waitForMessages rejects when the messages do not arrive in time", async () => {
    await assert.rejects(server.waitForMessages(1, 100), /Expected 1 SMTP message/);
  });
});
