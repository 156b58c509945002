import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { assertErrorEnvelope } from "@outreach/testing";
import { request, signUp, startTestApi, type TestApi } from "./helpers.js";

let api: TestApi;
let token: string;
before(async () => {
  api = await startTestApi({ DOCS_URL: "https://docs.outreach.test" });
  token = (await signUp(api)).token;
});
after(() => api?.close());

test("GET /healthz answers 200 and /readyz reports PostgreSQL and Redis ready", async () => {
  const health = await request(api.baseUrl, "GET", "/healthz");
  assert.equal(health.status, 200);
  const ready = await request(api.baseUrl, "GET", "/readyz");
  assert.equal(ready.status, 200);
  assert.deepEqual(ready.body.checks, { postgres: "ok", redis: "ok" });
});

test("an unknown route gives the 404 not_found envelope as JSON", async () => {
  for (const [method, path] of [
    ["GET", "/nope"],
    ["DELETE", "/nope/123"],
    ["POST", "/"],
  ] as const) {
    const res = await request(api.baseUrl, method, path);
    assert.equal(res.status, 404);
    assert.match(res.headers.get("content-type") ?? "", /application\/json/);
    assertErrorEnvelope(res, 404, "not_found");
  }
});

test("a malformed JSON body gives 400 bad_request", async () => {
  for (const rawBody of ['{"name":', "{'single': 'quotes'}", "nul", '{"a":1}}']) {
    const res = await request(api.baseUrl, "POST", "/campaigns", { token, rawBody, headers: { "content-type": "application/json" } });
    assert.equal(res.status, 400, rawBody);
    assertErrorEnvelope(res, 400, "bad_request");
  }
});

test("a body that is not JSON gives 400 bad_request naming the content type", async () => {
  const res = await request(api.baseUrl, "POST", "/campaigns", { token, rawBody: "name=x", headers: { "content-type": "application/x-www-form-urlencoded" } });
  assert.equal(res.status, 400);
  assertErrorEnvelope(res, 400, "bad_request");
  assert.equal(res.body.details.content_type, "application/x-www-form-urlencoded");
});

test("an oversized body gives 400 bad_request, not a crash", async () => {
  // campaigns take up to 8 MB (steps of up to 512 KiB each)
  const rawBody = JSON.stringify({ name: "x".repeat(9 * 1024 * 1024) });
  const res = await request(api.baseUrl, "POST", "/campaigns", { token, rawBody, headers: { "content-type": "application/json" } });
  assert.equal(res.status, 400);
  assertErrorEnvelope(res, 400, "bad_request");
});

test("every response carries a request id, and a sane caller id is echoed", async () => {
  const generated = await request(api.baseUrl, "GET", "/healthz");
  assert.match(generated.headers.get("x-request-id") ?? "", /^req_[0-9a-f]{32}$/);
  const echoed = await request(api.baseUrl, "GET", "/healthz", { headers: { "x-request-id": "abc-123" } });
  assert.equal(echoed.headers.get("x-request-id"), "abc-123");
});

test("bodies are parsed only after authentication: without a key even a malformed body is a 401", async () => {
  const res = await request(api.baseUrl, "POST", "/contact_imports", { rawBody: "{oops", headers: { "content-type": "application/json" } });
  assert.equal(res.status, 401);
  assert.equal(res.body.code, "unauthorized");
});

test("a malformed or non-JSON signup body is a 400 too", async () => {
  const res = await request(api.baseUrl, "POST", "/signup", { rawBody: "{", headers: { "content-type": "application/json" } });
  assert.equal(res.status, 400);
  assertErrorEnvelope(res, 400, "bad_request");
});
