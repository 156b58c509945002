import assert from "node:assert/strict";
import { randomBytes, randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { after, before, test } from "node:test";
import { decryptSecret, Keyring, secretAad } from "@outreach/core";
import type { Db } from "@outreach/db";
import { createTestDatabase, startOAuthStandIn, type OAuthStandIn, type TestDatabase } from "@outreach/testing";
import {
  createOAuthState,
  emailOfIdToken,
  exchangeAuthorizationCode,
  MailboxAuthRevokedError,
  MailboxTokens,
  MailboxTokenUnavailableError,
  readOAuthState,
  saveOAuthConnection,
  type OAuthClients,
} from "../src/mailboxes/index.js";

let database: TestDatabase;
let db: Db;
let standIn: OAuthStandIn;
let clients: OAuthClients;
const keys = new Keyring(randomBytes(32));

before(async () => {
  database = await createTestDatabase();
  db = database.db;
  standIn = await startOAuthStandIn();
  const client = { clientId: standIn.clientId, clientSecret: standIn.clientSecret, authorizeUrl: standIn.authorizeUrl, tokenUrl: standIn.tokenUrl };
  clients = { google: client, microsoft: client };
});

after(async () => {
  await standIn?.close();
  await database?.drop();
});

/** An account with a connection for `email` (its refresh token from the stand-in) used by `credentials` campaigns' inboxes. */
async function seed(options: { credentials?: number; provider?: "google" | "microsoft" } = {}) {
  const tag = randomUUID().slice(0, 8);
  const email = `sales-${tag}@example.test`;
  const plan = await db.plan.findUniqueOrThrow({ where: { slug: "scale" } });
  const accountId = (await db.account.create({ data: { email: `acct-${tag}@example.test`, planId: plan.id, currentPeriodEnd: new Date(Date.now() + 30 * 86_400_000) } })).id;
  const refreshToken = standIn.issueRefreshToken(email);
  const { id: connectionId } = await saveOAuthConnection(db, keys, { accountId, provider: options.provider ?? "google", email, refreshToken });
  const credentialIds: string[] = [];
  for (let i = 0; i < (options.credentials ?? 1); i++) {
    const { id: campaignId } = await db.campaign.create({ data: { accountId, name: `Campaign ${tag} ${i}` } });
    const credential = await db.smtpCredential.create({
      data: { accountId, campaignId, label: "Inbox", fromEmail: email, smtpHost: "127.0.0.1", smtpPort: 25, smtpUsername: email, oauthConnectionId: connectionId, dailyLimit: 50 },
    });
    credentialIds.push(credential.id);
  }
  return { accountId, email, refreshToken, connectionId, credentialIds };
}

const refreshesOf = (refreshToken: string) => standIn.tokenRequests.filter((r) => r.grant_type === "refresh_token" && r.refresh_token === refreshToken).length;
const tokens = (now?: () => Date) => new MailboxTokens({ db, keys, clients, ...(now ? { now } : {}) });

test("the first call refreshes and stores the access token sealed; a valid token is then reused, from memory and by another process from the row", async () => {
  const s = await seed();
  const first = await tokens().accessTokenFor(s.connectionId);
  assert.equal(first.user, s.email);
  assert.equal(standIn.userOfAccessToken(first.accessToken), s.email, "a token the provider issued");
  assert.ok(first.expiresAt.getTime() > Date.now() + 3_000_000);
  assert.equal(refreshesOf(s.refreshToken), 1);

  const row = await db.oAuthConnection.findUniqueOrThrow({ where: { id: s.connectionId } });
  assert.ok(row.accessTokenEnc && !row.accessTokenEnc.includes(first.accessToken), "sealed");
  assert.equal(decryptSecret(row.accessTokenEnc, keys, secretAad("oauth_connections", "accessTokenEnc", s.connectionId)), first.accessToken);
  assert.ok(!row.refreshTokenEnc.includes(s.refreshToken));
  assert.equal(decryptSecret(row.refreshTokenEnc, keys, secretAad("oauth_connections", "refreshTokenEnc", s.connectionId)), s.refreshToken);

  const service = tokens();
  assert.equal((await service.accessTokenFor(s.connectionId)).accessToken, first.accessToken, "another process reads the stored one");
  assert.equal((await service.accessTokenFor(s.connectionId)).accessToken, first.accessToken, "and then serves it from memory");
  assert.equal(refreshesOf(s.refreshToken), 1, "no second refresh");
});

test("a token with less than 2 minutes left is refreshed; forceRefresh gets a new one, unless another process already stored one since", async () => {
  const s = await seed();
  const service = tokens();
  const first = await service.accessTokenFor(s.connectionId);
  // an hour later the stored token has under 2 minutes left
  const later = tokens(() => new Date(first.expiresAt.getTime() - 60_000));
  const second = await later.accessTokenFor(s.connectionId);
  assert.notEqual(second.accessToken, first.accessToken);
  assert.equal(refreshesOf(s.refreshToken), 2);

  // the server refused `second` (a 535): a forced refresh in the process that served it
  const forced = await later.accessTokenFor(s.connectionId, { forceRefresh: true });
  assert.notEqual(forced.accessToken, second.accessToken);
  assert.equal(refreshesOf(s.refreshToken), 3);

  // a process still holding `first` is refused too: the row has a newer token, which it takes without refreshing
  const taken = await service.accessTokenFor(s.connectionId, { forceRefresh: true });
  assert.equal(taken.accessToken, forced.accessToken);
  assert.equal(refreshesOf(s.refreshToken), 3);
});

test("a rotated refresh token (Microsoft) is stored and used for the next refresh", async () => {
  const s = await seed({ provider: "microsoft" });
  standIn.options.rotateRefreshTokens = true;
  try {
    const service = tokens();
    await service.accessTokenFor(s.connectionId);
    const row = await db.oAuthConnection.findUniqueOrThrow({ where: { id: s.connectionId } });
    const rotated = decryptSecret(row.refreshTokenEnc, keys, secretAad("oauth_connections", "refreshTokenEnc", s.connectionId));
    assert.notEqual(rotated, s.refreshToken);
    await service.accessTokenFor(s.connectionId, { forceRefresh: true });
    assert.equal(refreshesOf(rotated), 1, "the next refresh presents the rotated token");
  } finally {
    standIn.options.rotateRefreshTokens = false;
  }
});

test("two processes needing a token at once: one refresh request, both get the same token", async () => {
  const s = await seed();
  const [a, b, c] = await Promise.all([tokens().accessTokenFor(s.connectionId), tokens().accessTokenFor(s.connectionId), tokens().accessTokenFor(s.connectionId)]);
  assert.equal(a.accessToken, b.accessToken);
  assert.equal(b.accessToken, c.accessToken);
  assert.equal(refreshesOf(s.refreshToken), 1);
  const same = tokens();
  const [d, e] = await Promise.all([same.accessTokenFor(s.connectionId, { forceRefresh: true }), same.accessTokenFor(s.connectionId, { forceRefresh: true })]);
  assert.equal(d.accessToken, e.accessToken, "concurrent forced refreshes in one process share one");
  assert.equal(refreshesOf(s.refreshToken), 2);
});

test("a revoked refresh token: the connection and each credential get a readable error and one credential.auth_failed each, once; later calls do not ask the provider", async () => {
  const s = await seed({ credentials: 2 });
  const service = tokens();
  await service.accessTokenFor(s.connectionId);
  standIn.revokeMailbox(s.email);
  await assert.rejects(service.accessTokenFor(s.connectionId, { forceRefresh: true }), (err: unknown) => {
    assert.ok(err instanceof MailboxAuthRevokedError);
    assert.equal(err.connectionId, s.connectionId);
    assert.match(err.reason, /^Google refused the refresh token \(invalid_grant.*\): reconnect the mailbox$/);
    return true;
  });
  const connection = await db.oAuthConnection.findUniqueOrThrow({ where: { id: s.connectionId } });
  assert.match(connection.authError ?? "", /Google refused the refresh token \(invalid_grant/);
  assert.ok(connection.authFailedAt);
  for (const id of s.credentialIds) {
    const credential = await db.smtpCredential.findUniqueOrThrow({ where: { id } });
    assert.equal(credential.smtpLastError, connection.authError);
  }
  const events = await db.event.findMany({ where: { accountId: s.accountId, type: "credential.auth_failed" }, orderBy: { createdAt: "asc" } });
  assert.deepEqual(events.map((e) => (e.data as { credential_id: string }).credential_id).sort(), [...s.credentialIds].sort());
  const data = events[0]!.data as Record<string, unknown>;
  assert.deepEqual(Object.keys(data).sort(), ["campaign_id", "credential_id", "from_email", "provider", "reason"]);
  assert.equal(data.provider, "google");
  assert.equal(data.from_email, s.email);

  const requests = standIn.tokenRequests.length;
  await assert.rejects(tokens().accessTokenFor(s.connectionId), MailboxAuthRevokedError);
  await assert.rejects(service.accessTokenFor(s.connectionId, { forceRefresh: true }), MailboxAuthRevokedError);
  assert.equal(standIn.tokenRequests.length, requests, "the provider is not asked again");
  assert.equal(await db.event.count({ where: { accountId: s.accountId, type: "credential.auth_failed" } }), 2, "no second event");

  // reconnecting (a new refresh token) clears the connection's and its credentials' errors
  const again = standIn.issueRefreshToken(s.email);
  const saved = await saveOAuthConnection(db, keys, { accountId: s.accountId, provider: "google", email: s.email.toUpperCase(), refreshToken: again });
  assert.deepEqual(saved, { id: s.connectionId, created: false }, "the same mailbox, whatever its case");
  const reconnected = await db.oAuthConnection.findUniqueOrThrow({ where: { id: s.connectionId } });
  assert.equal(reconnected.authError, null);
  assert.equal(reconnected.authFailedAt, null);
  for (const id of s.credentialIds) assert.equal((await db.smtpCredential.findUniqueOrThrow({ where: { id } })).smtpLastError, null);
  const fresh = await service.accessTokenFor(s.connectionId);
  assert.equal(standIn.userOfAccessToken(fresh.accessToken), s.email);
});

test("a token endpoint failing (500, garbage) is transient: MailboxTokenUnavailableError and nothing marked", async () => {
  const s = await seed();
  standIn.failNextTokenRequests(1, 500);
  await assert.rejects(tokens().accessTokenFor(s.connectionId), MailboxTokenUnavailableError);
  // an endpoint answering garbage, a redirect (to the real one: never followed, the secret stays put) or an endless answer
  const garbage = createServer((req, res) => {
    if (req.url === "/redirect") return res.writeHead(307, { location: standIn.tokenUrl }).end();
    if (req.url === "/huge") return res.writeHead(200, { "content-type": "application/json" }).end(`{"access_token":"${"x".repeat(100_000)}"}`);
    res.writeHead(200, { "content-type": "application/json" }).end("<html>not json");
  });
  await new Promise<void>((resolve) => garbage.listen(0, "127.0.0.1", resolve));
  try {
    const port = (garbage.address() as { port: number }).port;
    const at = (path: string) => new MailboxTokens({ db, keys, clients: { google: { ...clients.google!, tokenUrl: `http://127.0.0.1:${port}${path}` } } });
    const requests = standIn.tokenRequests.length;
    await assert.rejects(at("/token").accessTokenFor(s.connectionId), (err: unknown) => err instanceof MailboxTokenUnavailableError && /no access_token/.test(err.message));
    await assert.rejects(at("/redirect").accessTokenFor(s.connectionId), MailboxTokenUnavailableError);
    assert.equal(standIn.tokenRequests.length, requests, "the redirect was not followed");
    await assert.rejects(at("/huge").accessTokenFor(s.connectionId), (err: unknown) => err instanceof MailboxTokenUnavailableError && /over 65536 bytes/.test(err.message));
  } finally {
    await new Promise<void>((resolve) => garbage.close(() => resolve()));
  }
  const row = await db.oAuthConnection.findUniqueOrThrow({ where: { id: s.connectionId } });
  assert.equal(row.authError, null);
  assert.equal(row.authFailedAt, null);
  assert.equal(row.accessTokenEnc, null);
  assert.equal((await db.smtpCredential.findUniqueOrThrow({ where: { id: s.credentialIds[0]! } })).smtpLastError, null);
  assert.equal(await db.event.count({ where: { accountId: s.accountId, type: "credential.auth_failed" } }), 0);
  // and the next call works
  assert.equal((await tokens().accessTokenFor(s.connectionId)).user, s.email);
});

test("exchanging an authorization code gives the refresh token, an access token and the mailbox address from the id_token", async () => {
  const redirectUri = "http://127.0.0.1:9/oauth/google/callback";
  const authorize = new URL(standIn.authorizeUrl);
  for (const [k, v] of Object.entries({ client_id: standIn.clientId, response_type: "code", redirect_uri: redirectUri, state: "s" })) authorize.searchParams.set(k, v);
  const code = new URL(standIn.consent(authorize.toString(), "Ana@Example.test")).searchParams.get("code")!;
  const mailbox = await exchangeAuthorizationCode(clients.google!, code, redirectUri);
  assert.equal(mailbox.email, "Ana@Example.test");
  assert.equal(standIn.userOfAccessToken(mailbox.accessToken), "Ana@Example.test");
  assert.ok(mailbox.refreshToken.length > 10);
  const payload = (claims: object) => `e30.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.`;
  assert.equal(emailOfIdToken(payload({ preferred_username: "ops@contoso.example" })), "ops@contoso.example", "Microsoft: preferred_username");
  assert.equal(emailOfIdToken(payload({ upn: "ops@contoso.example" })), "ops@contoso.example");
  assert.equal(emailOfIdToken(payload({ sub: "x" })), null);
  assert.equal(emailOfIdToken("not-a-jwt"), null);
});

test("the authorize state: read back for its provider before it expires; forged, altered, expired or another provider's is refused", () => {
  const accountId = randomUUID();
  const now = new Date();
  const made = createOAuthState(keys, accountId, "google", now);
  assert.deepEqual(readOAuthState(keys, made.state, "google", now), { accountId, provider: "google", nonce: made.nonce, expiresAt: made.expiresAt });
  assert.equal(made.expiresAt.getTime() - now.getTime(), 600_000);
  assert.equal(readOAuthState(keys, made.state, "microsoft", now), null, "another provider");
  assert.equal(readOAuthState(keys, made.state, "google", new Date(now.getTime() + 600_001)), null, "expired");
  assert.equal(readOAuthState(new Keyring(randomBytes(32)), made.state, "google", now), null, "another key");
  assert.ok(readOAuthState(new Keyring(randomBytes(32), [keys.current]), made.state, "google", now), "a previous key still reads it");
  const [body, mac] = made.state.split(".") as [string, string];
  const claims = JSON.parse(Buffer.from(body, "base64url").toString());
  const altered = `${Buffer.from(JSON.stringify({ ...claims, a: randomUUID() })).toString("base64url")}.${mac}`;
  assert.equal(readOAuthState(keys, altered, "google", now), null, "altered");
  for (const bad of [undefined, "", "x", `${body}.`, `${body}.${"A".repeat(22)}`]) assert.equal(readOAuthState(keys, bad, "google", now), null);
});
