import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { startOAuthStandIn, type OAuthStandIn } from "../src/oauth-stand-in.js";

async function postToken(standIn: OAuthStandIn, fields: Record<string, string>, headers: Record<string, string> = {}) {
  const response = await fetch(standIn.tokenUrl, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

const jwtPayload = (jwt: string) => JSON.parse(Buffer.from(jwt.split(".")[1]!, "base64url").toString("utf8"));

async function introspect(standIn: OAuthStandIn, token: string) {
  const response = await fetch(standIn.introspectionUrl, { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, body: await response.json() };
}

describe("startOAuthStandIn", () => {
  let standIn: OAuthStandIn;
  before(async () => {
    standIn = await startOAuthStandIn();
  });
  after(async () => {
    await standIn.close();
  });

  test("an authorization code is exchanged once, for the redirect URI of the consent, with tokens and an id_token naming the mailbox", async () => {
    const authorizationUrl = new URL(standIn.authorizeUrl);
    authorizationUrl.search = new URLSearchParams({
      client_id: standIn.clientId,
      response_type: "code",
      redirect_uri: "http://app.example.test/oauth/google/callback",
      scope: "https://mail.google.com/ openid email",
      state: "s-1",
    }).toString();
    const callback = new URL(standIn.consent(authorizationUrl.toString(), "Sales@Example.test"));
    assert.equal(`${callback.origin}${callback.pathname}`, "http://app.example.test/oauth/google/callback");
    assert.equal(callback.searchParams.get("state"), "s-1");
    const code = callback.searchParams.get("code")!;

    const wrongRedirect = await postToken(standIn, {
      grant_type: "authorization_code",
      code,
      redirect_uri: "http://other.example.test/cb",
      client_id: standIn.clientId,
      client_secret: standIn.clientSecret,
    });
    assert.equal(wrongRedirect.status, 400);

    const basic = Buffer.from(`${standIn.clientId}:${standIn.clientSecret}`).toString("base64");
    const exchanged = await postToken(standIn, { grant_type: "authorization_code", code, redirect_uri: "http://app.example.test/oauth/google/callback" }, { authorization: `Basic ${basic}` });
    assert.equal(exchanged.status, 200);
    assert.equal(exchanged.body.token_type, "Bearer");
    assert.equal(exchanged.body.expires_in, 3600);
    assert.equal(exchanged.body.scope, "https://mail.google.com/ openid email");
    assert.ok(exchanged.body.refresh_token);
    assert.equal(jwtPayload(exchanged.body.id_token).email, "Sales@Example.test");
    assert.equal(standIn.userOfAccessToken(exchanged.body.access_token), "Sales@Example.test");

    const again = await postToken(standIn, {
      grant_type: "authorization_code",
      code,
      redirect_uri: "http://app.example.test/oauth/google/callback",
      client_id: standIn.clientId,
      client_secret: standIn.clientSecret,
    });
    assert.deepEqual([again.status, again.body.error], [400, "invalid_grant"]);
    assert.deepEqual(
      standIn.tokenRequests.slice(-3).map((r) => [r.grant_type, r.client_id, r.code]),
      [
        ["authorization_code", standIn.clientId, code],
        ["authorization_code", standIn.clientId, code],
        ["authorization_code", standIn.clientId, code],
      ],
    );
  });

  test("refresh tokens: wrong client refused, refresh answers a new access token, rotation when asked, revocation gives invalid_grant", async () => {
    const refreshToken = standIn.issueRefreshToken("sales@example.test");
    const badClient = await postToken(standIn, { grant_type: "refresh_token", refresh_token: refreshToken, client_id: standIn.clientId, client_secret: "wrong" });
    assert.deepEqual([badClient.status, badClient.body.error], [401, "invalid_client"]);

    const client = { client_id: standIn.clientId, client_secret: standIn.clientSecret };
    const refreshed = await postToken(standIn, { grant_type: "refresh_token", refresh_token: refreshToken, ...client });
    assert.equal(refreshed.status, 200);
    assert.equal(refreshed.body.refresh_token, undefined);
    assert.equal(standIn.userOfAccessToken(refreshed.body.access_token), "sales@example.test");

    standIn.options.rotateRefreshTokens = true;
    standIn.options.accessTokenTtlSeconds = 120;
    const rotated = await postToken(standIn, { grant_type: "refresh_token", refresh_token: refreshToken, ...client });
    standIn.options.rotateRefreshTokens = false;
    standIn.options.accessTokenTtlSeconds = 3600;
    assert.equal(rotated.body.expires_in, 120);
    assert.ok(rotated.body.refresh_token && rotated.body.refresh_token !== refreshToken);

    standIn.revokeRefreshToken(refreshToken);
    const revoked = await postToken(standIn, { grant_type: "refresh_token", refresh_token: refreshToken, ...client });
    assert.deepEqual([revoked.status, revoked.body.error], [400, "invalid_grant"]);
    // the rotated one still works until the mailbox is revoked
    const viaRotated = await postToken(standIn, { grant_type: "refresh_token", refresh_token: rotated.body.refresh_token, ...client });
    assert.equal(viaRotated.status, 200);
    standIn.revokeMailbox("SALES@example.test");
    assert.equal(standIn.userOfAccessToken(viaRotated.body.access_token), null);
    const afterRevoke = await postToken(standIn, { grant_type: "refresh_token", refresh_token: rotated.body.refresh_token, ...client });
    assert.deepEqual([afterRevoke.status, afterRevoke.body.error], [400, "invalid_grant"]);
  });

  test("introspection answers 200 active with the username, inactive after expiry; injected failures answer without issuing", async () => {
    const client = { client_id: standIn.clientId, client_secret: standIn.clientSecret };
    const refreshToken = standIn.issueRefreshToken("replies@example.test");
    const { body } = await postToken(standIn, { grant_type: "refresh_token", refresh_token: refreshToken, ...client });
    const before = standIn.introspections;
    assert.deepEqual(await introspect(standIn, body.access_token), { status: 200, body: { active: true, username: "replies@example.test" } });
    assert.deepEqual(await introspect(standIn, "access-unknown"), { status: 200, body: { active: false } });
    standIn.expireAccessTokens();
    assert.deepEqual(await introspect(standIn, body.access_token), { status: 200, body: { active: false } });
    assert.equal(standIn.introspections, before + 3);

    standIn.failNextTokenRequests(2);
    assert.equal((await postToken(standIn, { grant_type: "refresh_token", refresh_token: refreshToken, ...client })).status, 500);
    assert.equal((await postToken(standIn, { grant_type: "refresh_token", refresh_token: refreshToken, ...client })).status, 500);
    const recovered = await postToken(standIn, { grant_type: "refresh_token", refresh_token: refreshToken, ...client });
    assert.equal(recovered.status, 200);
    assert.equal(standIn.userOfAccessToken(recovered.body.access_token), "replies@example.test");
  });
});
