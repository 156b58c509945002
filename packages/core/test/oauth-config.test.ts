import assert from "node:assert/strict";
import { test } from "node:test";
import { ConfigError, loadConfig } from "../src/config.js";

test("without client ids both providers' OAuth2 mailboxes are off", () => {
  assert.deepEqual(loadConfig("api", {}).oauth, { google: undefined, microsoft: undefined });
  assert.deepEqual(loadConfig("sender", { GOOGLE_OAUTH_CLIENT_ID: "", GOOGLE_OAUTH_CLIENT_SECRET: "" }).oauth.google, undefined, "empty counts as unset");
});

test("a client id with its secret turns the provider on, with the provider's own URLs unless others are given", () => {
  const config = loadConfig("api", {
    GOOGLE_OAUTH_CLIENT_ID: "g-id",
    GOOGLE_OAUTH_CLIENT_SECRET: "g-secret",
    MICROSOFT_OAUTH_CLIENT_ID: "m-id",
    MICROSOFT_OAUTH_CLIENT_SECRET: "m-secret",
    MICROSOFT_OAUTH_TOKEN_URL: "http://127.0.0.1:4555/token",
    MICROSOFT_OAUTH_AUTHORIZE_URL: "http://127.0.0.1:4555/authorize",
  });
  assert.deepEqual(config.oauth.google, {
    clientId: "g-id",
    clientSecret: "g-secret",
    authorizeUrl: "https://accounts.google.com/o/oauth2/v2/auth",
    tokenUrl: "https://oauth2.googleapis.com/token",
  });
  assert.deepEqual(config.oauth.microsoft, { clientId: "m-id", clientSecret: "m-secret", authorizeUrl: "http://127.0.0.1:4555/authorize", tokenUrl: "http://127.0.0.1:4555/token" });
  assert.equal(loadConfig("api", { MICROSOFT_OAUTH_CLIENT_ID: "m", MICROSOFT_OAUTH_CLIENT_SECRET: "s" }).oauth.microsoft?.tokenUrl, "https://login.microsoftonline.com/common/oauth2/v2.0/token");
});

test("an id without its secret, or a secret without its id, is refused naming the missing variable (and never echoing the secret)", () => {
  assert.throws(
    () => loadConfig("sender", { GOOGLE_OAUTH_CLIENT_ID: "g-id" }),
    (err: unknown) => err instanceof ConfigError && err.variable === "GOOGLE_OAUTH_CLIENT_SECRET" && /required when GOOGLE_OAUTH_CLIENT_ID is set/.test(err.message),
  );
  assert.throws(
    () => loadConfig("imap-poller", { MICROSOFT_OAUTH_CLIENT_SECRET: "very-secret-value" }),
    (err: unknown) => err instanceof ConfigError && err.variable === "MICROSOFT_OAUTH_CLIENT_ID" && !err.message.includes("very-secret-value"),
  );
  assert.throws(
    () => loadConfig("api", { GOOGLE_OAUTH_CLIENT_ID: "g", GOOGLE_OAUTH_CLIENT_SECRET: "s", GOOGLE_OAUTH_TOKEN_URL: "not a url" }),
    (err: unknown) => err instanceof ConfigError && err.variable === "GOOGLE_OAUTH_TOKEN_URL",
  );
});

test("in production a placeholder client secret is refused", () => {
  assert.throws(
    () => loadConfig("api", { NODE_ENV: "production", ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64"), GOOGLE_OAUTH_CLIENT_ID: "g", GOOGLE_OAUTH_CLIENT_SECRET: "REPLACE_ME" }),
    (err: unknown) => err instanceof ConfigError && err.variable === "GOOGLE_OAUTH_CLIENT_SECRET",
  );
});
