import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { flushUsage, request, signUp, startTestApi, type JsonResponse, type TestApi } from "./helpers.js";

// Conventions every integrator relies on (CONTRACT "API documents and
// conventions"): X-Request-Id on every response, GET /usage listing every
// client kind, and last_used_at visible to the next request.

let api: TestApi;
let token: string;
let accountId: string;
before(async () => {
  api = await startTestApi({ SIGNUP_LIMIT_PER_HOUR: "1000", RATE_LIMIT_PER_MINUTE: "100000", RELAY_WEBHOOK_SECRET: "relay-secret-for-tests" });
  ({ token, accountId } = await signUp(api));
});
after(() => api?.close());

const GENERATED_ID = /^req_[0-9a-f]{32}$/;

test("every kind of response carries X-Request-Id", async () => {
  const cases: Array<[string, string, Parameters<typeof request>[3], number]> = [
    ["GET", "/campaigns", { token }, 200],
    ["GET", "/campaigns", {}, 401],
    ["GET", "/campaigns/not-an-id", { token }, 404],
    ["POST", "/campaigns", { token, body: { campaign: {} } }, 422],
    ["POST", "/campaigns", { token, rawBody: '{"name":', headers: { "content-type": "application/json" } }, 400],
    ["POST", "/campaigns", { token, rawBody: "name=x", headers: { "content-type": "text/plain" } }, 400],
    ["GET", "/no/such/route", {}, 404],
    ["DELETE", "/nope", { token }, 404],
    ["GET", "/healthz", {}, 200],
    ["GET", "/readyz", {}, 200],
    ["GET", "/docs/errors", {}, 200],
    ["GET", "/docs/errors/not_found", {}, 200],
    ["GET", "/docs/errors/no_such_code", {}, 404],
    ["GET", "/plans", {}, 200],
    ["GET", "/t/o/forged-token.gif", {}, 200],
    ["GET", "/t/c/forged-token/https%3A%2F%2Fexample.com", {}, 404],
    ["GET", "/u/forged-token", {}, 404],
    ["POST", "/u/forged-token", {}, 404],
    ["POST", "/webhooks/relay", { rawBody: '{"events":[]}', headers: { "content-type": "application/json" } }, 401],
    ["POST", "/webhooks/provider", { rawBody: "{}", headers: { "content-type": "application/json" } }, 400],
    ["POST", "/signup", { body: { email: "not an address" } }, 422],
  ];
  for (const [method, path, options, expected] of cases) {
    const res: JsonResponse = await request(api.baseUrl, method, path, options);
    const what = `${method} ${path} (${res.status})`;
    if (expected >= 400) assert.ok(res.status >= 400, what);
    else assert.ok(res.status < 400, what);
    assert.match(res.headers.get("x-request-id") ?? "", GENERATED_ID, what);
  }
  // a 429 as well (the failed-authentication and rate limits answer before any route)
  const limited = await startTestApi({ RATE_LIMIT_PER_MINUTE: "1", RATE_LIMIT_PER_ACCOUNT_PER_MINUTE: "1" });
  try {
    const user = await signUp(limited);
    await request(limited.baseUrl, "GET", "/campaigns", { token: user.token });
    const refused = await request(limited.baseUrl, "GET", "/campaigns", { token: user.token });
    assert.equal(refused.status, 429, refused.text);
    assert.match(refused.headers.get("x-request-id") ?? "", GENERATED_ID);
  } finally {
    await limited.close();
  }
});

test("an incoming X-Request-Id is echoed only when it is a short safe token", async () => {
  const echo = (id: string) => request(api.baseUrl, "GET", "/healthz", { headers: { "x-request-id": id } });
  for (const safe of ["abc-123", "trace:4bf92f3577b34da6.a3ce929d0e0e4736_01", "x".repeat(128)]) {
    assert.equal((await echo(safe)).headers.get("x-request-id"), safe);
  }
  for (const unsafe of ["x".repeat(129), "has space", "<script>", "a,b", "%0d%0aSet-Cookie:x", "é"]) {
    const res = await echo(unsafe);
    assert.match(res.headers.get("x-request-id") ?? "", GENERATED_ID, unsafe);
  }
  // echoed on errors too
  const error = await request(api.baseUrl, "GET", "/nope", { headers: { "x-request-id": "client-42" } });
  assert.equal(error.status, 404);
  assert.equal(error.headers.get("x-request-id"), "client-42");
});

test("GET /usage lists direct, mcp and sdk, in that order, with zeros for kinds without traffic", async () => {
  const fresh = await signUp(api);
  const empty = await request(api.baseUrl, "GET", "/usage", { token: fresh.token });
  assert.equal(empty.status, 200, empty.text);
  assert.equal(empty.body.total_requests, 0);
  assert.deepEqual(empty.body.by_client_kind, [
    { client_kind: "direct", requests: 0, errors: 0, avg_duration_ms: null },
    { client_kind: "mcp", requests: 0, errors: 0, avg_duration_ms: null },
    { client_kind: "sdk", requests: 0, errors: 0, avg_duration_ms: null },
  ]);
  assert.deepEqual(empty.body.by_day, []);

  const sdk = await request(api.baseUrl, "POST", "/api_keys", { token: fresh.token, body: { label: "sdk", client_kind: "sdk" } });
  await request(api.baseUrl, "GET", "/campaigns/nope", { token: sdk.body.plaintext });
  await flushUsage(api, { accountId: fresh.accountId }, 3);
  const used = await request(api.baseUrl, "GET", "/usage", { token: fresh.token });
  assert.deepEqual(
    used.body.by_client_kind.map((row: any) => [row.client_kind, row.requests, row.errors]),
    [
      ["direct", 2, 0],
      ["mcp", 0, 0],
      ["sdk", 1, 1],
    ],
  );
  assert.equal(used.body.by_client_kind[1].avg_duration_ms, null);
  assert.equal(typeof used.body.by_client_kind[2].avg_duration_ms, "number");
  assert.equal(used.body.total_requests, 3);
});

test("last_used_at is visible to the next request, without waiting for the usage batch", async () => {
  // no batch writes from here on: what the next request sees was written on the request path
  await api.ctx.usage.stop();
  const created = await request(api.baseUrl, "POST", "/api_keys", { token, body: { label: "worker" } });
  assert.equal(created.status, 201, created.text);
  assert.equal(created.body.last_used_at, null);

  const before = Date.now();
  const used = await request(api.baseUrl, "GET", "/campaigns", { token: created.body.plaintext });
  assert.equal(used.status, 200);
  const keys = await request(api.baseUrl, "GET", "/api_keys", { token });
  const shown = keys.body.find((key: any) => key.id === created.body.id);
  assert.ok(shown.last_used_at, JSON.stringify(shown));
  assert.ok(Date.parse(shown.last_used_at) >= before - 1000, `${shown.last_used_at} is this request's time`);
  // the key that asked shows as used too
  const asking = keys.body.find((key: any) => key.id !== created.body.id);
  assert.ok(asking.last_used_at);
  assert.equal(await api.database.db.apiKey.count({ where: { accountId, lastUsedAt: null } }), 0);
});
