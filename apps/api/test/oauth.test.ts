import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, test } from "node:test";
import { decryptSecret, Keyring, secretAad } from "@outreach/core";
import { createOAuthState } from "@outreach/domain";
import { callMcpTool, startOAuthStandIn, type OAuthStandIn } from "@outreach/testing";
import { assertError, request, signUp, signUpUnlimited, startTestApi, type TestApi } from "./helpers.js";

let api: TestApi;
let standIn: OAuthStandIn;

before(async () => {
  standIn = await startOAuthStandIn();
  api = await startTestApi({
    SIGNUP_LIMIT_PER_HOUR: "1000",
    GOOGLE_OAUTH_CLIENT_ID: standIn.clientId,
    GOOGLE_OAUTH_CLIENT_SECRET: standIn.clientSecret,
    GOOGLE_OAUTH_AUTHORIZE_URL: standIn.authorizeUrl,
    GOOGLE_OAUTH_TOKEN_URL: standIn.tokenUrl,
    // Microsoft is left unconfigured on purpose
  });
});

after(async () => {
  await api?.close();
  await standIn?.close();
});

/** The path and query of a URL (the callback is requested on the test server, whatever PUBLIC_BASE_URL says). */
const pathOf = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};

async function authorize(token: string, body?: object) {
  const res = await request(api.baseUrl, "POST", "/oauth/google/authorize", { token, ...(body ? { body } : {}) });
  assert.equal(res.status, 200, res.text);
  return res.body as { authorization_url: string; state: string; expires_at: string };
}

const codeRequests = () => standIn.tokenRequests.filter((r) => r.grant_type === "authorization_code").length;

test("POST /oauth/google/authorize: the provider's URL with the client, the callback, Google's scopes, offline consent and a signed state", async () => {
  const { token } = await signUp(api);
  const before = Date.now();
  const body = await authorize(token, { login_hint: "Sales@Example.test" });
  const url = new URL(body.authorization_url);
  assert.equal(`${url.origin}${url.pathname}`, standIn.authorizeUrl);
  const params = Object.fromEntries(url.searchParams);
  assert.deepEqual(params, {
    response_type: "code",
    client_id: standIn.clientId,
    redirect_uri: "http://outreach.test/oauth/google/callback",
    scope: "https://mail.google.com/ openid email",
    state: body.state,
    access_type: "offline",
    prompt: "consent",
    login_hint: "sales@example.test",
  });
  const expires = new Date(body.expires_at).getTime();
  assert.ok(expires >= before + 600_000 - 1000 && expires <= Date.now() + 600_000, "10 minutes");
  // without a body too
  assert.ok((await authorize(token)).authorization_url.startsWith(standIn.authorizeUrl));
});

test("authorize: an unknown provider is 404, an unconfigured one 409, a bad login_hint 422, and no key 401", async () => {
  const { token } = await signUp(api);
  assertError(await request(api.baseUrl, "POST", "/oauth/yahoo/authorize", { token }), api, 404, "oauth_provider_not_found");
  assertError(await request(api.baseUrl, "POST", "/oauth/microsoft/authorize", { token }), api, 409, "oauth_not_configured", /MICROSOFT_OAUTH_CLIENT_ID/);
  const bad = await request(api.baseUrl, "POST", "/oauth/google/authorize", { token, body: { login_hint: "not an address" } });
  assertError(bad, api, 422, "validation_failed", /login_hint/);
  assertError(await request(api.baseUrl, "POST", "/oauth/google/authorize"), api, 401, "unauthorized");
});

