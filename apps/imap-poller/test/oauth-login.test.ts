import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createLogger, EgressGuard } from "@outreach/core";
import type { Db } from "@outreach/db";
import { MailboxTokens, saveOAuthConnection } from "@outreach/domain";
import { dovecotUnavailableReason, skipWithoutSystemServer, startDovecot, startOAuthStandIn, waitFor, type DovecotTestServer, type OAuthStandIn } from "@outreach/testing";
import { inboxStoreDeps, listWatchedInboxes } from "../src/inbox-store.js";
import { InboxWatcher, type InboxEndpoint } from "../src/inbox-watcher.js";
import { enrollmentStatus, replyTo, startPollerFixture, type PollerFixture, type SeededInbox } from "./helpers.js";

// An OAuth2 mailbox's inbox on Dovecot with the oauth2 passdb (XOAUTH2 only, tokens checked at the
// stand-in's introspection endpoint): the watcher logs in with MailboxTokens' access token, refreshes
// it once after AUTHENTICATIONFAILED, and counts a revoked mailbox as a refused login with its reason.
const skip = skipWithoutSystemServer("Dovecot", dovecotUnavailableReason());

let standIn: OAuthStandIn;
let fixture: PollerFixture<DovecotTestServer> | undefined;
let db: Db;
let tokens: MailboxTokens;
const watchers: InboxWatcher[] = [];

before(async () => {
  if (skip) return;
  standIn = await startOAuthStandIn();
  fixture = await startPollerFixture({ imap: () => startDovecot({ oauth2: { introspectionUrl: standIn.introspectionUrl, accessTokenFor: (email) => standIn.issueAccessToken(email) } }) });
  db = fixture.db;
  tokens = new MailboxTokens({
    db,
    keys: fixture.keyring,
    clients: { google: { clientId: standIn.clientId, clientSecret: standIn.clientSecret, authorizeUrl: standIn.authorizeUrl, tokenUrl: standIn.tokenUrl } },
  });
});
after(async () => {
  await fixture?.stop(async () => {
    for (const watcher of watchers) await watcher.stop();
  });
  await standIn?.close();
});

/** A seeded inbox turned into an OAuth2 mailbox: no password, a connection with a refresh token the stand-in issued. */
async function oauthInbox(): Promise<SeededInbox & { connectionId: string }> {
  const seeded = await fixture!.seed({ contacts: 1 });
  const connection = await saveOAuthConnection(db, fixture!.keyring, { accountId: seeded.accountId, provider: "google", email: seeded.inbox, refreshToken: standIn.issueRefreshToken(seeded.inbox) });
  await db.smtpCredential.update({ where: { id: seeded.credentialId }, data: { oauthConnectionId: connection.id, imapPasswordEnc: null, smtpPasswordEnc: null } });
  return { ...seeded, connectionId: connection.id };
}

function startWatcher(endpoint: InboxEndpoint, seen: { accepted: number; refused: string[] }): InboxWatcher {
  const store = inboxStoreDeps(db);
  const watcher = new InboxWatcher(endpoint, {
    guard: new EgressGuard({ allowPrivate: true }),
    requireTls: false,
    pollIntervalMs: 60_000,
    logger: createLogger({ service: "imap-poller", level: "error" }),
    ...store,
    loginAccepted: async (id) => {
      seen.accepted += 1;
      await store.loginAccepted(id);
    },
    loginRefused: async (id, error) => {
      seen.refused.push(error);
      return store.loginRefused(id, error);
    },
    accessTokenFor: (connectionId, options) => tokens.accessTokenFor(connectionId, options),
  });
  watchers.push(watcher);
  watcher.start();
  return watcher;
}

async function endpointOf(credentialId: string): Promise<InboxEndpoint> {
  const endpoint = (await listWatchedInboxes(db, fixture!.keyring)).find((e) => e.credentialId === credentialId);
  assert.ok(endpoint, "the OAuth2 inbox is listed for watching");
  return endpoint;
}

test("an OAuth2 inbox is watched with XOAUTH2: an expired token is refreshed once and the reply is read", { skip }, async () => {
  const s = await oauthInbox();
  const endpoint = await endpointOf(s.credentialId);
  assert.deepEqual([endpoint.oauthConnectionId, endpoint.password, endpoint.username], [s.connectionId, "", s.inbox]);

  // a token this process holds, then expired at the provider before its time
  await tokens.accessTokenFor(s.connectionId);
  standIn.expireAccessTokens();
  const grants = standIn.tokenRequests.length;
  const seen = { accepted: 0, refused: [] as string[] };
  startWatcher(endpoint, seen);
  await waitFor(async () => (await db.smtpCredential.findUniqueOrThrow({ where: { id: s.credentialId } })).imapUidValidity !== null, { what: "the inbox watched", timeoutMs: 20_000 });
  assert.deepEqual(seen, { accepted: 1, refused: [] }, "the refused token did not count as a refused login");
  assert.deepEqual(
    standIn.tokenRequests.slice(grants).map((r) => r.grant_type),
    ["refresh_token"],
  );

  await fixture!.imap.appendMessage(s.inbox, replyTo(s));
  await waitFor(async () => (await enrollmentStatus(db, s.enrollments[0]!.enrollmentId)) === "replied", { what: "the reply", timeoutMs: 20_000 });
});

test("a revoked OAuth2 mailbox is a refused login with its readable reason, and its credential gets credential.auth_failed", { skip }, async () => {
  const s = await oauthInbox();
  const endpoint = await endpointOf(s.credentialId);
  await tokens.accessTokenFor(s.connectionId);
  standIn.revokeMailbox(s.inbox);
  const seen = { accepted: 0, refused: [] as string[] };
  startWatcher(endpoint, seen);
  const row = await waitFor(
    async () => {
      const credential = await db.smtpCredential.findUniqueOrThrow({ where: { id: s.credentialId } });
      return credential.imapLoginFailures === 1 ? credential : undefined;
    },
    { what: "the refused login counted", timeoutMs: 20_000 },
  );
  assert.equal(seen.accepted, 0);
  assert.equal(seen.refused.length, 1);
  assert.match(seen.refused[0]!, /^login refused: Google refused the refresh token \(invalid_grant.*\): reconnect the mailbox$/);
  assert.match(row.imapLastError ?? "", /Google refused the refresh token .*reconnect the mailbox \(1 time in a row\); next try after/);
  assert.ok(row.imapRetryAt && row.imapRetryAt > new Date());
  const connection = await db.oAuthConnection.findUniqueOrThrow({ where: { id: s.connectionId } });
  assert.ok(connection.authFailedAt);
  const events = await db.event.findMany({ where: { accountId: s.accountId, type: "credential.auth_failed" } });
  assert.equal(events.length, 1);
  assert.equal((events[0]!.data as { credential_id: string }).credential_id, s.credentialId);
});
