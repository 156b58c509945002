import assert from "node:assert/strict";
import { randomBytes, randomUUID } from "node:crypto";
import { after, before, test } from "node:test";
import { createRedis, EgressGuard, Keyring, RedisSemaphore } from "@outreach/core";
import { MailboxTokens, saveOAuthConnection } from "@outreach/domain";
import { createTestDatabase, startOAuthStandIn, startSmtpServer, type OAuthStandIn, type SmtpTestServer, type TestDatabase } from "@outreach/testing";
import { isLoginRefusal, loginEndpointOf } from "../src/mailbox-login.js";
import { SmtpPool } from "../src/smtp-pool.js";

// An OAuth2 mailbox's pooled SMTP sessions log in with XOAUTH2 and the token MailboxTokens
// holds at each login: a session reconnecting after a refresh uses the new token, and a
// server answering Gmail's 334 challenge gets a refreshed token within the same send.
const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const producer = createRedis({ redisUrl }, "producer");
const keys = new Keyring(randomBytes(32));
const MAILBOX = "sales@example.test";
let database: TestDatabase;
let standIn: OAuthStandIn;
let tokens: MailboxTokens;

before(async () => {
  database = await createTestDatabase();
  standIn = await startOAuthStandIn();
  tokens = new MailboxTokens({
    db: database.db,
    keys,
    clients: { google: { clientId: standIn.clientId, clientSecret: standIn.clientSecret, authorizeUrl: standIn.authorizeUrl, tokenUrl: standIn.tokenUrl } },
  });
});
after(async () => {
  await standIn?.close();
  await database?.drop();
  await producer.quit();
});

function newPool(): SmtpPool {
  const prefix = `test-${randomBytes(6).toString("hex")}`;
  return new SmtpPool(new RedisSemaphore(producer, 2, 15_000), {
    leaseKey: (accountId) => `${prefix}:sem:smtp:${accountId}`,
    idleMs: 30_000,
    egress: new EgressGuard({ allowPrivate: true }),
    requireTls: false,
  });
}

/** A credential of an OAuth2 mailbox on `smtp`, its connection holding a refresh token the stand-in issued. */
async function oauthCredential(smtp: SmtpTestServer) {
  const plan = await database.db.plan.findUniqueOrThrow({ where: { slug: "scale" } });
  const account = await database.db.account.create({ data: { email: `acct-${randomUUID()}@example.test`, planId: plan.id, currentPeriodEnd: new Date(Date.now() + 86_400_000) } });
  const connection = await saveOAuthConnection(database.db, keys, { accountId: account.id, provider: "google", email: MAILBOX, refreshToken: standIn.issueRefreshToken(MAILBOX) });
  return { id: randomUUID(), smtpHost: smtp.host, smtpPort: smtp.port, smtpSecure: false, smtpUsername: MAILBOX, smtpPasswordEnc: null, oauthConnectionId: connection.id };
}

const email = (to: string) => ({ from: MAILBOX, to, subject: "Hello", text: "Hi" });

test("a pooled session that reconnects after the token was refreshed logs in with the new token", async () => {
  const smtp = await startSmtpServer({ xoauth2: (user, token) => standIn.userOfAccessToken(token) === user });
  const pool = newPool();
  try {
    const credential = await oauthCredential(smtp);
    const endpoint = await loginEndpointOf(credential, keys, tokens);
    assert.deepEqual([endpoint.username, endpoint.password, endpoint.oauth?.connectionId], [MAILBOX, "", credential.oauthConnectionId]);
    const session = await pool.acquire("acct", credential.id, endpoint);
    await pool.send(session, email("one@example.com"));
    pool.release(session);

    // the provider expires the token and ends the session; this process refreshes it after a refusal elsewhere
    const first = smtp.messages[0]!.accessToken!;
    standIn.expireAccessTokens();
    smtp.dropSessions();
    await tokens.accessTokenFor(credential.oauthConnectionId, { forceRefresh: true });

    const again = await pool.acquire("acct", credential.id, await loginEndpointOf(credential, keys, tokens));
    assert.equal(again, session, "the same pooled session: it is bound to the connection, not to a token");
    await pool.send(again, email("two@example.com"));
    pool.release(again);
    const second = smtp.messages[1]!.accessToken!;
    assert.notEqual(second, first);
    assert.equal(standIn.userOfAccessToken(second), MAILBOX);
    assert.deepEqual(
      smtp.xoauth2Logins.map((login) => login.accepted),
      [true, true],
      "no login with the replaced token",
    );
  } finally {
    await pool.close();
    await smtp.close();
  }
});

test("a bare 535 to an expired token is a login refusal the send step retries; Gmail's 334 challenge gets a refreshed token in the same send", async () => {
  const bare = await startSmtpServer({ xoauth2: (user, token) => standIn.userOfAccessToken(token) === user });
  const challenging = await startSmtpServer({ xoauth2: (user, token) => standIn.userOfAccessToken(token) === user, xoauth2Challenge: true });
  const pool = newPool();
  try {
    const onBare = await oauthCredential(bare);
    await tokens.accessTokenFor(onBare.oauthConnectionId);
    standIn.expireAccessTokens();
    const refused = await pool.acquire("acct", onBare.id, await loginEndpointOf(onBare, keys, tokens));
    const failure = await pool.send(refused, email("one@example.com")).then(
      () => undefined,
      (err: unknown) => err,
    );
    pool.release(refused, true);
    assert.ok(isLoginRefusal(failure), `a login refusal: ${String(failure)}`);
    assert.equal(bare.messages.length, 0);

    const onGmail = await oauthCredential(challenging);
    await tokens.accessTokenFor(onGmail.oauthConnectionId);
    standIn.expireAccessTokens();
    const grants = standIn.tokenRequests.length;
    const session = await pool.acquire("acct", onGmail.id, await loginEndpointOf(onGmail, keys, tokens));
    await pool.send(session, email("two@example.com"));
    pool.release(session);
    assert.deepEqual(
      challenging.xoauth2Logins.map((login) => login.accepted),
      [false, true],
    );
    assert.deepEqual(
      standIn.tokenRequests.slice(grants).map((r) => r.grant_type),
      ["refresh_token"],
    );
    assert.equal(challenging.messages.length, 1);
  } finally {
    await pool.close();
    await bare.close();
    await challenging.close();
  }
});
