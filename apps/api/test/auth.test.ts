import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { assertError, request, signUp, startTestApi, type TestApi } from "./helpers.js";

let api: TestApi;
before(async () => {
  api = await startTestApi({ SIGNUP_LIMIT_PER_HOUR: "1000", RATE_LIMIT_PER_MINUTE: "100000" });
});
after(() => api?.close());

test("a missing, malformed, unknown or revoked key gets 401 unauthorized", async () => {
  const { token } = await signUp(api);
  const extra = await request(api.baseUrl, "POST", "/api_keys", { token, body: { label: "revoked soon" } });
  await request(api.baseUrl, "DELETE", `/api_keys/${extra.body.id}`, { token });
  const variants: Array<Record<string, string>> = [
    {},
    { authorization: "" },
    { authorization: "Bearer" },
    { authorization: `Basic ${Buffer.from("a:b").toString("base64")}` },
    { authorization: `Token ${token}` },
    { authorization: "Bearer ak_live_short" },
    { authorization: `Bearer ${token}x` },
    // the same key with its last character changed (to one it is not)
    { authorization: `Bearer ${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}` },
    { authorization: `Bearer ak_test_${token.slice(8)}` },
    { authorization: `Bearer ${extra.body.plaintext}` },
  ];
  for (const headers of variants) {
    const res = await request(api.baseUrl, "GET", "/api_keys", { headers });
    assertError(res, api, 401, "unauthorized");
  }
});

test("the scheme is case-insensitive and the key works on every authenticated prefix", async () => {
  const { token } = await signUp(api);
  for (const path of ["/api_keys", "/billing/subscription", "/billing/usage", "/usage"]) {
    assert.equal((await request(api.baseUrl, "GET", path, { headers: { authorization: `bearer ${token}` } })).status, 200, path);
    assertError(await request(api.baseUrl, "GET", path), api, 401, "unauthorized");
  }
});

test("public endpoints need no key", async () => {
  assert.equal((await request(api.baseUrl, "GET", "/plans")).status, 200);
  assert.equal((await request(api.baseUrl, "GET", "/healthz")).status, 200);
  assert.equal((await request(api.baseUrl, "GET", "/docs/errors/unauthorized")).status, 200);
});
