import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import nodemailer from "nodemailer";
import { ImapFlow } from "imapflow";
import { startOAuthStandIn, type OAuthStandIn } from "../src/oauth-stand-in.js";
import { startSmtpServer, type SmtpTestServer } from "../src/smtp-server.js";
import { dovecotUnavailableReason, startDovecot, type DovecotTestServer } from "../src/dovecot.js";
import { skipWithoutSystemServer } from "../src/system-servers.js";

const MAILBOX = "sales@example.test";

function send(server: SmtpTestServer, user: string, accessToken: string) {
  const transport = nodemailer.createTransport({ host: server.host, port: server.port, secure: false, ignoreTLS: true, auth: { type: "OAuth2", user, accessToken } });
  return transport.sendMail({ from: user, to: "lead@example.test", subject: "Hello", text: "Hi" }).finally(() => transport.close());
}

describe("startSmtpServer with xoauth2", () => {
  let standIn: OAuthStandIn;
  let server: SmtpTestServer;
  before(async () => {
    standIn = await startOAuthStandIn();
    server = await startSmtpServer({ xoauth2: (user, token) => standIn.userOfAccessToken(token) === user });
  });
  after(async () => {
    await server.close();
    await standIn.close();
  });

  test("accepts a token the stand-in issued for that mailbox and records it with the message", async () => {
    const token = standIn.issueAccessToken(MAILBOX);
    await send(server, MAILBOX, token);
    const [message] = await server.waitForMessages(1);
    assert.equal(message!.username, MAILBOX);
    assert.equal(message!.accessToken, token);
    assert.deepEqual(server.xoauth2Logins, [{ username: MAILBOX, accessToken: token, accepted: true }]);
  });

  test("refuses with a bare 535 an expired token, another mailbox's token and a password", async () => {
    const other = standIn.issueAccessToken("other@example.test");
    await assert.rejects(send(server, MAILBOX, other), (error: any) => error.responseCode === 535 && error.code === "EAUTH");
    const token = standIn.issueAccessToken(MAILBOX);
    standIn.expireAccessTokens();
    await assert.rejects(send(server, MAILBOX, token), (error: any) => error.responseCode === 535);
    const withPassword = nodemailer.createTransport({ host: server.host, port: server.port, secure: false, ignoreTLS: true, auth: { user: MAILBOX, pass: "a-password" } });
    await assert.rejects(withPassword.sendMail({ from: MAILBOX, to: "lead@example.test", text: "Hi" }), (error: any) => error.code === "EAUTH");
    withPassword.close();
    assert.equal(server.messages.length, 1);
  });
});

describe("startDovecot with oauth2", { skip: skipWithoutSystemServer("Dovecot", dovecotUnavailableReason()) }, () => {
  let standIn: OAuthStandIn;
  let dovecot: DovecotTestServer;
  before(async () => {
    standIn = await startOAuthStandIn();
    dovecot = await startDovecot({ oauth2: { introspectionUrl: standIn.introspectionUrl, accessTokenFor: (email) => standIn.issueAccessToken(email) } });
  });
  after(async () => {
    await dovecot?.close();
    await standIn.close();
  });

  const client = (auth: { user: string; accessToken: string } | { user: string; pass: string }) =>
    new ImapFlow({ host: dovecot.host, port: dovecot.port, secure: false, auth, logger: false, disableAutoIdle: true });

  test("a valid token logs in with XOAUTH2 and sees what appendMessage stored; expired or revoked tokens are AUTHENTICATIONFAILED", async () => {
    await dovecot.appendMessage(MAILBOX, "From: lead@example.test\r\nTo: sales@example.test\r\nSubject: Re: Hello\r\n\r\nYes\r\n");
    const token = standIn.issueAccessToken(MAILBOX);
    const before = standIn.introspections;
    const good = client({ user: MAILBOX, accessToken: token });
    await good.connect();
    const status = await good.status("INBOX", { messages: true });
    assert.equal(status && status.messages, 1);
    await good.logout();
    assert.ok(standIn.introspections > before);

    standIn.expireAccessTokens();
    const expired = client({ user: MAILBOX, accessToken: token });
    await assert.rejects(expired.connect(), (error: any) => error.authenticationFailed === true);

    const fresh = standIn.issueAccessToken(MAILBOX);
    standIn.revokeMailbox(MAILBOX);
    await assert.rejects(client({ user: MAILBOX, accessToken: fresh }).connect(), (error: any) => error.authenticationFailed === true);
    await assert.rejects(client({ user: MAILBOX, pass: "a-password" }).connect());
  });
});