test("the callback exchanges the code once: the connection is stored with its refresh token sealed and the id_token's address; JSON or an HTML page", async () => {
  const { token, accountId } = await signUp(api);
  const { authorization_url } = await authorize(token);
  const callback = standIn.consent(authorization_url, "Owner@Example.test");
  assert.ok(callback.startsWith("http://outreach.test/oauth/google/callback?"));
  const res = await request(api.baseUrl, "GET", pathOf(callback));
  assert.equal(res.status, 200, res.text);
  const connection = res.body.connection;
  assert.deepEqual(Object.keys(connection).sort(), ["created_at", "email", "id", "provider"]);
  assert.equal(connection.email, "Owner@Example.test");
  assert.equal(connection.provider, "google");

  const row = await api.database.db.oAuthConnection.findUniqueOrThrow({ where: { id: connection.id } });
  assert.equal(row.accountId, accountId);
  const exchange = standIn.tokenRequests.filter((r) => r.grant_type === "authorization_code").at(-1)!;
  assert.equal(exchange.client_id, standIn.clientId);
  const refreshToken = decryptSecret(row.refreshTokenEnc, api.config.encryptionKey, secretAad("oauth_connections", "refreshTokenEnc", row.id));
  assert.ok(refreshToken.startsWith("refresh-"), "the refresh token the provider issued");
  assert.ok(!row.refreshTokenEnc.includes(refreshToken));
  const accessToken = decryptSecret(row.accessTokenEnc!, api.config.encryptionKey, secretAad("oauth_connections", "accessTokenEnc", row.id));
  assert.equal(standIn.userOfAccessToken(accessToken), "Owner@Example.test");
  assert.match(row.scopes ?? "", /mail\.google\.com/);

  // the same URL again: the state was used, nothing is exchanged
  const exchanges = codeRequests();
  assertError(await request(api.baseUrl, "GET", pathOf(callback)), api, 400, "invalid_oauth_state");
  assert.equal(codeRequests(), exchanges);

  // a browser gets a page; connecting the same mailbox again updates the same connection
  const again = standIn.consent((await authorize(token)).authorization_url, "owner@example.TEST");
  const page = await fetch(`${api.baseUrl}${pathOf(again)}`, { headers: { accept: "text/html,application/xhtml+xml" } });
  assert.equal(page.status, 200);
  assert.match(page.headers.get("content-type") ?? "", /text\/html/);
  const html = await page.text();
  assert.match(html, /Mailbox connected: Owner@Example\.test/, "the connection keeps the address as first connected");
  assert.ok(html.includes(`Use connection_id <code>${connection.id}</code>`));
  assert.equal(await api.database.db.oAuthConnection.count({ where: { accountId } }), 1);
});

test("a forged, altered, expired, other-provider or missing state is 400 invalid_oauth_state and the provider is asked nothing", async () => {
  const { token, accountId } = await signUp(api);
  const { authorization_url, state } = await authorize(token);
  const good = new URL(standIn.consent(authorization_url, "victim@example.test"));
  const code = good.searchParams.get("code")!;
  const exchanges = codeRequests();
  const keys = new Keyring(api.config.encryptionKey);
  const [body, mac] = state.split(".") as [string, string];
  const claims = JSON.parse(Buffer.from(body, "base64url").toString());
  const states = {
    forged: createOAuthState(new Keyring(randomBytes(32)), accountId, "google").state,
    altered: `${Buffer.from(JSON.stringify({ ...claims, a: "00000000-0000-4000-8000-000000000000" })).toString("base64url")}.${mac}`,
    expired: createOAuthState(keys, accountId, "google", new Date(Date.now() - 11 * 60_000)).state,
    garbage: "not-a-state",
  };
  for (const [what, bad] of Object.entries(states)) {
    const res = await request(api.baseUrl, "GET", `/oauth/google/callback?code=${encodeURIComponent(code)}&state=${encodeURIComponent(bad)}`);
    assertError(res, api, 400, "invalid_oauth_state");
    assert.equal(codeRequests(), exchanges, `${what}: nothing exchanged`);
  }
  assertError(await request(api.baseUrl, "GET", `/oauth/google/callback?code=${encodeURIComponent(code)}`), api, 400, "invalid_oauth_state");
  // a state made for Microsoft, presented to Google's callback
  const microsoft = createOAuthState(keys, accountId, "microsoft").state;
  assertError(await request(api.baseUrl, "GET", `/oauth/google/callback?code=${encodeURIComponent(code)}&state=${encodeURIComponent(microsoft)}`), api, 400, "invalid_oauth_state");
  assert.equal(codeRequests(), exchanges);
  assert.equal(await api.database.db.oAuthConnection.count({ where: { accountId } }), 0);
  // the genuine one still works
  assert.equal((await request(api.baseUrl, "GET", pathOf(good.toString()))).status, 200);
});

test("the owner refusing (error=access_denied) is a readable 400; a refused code 400; the token endpoint failing 502", async () => {
  const { token, accountId } = await signUp(api);
  const { state } = await authorize(token);
  const exchanges = codeRequests();
  const denied = await request(api.baseUrl, "GET", `/oauth/google/callback?error=access_denied&state=${encodeURIComponent(state)}`);
  assertError(denied, api, 400, "oauth_access_denied", /did not grant access/);
  assert.equal(codeRequests(), exchanges);

  const refused = await request(api.baseUrl, "GET", `/oauth/google/callback?code=made-up&state=${encodeURIComponent((await authorize(token)).state)}`);
  assertError(refused, api, 400, "oauth_code_refused");

  const consented = standIn.consent((await authorize(token)).authorization_url, "later@example.test");
  standIn.failNextTokenRequests(1, 503);
  assertError(await request(api.baseUrl, "GET", pathOf(consented)), api, 502, "oauth_provider_unavailable", /HTTP 503/);
  assert.equal(await api.database.db.oAuthConnection.count({ where: { accountId } }), 0);
});

test("GET /oauth/connections lists the account's connections (never a token); GET one; DELETE it, refused while a credential uses it", async () => {
  const { token, accountId } = await signUp(api);
  const other = await signUp(api);
  const ids: string[] = [];
  for (const mailbox of ["one@example.test", "two@example.test"]) {
    const res = await request(api.baseUrl, "GET", pathOf(standIn.consent((await authorize(token)).authorization_url, mailbox)));
    ids.push(res.body.connection.id);
  }
  const list = await request(api.baseUrl, "GET", "/oauth/connections", { token });
  assert.equal(list.status, 200);
  assert.deepEqual(
    list.body.map((c: { id: string }) => c.id),
    [...ids].reverse(),
    "newest first",
  );
  assert.deepEqual(Object.keys(list.body[0]).sort(), ["created_at", "credentials_count", "email", "error", "id", "provider", "status"]);
  assert.ok(!list.text.includes("refresh-") && !list.text.includes("access-"), "no token");
  const page = await request(api.baseUrl, "GET", "/oauth/connections?limit=1", { token });
  assert.equal(page.body.length, 1);
  assert.equal(page.headers.get("x-has-more"), "true");

  const one = await request(api.baseUrl, "GET", `/oauth/connections/${ids[0]}`, { token });
  assert.deepEqual(one.body, { id: ids[0], provider: "google", email: "one@example.test", status: "connected", error: null, created_at: one.body.created_at, credentials_count: 0 });
  assertError(await request(api.baseUrl, "GET", `/oauth/connections/${ids[0]}`, { token: other.token }), api, 404, "oauth_connection_not_found");
  assertError(await request(api.baseUrl, "GET", "/oauth/connections/nope", { token }), api, 404, "oauth_connection_not_found");

  // a credential of a campaign logs in through the first one
  const campaign = await api.database.db.campaign.create({ data: { accountId, name: "uses it" } });
  await api.database.db.smtpCredential.create({
    data: {
      accountId,
      campaignId: campaign.id,
      label: "x",
      fromEmail: "one@example.test",
      smtpHost: "smtp.gmail.com",
      smtpPort: 465,
      smtpUsername: "one@example.test",
      oauthConnectionId: ids[0],
      dailyLimit: 50,
    },
  });
  assert.equal((await request(api.baseUrl, "GET", `/oauth/connections/${ids[0]}`, { token })).body.credentials_count, 1);
  assertError(await request(api.baseUrl, "DELETE", `/oauth/connections/${ids[0]}`, { token }), api, 409, "oauth_connection_in_use");
  assertError(await request(api.baseUrl, "DELETE", `/oauth/connections/${ids[1]}`, { token: other.token }), api, 404, "oauth_connection_not_found");
  const deleted = await request(api.baseUrl, "DELETE", `/oauth/connections/${ids[1]}`, { token });
  assert.deepEqual(deleted.body, { id: ids[1], deleted: true });
  assert.equal(await api.database.db.oAuthConnection.count({ where: { id: ids[1] } }), 0);
});

const oauthStep = { position: 1, subject: "Hello", body_html: "<p>Hi {{first_name}}</p>" };

function oauthCampaign(credential: Record<string, unknown>) {
  return { campaign: { name: "OAuth inbox", sequence_steps: [oauthStep], smtp_credentials: [{ label: "Workspace", from_email: "sales@example.test", ...credential }] } };
}

test("a credential with auth.refresh_token: the connection is stored, Google's preset filled in, no password kept; the answers show auth without secrets", async () => {
  const { token, accountId } = await signUpUnlimited(api);
  const refreshToken = standIn.issueRefreshToken("sales@example.test");
  const res = await request(api.baseUrl, "POST", "/campaigns", { token, body: oauthCampaign({ auth: { type: "oauth2", provider: "google", refresh_token: refreshToken } }) });
  assert.equal(res.status, 201, res.text);
  assert.ok(!res.text.includes(refreshToken), "the refresh token is never shown");
  const credential = res.body.smtp_credentials[0];
  const connection = await api.database.db.oAuthConnection.findFirstOrThrow({ where: { accountId } });
  assert.deepEqual(
    {
      smtp_host: credential.smtp_host,
      smtp_port: credential.smtp_port,
      smtp_secure: credential.smtp_secure,
      smtp_username: credential.smtp_username,
      daily_limit: credential.daily_limit,
      imap_host: credential.imap_host,
      imap_port: credential.imap_port,
      imap_secure: credential.imap_secure,
      imap_username: credential.imap_username,
      auth: credential.auth,
    },
    {
      smtp_host: "smtp.gmail.com",
      smtp_port: 465,
      smtp_secure: true,
      smtp_username: "sales@example.test",
      daily_limit: 50,
      imap_host: "imap.gmail.com",
      imap_port: 993,
      imap_secure: true,
      imap_username: "sales@example.test",
      auth: { type: "oauth2", provider: "google", connection_id: connection.id, email: "sales@example.test", status: "connected", error: null },
    },
  );
  const row = await api.database.db.smtpCredential.findUniqueOrThrow({ where: { id: credential.id } });
  assert.equal(row.smtpPasswordEnc, null);
  assert.equal(row.imapPasswordEnc, null);
  assert.equal(row.oauthConnectionId, connection.id);
  assert.equal(decryptSecret(connection.refreshTokenEnc, api.config.encryptionKey, secretAad("oauth_connections", "refreshTokenEnc", connection.id)), refreshToken);

  // the same mailbox again with a new refresh token: the same connection, renewed and healthy again
  await api.database.db.oAuthConnection.update({
    where: { id: connection.id },
    data: { authError: "Google refused the refresh token (invalid_grant): reconnect the mailbox", authFailedAt: new Date() },
  });
  const failed = await request(api.baseUrl, "GET", `/campaigns/${res.body.id}`, { token });
  assert.deepEqual(failed.body.smtp_credentials[0].auth, {
    type: "oauth2",
    provider: "google",
    connection_id: connection.id,
    email: "sales@example.test",
    status: "auth_failed",
    error: "Google refused the refresh token (invalid_grant): reconnect the mailbox",
  });
  const renewed = standIn.issueRefreshToken("sales@example.test");
  const second = await request(api.baseUrl, "POST", "/campaigns", { token, body: oauthCampaign({ auth: { type: "oauth2", provider: "google", refresh_token: renewed } }) });
  assert.equal(second.status, 201, second.text);
  assert.equal(second.body.smtp_credentials[0].auth.connection_id, connection.id);
  assert.equal(second.body.smtp_credentials[0].auth.status, "connected");
  const after = await api.database.db.oAuthConnection.findUniqueOrThrow({ where: { id: connection.id } });
  assert.equal(decryptSecret(after.refreshTokenEnc, api.config.encryptionKey, secretAad("oauth_connections", "refreshTokenEnc", connection.id)), renewed);
  assert.equal((await request(api.baseUrl, "GET", `/campaigns/${res.body.id}`, { token })).body.smtp_credentials[0].auth.status, "connected");
});

test("a credential with auth.connection_id: the account's connection, explicit hosts kept, imap_host null for no IMAP", async () => {
  const { token } = await signUpUnlimited(api);
  const connected = await request(api.baseUrl, "GET", pathOf(standIn.consent((await authorize(token)).authorization_url, "ops@example.test")));
  const connectionId = connected.body.connection.id;
  const res = await request(api.baseUrl, "POST", "/campaigns", {
    token,
    body: oauthCampaign({
      from_email: "ops@example.test",
      auth: { type: "oauth2", provider: "google", connection_id: connectionId },
      smtp_host: "127.0.0.1",
      smtp_port: 2525,
      imap_host: null,
      daily_limit: 20,
    }),
  });
  assert.equal(res.status, 201, res.text);
  const credential = res.body.smtp_credentials[0];
  assert.deepEqual([credential.smtp_host, credential.smtp_port, credential.smtp_secure, credential.daily_limit, credential.has_imap], ["127.0.0.1", 2525, false, 20, false]);
  assert.equal(credential.auth.connection_id, connectionId);
  assert.equal(credential.auth.email, "ops@example.test");
  assert.equal((await request(api.baseUrl, "GET", `/oauth/connections/${connectionId}`, { token })).body.credentials_count, 1);
  assertError(await request(api.baseUrl, "DELETE", `/oauth/connections/${connectionId}`, { token }), api, 409, "oauth_connection_in_use");
});

test("OAuth2 credentials: refresh_token or connection_id (one), no passwords, the account's own connection of that provider, a configured provider", async () => {
  const { token } = await signUpUnlimited(api);
  const other = await signUpUnlimited(api);
  const foreign = (await request(api.baseUrl, "GET", pathOf(standIn.consent((await authorize(other.token)).authorization_url, "theirs@example.test")))).body.connection.id;
  const google = (extra: Record<string, unknown>) => ({ type: "oauth2", provider: "google", ...extra });
  const prefix = "campaign.smtp_credentials[0]";
  const invalid: Array<[Record<string, unknown>, RegExp]> = [
    [{ auth: google({}) }, new RegExp(`${prefix.replace(/[[\].]/g, "\\$&")}\\.auth needs refresh_token or connection_id`)],
    [{ auth: google({ refresh_token: "r", connection_id: foreign }) }, /auth takes refresh_token or connection_id, not both/],
    [{ auth: google({ refresh_token: "r" }), smtp_password: "pw" }, /smtp_password is not allowed with auth/],
    [{ auth: google({ refresh_token: "r" }), imap_host: "imap.example.test", imap_port: 993, imap_username: "x", imap_password: "pw" }, /imap_password is not allowed with auth/],
    [{ auth: { type: "oauth2", provider: "yahoo", refresh_token: "r" } }, /auth\.provider must be one of \[google, microsoft\]/],
    [{ auth: { type: "basic", provider: "google", refresh_token: "r" } }, /auth\.type must be \[oauth2\]/],
    [{ auth: google({ connection_id: "nope" }) }, /auth\.connection_id must be a valid GUID/],
  ];
  for (const [credential, message] of invalid) {
    assertError(await request(api.baseUrl, "POST", "/campaigns", { token, body: oauthCampaign(credential) }), api, 422, "validation_failed", message);
  }
  assertError(await request(api.baseUrl, "POST", "/campaigns", { token, body: oauthCampaign({ auth: google({ connection_id: foreign }) }) }), api, 404, "oauth_connection_not_found");
  const own = (await request(api.baseUrl, "GET", pathOf(standIn.consent((await authorize(token)).authorization_url, "mine@example.test")))).body.connection.id;
  assertError(
    await request(api.baseUrl, "POST", "/campaigns", { token, body: oauthCampaign({ auth: { type: "oauth2", provider: "microsoft", connection_id: own } }) }),
    api,
    409,
    "oauth_not_configured",
  );
  // without auth a password credential still needs its fields
  assertError(await request(api.baseUrl, "POST", "/campaigns", { token, body: oauthCampaign({ smtp_host: "smtp.example.test" }) }), api, 422, "validation_failed", /smtp_port is required/);
  assert.equal(await api.database.db.campaign.count({ where: { accountId: (await api.database.db.oAuthConnection.findUniqueOrThrow({ where: { id: own } })).accountId } }), 0, "nothing created");
});

test("MCP: list_oauth_connections lists the account's connections with their status, never a token", async () => {
  const { token } = await signUp(api);
  const made = await request(api.baseUrl, "GET", pathOf(standIn.consent((await authorize(token)).authorization_url, "agent@example.test")));
  const { status, text, payload } = await callMcpTool(api.baseUrl, token, "list_oauth_connections", {});
  assert.equal(status, 200);
  const result = payload.result;
  assert.notEqual(result.isError, true, text);
  const rows = result.structuredContent.data;
  assert.deepEqual(
    rows.map((c: { id: string; email: string; status: string }) => [c.id, c.email, c.status]),
    [[made.body.connection.id, "agent@example.test", "connected"]],
  );
  assert.ok(!text.includes("refresh-") && !text.includes("access-"));
});

test("the callback has one budget per client IP (TRACKING_RATE_LIMIT_PER_MINUTE): past it 429 with Retry-After, nothing exchanged", async () => {
  const limited = await startTestApi({
    TRACKING_RATE_LIMIT_PER_MINUTE: "2",
    GOOGLE_OAUTH_CLIENT_ID: standIn.clientId,
    GOOGLE_OAUTH_CLIENT_SECRET: standIn.clientSecret,
    GOOGLE_OAUTH_TOKEN_URL: standIn.tokenUrl,
  });
  try {
    const exchanges = codeRequests();
    for (let i = 0; i < 2; i++) assertError(await request(limited.baseUrl, "GET", "/oauth/google/callback?code=c&state=s"), limited, 400, "invalid_oauth_state");
    const over = await request(limited.baseUrl, "GET", "/oauth/google/callback?code=c&state=s");
    assertError(over, limited, 429, "rate_limited");
    assert.ok(Number(over.headers.get("retry-after")) >= 1);
    assert.equal(codeRequests(), exchanges);
  } finally {
    await limited.close();
  }
});
