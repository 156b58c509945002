import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, test } from "node:test";
import { decryptSecret, EVENT_TYPES, secretAad } from "@outreach/core";
import { assertErrorEnvelope as assertError } from "@outreach/testing";
import { request, signUpUnlimited, startTestApi, type TestApi } from "./helpers.js";

const LIMITS = { SIGNUP_LIMIT_PER_HOUR: "1000", RATE_LIMIT_PER_MINUTE: "100000", DOCS_URL: "https://docs.outreach.test" };
const PUBLIC_HOST_MESSAGE = "must point to a public host, not a loopback, private, link-local or other internal address";
const WEBHOOK_KEYS = ["consecutive_failures", "created_at", "description", "disabled_at", "event_filters", "id", "updated_at", "url"];
const SECRET_SHAPE = /^whsec_[A-Za-z0-9_-]{43}$/;

let api: TestApi;
let tokenA: string;
let accountA: string;
let tokenB: string;

before(async () => {
  api = await startTestApi(LIMITS);
  ({ token: tokenA, accountId: accountA } = await signUpUnlimited(api, "a@webhooks.test"));
  ({ token: tokenB } = await signUpUnlimited(api, "b@webhooks.test"));
});
after(() => api?.close());

function call(method: string, path: string, options: { body?: unknown; token?: string; headers?: Record<string, string> } = {}) {
  return request(api.baseUrl, method, path, { token: tokenA, ...options });
}

async function createHook(body: unknown = { webhook: { url: "https://hooks.example.com/in" } }, token = tokenA) {
  const res = await call("POST", "/webhooks", { body, token });
  assert.equal(res.status, 201, res.text);
  return res.body as Record<string, any>;
}

function storedRow(id: string) {
  return api.database.db.webhook.findUnique({ where: { id } });
}

test("POST /webhooks creates a webhook with defaults and returns its secret once", async () => {
  const res = await call("POST", "/webhooks", { body: { webhook: { url: "https://hooks.example.com/in?src=outreach" } } });
  assert.equal(res.status, 201, res.text);
  assert.deepEqual(Object.keys(res.body).sort(), [...WEBHOOK_KEYS, "secret"].sort());
  assert.match(res.body.id, /^[0-9a-f-]{36}$/);
  assert.equal(res.body.url, "https://hooks.example.com/in?src=outreach");
  assert.equal(res.body.description, null);
  assert.deepEqual(res.body.event_filters, ["*"]);
  assert.equal(res.body.disabled_at, null);
  assert.equal(res.body.consecutive_failures, 0);
  assert.ok(!Number.isNaN(Date.parse(res.body.created_at)));
  assert.ok(!Number.isNaN(Date.parse(res.body.updated_at)));
  assert.match(res.body.secret, SECRET_SHAPE);

  const row = await storedRow(res.body.id);
  assert.ok(row);
  assert.equal(row.accountId, accountA);
  assert.equal(row.url, "https://hooks.example.com/in?src=outreach");
  assert.deepEqual(row.eventFilters, ["*"]);
  assert.notEqual(row.secretEnc, res.body.secret, "the secret is not stored in plaintext");
  assert.ok(!row.secretEnc.includes(res.body.secret.slice(6)), "not even its random part");
  assert.equal(decryptSecret(row.secretEnc, api.config.encryptionKey, secretAad("webhooks", "secretEnc", row.id)), res.body.secret);
});

test("fields are also accepted at the top level; filters are deduplicated and the URL is normalised", async () => {
  const body = await createHook({
    url: "  HTTPS://Hooks.Example.COM:8443/path  ",
    event_filters: ["enrollment.replied", "campaign.paused", "enrollment.replied"],
    description: "  CRM sync  ",
  });
  assert.equal(body.url, "https://hooks.example.com:8443/path");
  assert.deepEqual(body.event_filters, ["enrollment.replied", "campaign.paused"]);
  assert.equal(body.description, "CRM sync");
  const row = await storedRow(body.id);
  assert.deepEqual(row?.eventFilters, ["enrollment.replied", "campaign.paused"]);

  const all = await createHook({ webhook: { url: "https://hooks.example.com/all", event_filters: [...EVENT_TYPES, "*"], description: "" } });
  assert.deepEqual(all.event_filters, [...EVENT_TYPES, "*"]);
  assert.equal(all.description, null, "an empty description is stored as null");
});

test("invalid create bodies are 422 validation_failed and write nothing", async () => {
  const cases: Array<[unknown, string | RegExp]> = [
    [{}, "url is required"],
    [{ webhook: {} }, "webhook.url is required"],
    [{ webhook: null }, "webhook must be of type object"],
    [[], "value must be of type object"],
    [{ webhook: { url: "" } }, "webhook.url is not allowed to be empty"],
    [{ webhook: { url: 42 } }, "webhook.url must be a string"],
    [{ webhook: { url: "not a url" } }, "webhook.url must be an absolute http or https URL"],
    [{ webhook: { url: "/relative" } }, "webhook.url must be an absolute http or https URL"],
    [{ webhook: { url: "ftp://hooks.example.com/" } }, "webhook.url must be an absolute http or https URL"],
    [{ webhook: { url: "javascript:alert(1)" } }, "webhook.url must be an absolute http or https URL"],
    [{ webhook: { url: "https://exa\u0000mple.com/" } }, "webhook.url must be an absolute http or https URL"],
    [{ webhook: { url: "https://user:pw@hooks.example.com/" } }, "webhook.url must not contain a user name or password"],
    [{ webhook: { url: "https://token@hooks.example.com/" } }, "webhook.url must not contain a user name or password"],
    [{ webhook: { url: `https://hooks.example.com/${"a".repeat(2030)}` } }, /webhook\.url length must be less than or equal to 2048/],
    [{ webhook: { url: "https://hooks.example.com/", event_filters: ["enrollment.delivered"] } }, /^webhook\.event_filters\[0\] must be one of \[enrollment\.sent, /],
    [{ webhook: { url: "https://hooks.example.com/", event_filters: ["*", "ENROLLMENT.SENT"] } }, /^webhook\.event_filters\[1\] must be one of/],
    [{ webhook: { url: "https://hooks.example.com/", event_filters: [] } }, "webhook.event_filters must contain at least 1 items"],
    [{ webhook: { url: "https://hooks.example.com/", event_filters: "*" } }, "webhook.event_filters must be an array"],
    [{ webhook: { url: "https://hooks.example.com/", event_filters: null } }, "webhook.event_filters must be an array"],
    [{ webhook: { url: "https://hooks.example.com/", event_filters: [7] } }, /^webhook\.event_filters\[0\] must be one of/],
    [{ webhook: { url: "https://hooks.example.com/", description: 5 } }, "webhook.description must be a string"],
    [{ webhook: { url: "https://hooks.example.com/", description: "a\u0000b" } }, "webhook.description must not contain NUL characters"],
    [{ webhook: { url: "https://hooks.example.com/", description: "d".repeat(1001) } }, "webhook.description length must be less than or equal to 1000 characters long"],
    [{ webhook: { url: "https://hooks.example.com/", secret: "mine" } }, "webhook.secret is not allowed"],
    // a wrapper next to other keys: a top-level body with an unknown field, as for every resource
    [{ webhook: { url: "https://hooks.example.com/" }, url: "https://hooks.example.com/" }, "webhook is not allowed"],
    [{ url: "https://hooks.example.com/", disabled_at: null }, "disabled_at is not allowed"],
    [{ url: "ftp://x", event_filters: [] }, "url must be an absolute http or https URL, event_filters must contain at least 1 items"],
  ];
  const before = await api.database.db.webhook.count();
  for (const [body, message] of cases) {
    const res = await call("POST", "/webhooks", { body });
    assertError(res, 422, "validation_failed", message);
  }
  assert.equal(await api.database.db.webhook.count(), before, "no rows written");
});

const PRIVATE_URLS = [
  "http://127.0.0.1:8080/hook",
  "http://2130706433/",
  "http://0.0.0.0/",
  "http://10.1.2.3/",
  "http://172.16.0.1/",
  "http://192.168.1.10/",
  "http://169.254.169.254/latest/meta-data/",
  "http://100.64.0.1/",
  "http://224.0.0.1/",
  "http://[::1]/",
  "http://[::]/",
  "http://[::ffff:127.0.0.1]/",
  "http://[fd00::1]/",
  "http://[fe80::1]/",
  "http://[ff02::1]/",
  "http://localhost:3000/",
  "http://LOCALHOST./",
  "http://hooks.localhost/",
  "http://printer.local/",
  "http://metadata.google.internal/",
  "http://redis:6379/",
];

test("private, loopback and internal targets are refused on create and update", async () => {
  const existing = await createHook();
  for (const url of PRIVATE_URLS) {
    const created = await call("POST", "/webhooks", { body: { webhook: { url } } });
    assertError(created, 422, "validation_failed", `webhook.url ${PUBLIC_HOST_MESSAGE}`);
    const updated = await call("PATCH", `/webhooks/${existing.id}`, { body: { webhook: { url } } });
    assertError(updated, 422, "validation_failed", `webhook.url ${PUBLIC_HOST_MESSAGE}`);
  }
  assert.equal((await storedRow(existing.id))?.url, "https://hooks.example.com/in");
  const created = await createHook({ url: "https://[2606:4700:4700::1111]/in" });
  assert.equal(created.url, "https://[2606:4700:4700::1111]/in", "a public IPv6 literal is fine");
});

test("private targets are accepted when WEBHOOK_ALLOW_PRIVATE_URLS is set", async () => {
  const local = await startTestApi({ ...LIMITS, WEBHOOK_ALLOW_PRIVATE_URLS: "true" });
  try {
    const { token } = await signUpUnlimited(local, "local@webhooks.test");
    for (const url of PRIVATE_URLS) {
      const res = await request(local.baseUrl, "POST", "/webhooks", { token, body: { webhook: { url } } });
      assert.equal(res.status, 201, `${url}: ${res.text}`);
    }
    const credentials = await request(local.baseUrl, "POST", "/webhooks", { token, body: { url: "http://u:p@127.0.0.1/" } });
    assert.equal(credentials.status, 422, "credentials stay forbidden");
    assert.equal(credentials.body.message, "url must not contain a user name or password");
  } finally {
    await local.close();
  }
});

test("GET /webhooks lists the account's webhooks newest first, without secrets", async () => {
  const other = await signUpUnlimited(api, "lister@webhooks.test");
  const first = await createHook({ url: "https://one.example.com/" }, other.token);
  const second = await createHook({ url: "https://two.example.com/" }, other.token);
  const third = await createHook({ url: "https://three.example.com/" }, other.token);

  const list = await call("GET", "/webhooks", { token: other.token });
  assert.equal(list.status, 200);
  assert.deepEqual(
    list.body.map((w: any) => w.id),
    [third.id, second.id, first.id],
  );
  for (const item of list.body) assert.deepEqual(Object.keys(item).sort(), WEBHOOK_KEYS);
  for (const created of [first, second, third]) assert.ok(!list.text.includes(created.secret));
  const { secret: _secret, ...withoutSecret } = third;
  assert.deepEqual(list.body[0], withoutSecret);

  const one = await call("GET", `/webhooks/${second.id}`, { token: other.token });
  assert.equal(one.status, 200);
  const { secret: secondSecret, ...secondWithoutSecret } = second;
  assert.deepEqual(one.body, secondWithoutSecret);
  assert.ok(!one.text.includes(secondSecret));

  const fresh = await signUpUnlimited(api, "empty@webhooks.test");
  const empty = await call("GET", "/webhooks", { token: fresh.token });
  assert.equal(empty.status, 200);
  assert.deepEqual(empty.body, []);
});

test("PATCH /webhooks/:id updates url, filters and description and never returns the secret", async () => {
  const created = await createHook({ webhook: { url: "https://hooks.example.com/v1", description: "old" } });
  const earlier = new Date(Date.parse(created.updated_at) - 3_600_000);
  await api.database.db.webhook.update({ where: { id: created.id }, data: { updatedAt: earlier } });
  const res = await call("PATCH", `/webhooks/${created.id}`, {
    body: { webhook: { url: "https://hooks.example.com/v2", event_filters: ["enrollment.bounced", "enrollment.bounced"], description: "new" } },
  });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(Object.keys(res.body).sort(), WEBHOOK_KEYS);
  assert.ok(!res.text.includes(created.secret));
  assert.equal(res.body.url, "https://hooks.example.com/v2");
  assert.deepEqual(res.body.event_filters, ["enrollment.bounced"]);
  assert.equal(res.body.description, "new");
  assert.equal(res.body.created_at, created.created_at);
  assert.ok(Date.parse(res.body.updated_at) > earlier.getTime(), "updated_at moves");

  const row = await storedRow(created.id);
  assert.equal(row?.url, "https://hooks.example.com/v2");
  assert.deepEqual(row?.eventFilters, ["enrollment.bounced"]);
  assert.equal(row?.description, "new");
  assert.equal(decryptSecret(row!.secretEnc, api.config.encryptionKey, secretAad("webhooks", "secretEnc", row!.id)), created.secret, "the secret is untouched");

  const partial = await call("PATCH", `/webhooks/${created.id}`, { body: { description: null } });
  assert.equal(partial.status, 200, partial.text);
  assert.equal(partial.body.description, null);
  assert.equal(partial.body.url, "https://hooks.example.com/v2", "fields not sent are kept");
  assert.deepEqual(partial.body.event_filters, ["enrollment.bounced"]);
});

test("PATCH rejects empty updates, non-null disabled_at and invalid fields without changing the row", async () => {
  const created = await createHook({ webhook: { url: "https://hooks.example.com/keep", event_filters: ["enrollment.sent"] } });
  const cases: Array<[unknown, string | RegExp]> = [
    [{}, "the update must contain at least one of url, event_filters, description, disabled_at"],
    [{ webhook: {} }, "the update must contain at least one of url, event_filters, description, disabled_at"],
    [{ webhook: { disabled_at: "2024-01-01T00:00:00Z" } }, "webhook.disabled_at may only be null, which re-enables the webhook"],
    [{ webhook: { disabled_at: false } }, "webhook.disabled_at may only be null, which re-enables the webhook"],
    [{ disabled_at: 0 }, "disabled_at may only be null, which re-enables the webhook"],
    [{ webhook: { event_filters: [] } }, "webhook.event_filters must contain at least 1 items"],
    [{ webhook: { event_filters: ["nope"] } }, /^webhook\.event_filters\[0\] must be one of/],
    [{ webhook: { url: "mailto:a@b.example" } }, "webhook.url must be an absolute http or https URL"],
    [{ webhook: { url: null } }, "webhook.url must be a string"],
    [{ webhook: { consecutive_failures: 0 } }, "webhook.consecutive_failures is not allowed"],
    [{ webhook: { secret: "x" } }, "webhook.secret is not allowed"],
  ];
  for (const [body, message] of cases) {
    const res = await call("PATCH", `/webhooks/${created.id}`, { body });
    assertError(res, 422, "validation_failed", message);
  }
  const row = await storedRow(created.id);
  assert.equal(row?.url, "https://hooks.example.com/keep");
  assert.deepEqual(row?.eventFilters, ["enrollment.sent"]);
  assert.equal(row?.updatedAt.toISOString(), created.updated_at);
});

test("PATCH {webhook:{disabled_at:null}} re-enables a disabled webhook and resets its failure count", async () => {
  const created = await createHook();
  const disabledAt = new Date(Date.now() - 60_000);
  await api.database.db.webhook.update({ where: { id: created.id }, data: { disabledAt, consecutiveFailures: 5 } });

  const shown = await call("GET", `/webhooks/${created.id}`);
  assert.equal(shown.body.disabled_at, disabledAt.toISOString());
  assert.equal(shown.body.consecutive_failures, 5);

  const res = await call("PATCH", `/webhooks/${created.id}`, { body: { webhook: { disabled_at: null } } });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.disabled_at, null);
  assert.equal(res.body.consecutive_failures, 0);
  assert.equal(res.body.url, created.url);
  assert.ok(!res.text.includes(created.secret));

  const row = await storedRow(created.id);
  assert.equal(row?.disabledAt, null);
  assert.equal(row?.consecutiveFailures, 0);
});

test("POST /webhooks/:id/rotate_secret issues a new secret and keeps the old one for a 24 h grace", async () => {
  const created = await createHook();
  const before = Date.now();
  const res = await call("POST", `/webhooks/${created.id}/rotate_secret`);
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(Object.keys(res.body).sort(), ["id", "previous_secret_expires_at", "secret"]);
  assert.equal(res.body.id, created.id);
  assert.match(res.body.secret, SECRET_SHAPE);
  assert.notEqual(res.body.secret, created.secret);
  const expires = Date.parse(res.body.previous_secret_expires_at);
  assert.ok(expires >= before + 24 * 3600_000 && expires <= Date.now() + 24 * 3600_000, res.body.previous_secret_expires_at);

  const row = await storedRow(created.id);
  assert.notEqual(row?.secretEnc, res.body.secret);
  assert.equal(decryptSecret(row!.secretEnc, api.config.encryptionKey, secretAad("webhooks", "secretEnc", row!.id)), res.body.secret, "the new secret is the stored one");
  assert.equal(decryptSecret(row!.previousSecretEnc!, api.config.encryptionKey, secretAad("webhooks", "secretEnc", row!.id)), created.secret, "the old secret is kept, encrypted");
  assert.equal(row?.previousSecretUntil?.toISOString(), res.body.previous_secret_expires_at);

  const second = await call("POST", `/webhooks/${created.id}/rotate_secret`);
  assert.equal(second.status, 200, second.text);
  const rotatedTwice = await storedRow(created.id);
  assert.equal(decryptSecret(rotatedTwice!.secretEnc, api.config.encryptionKey, secretAad("webhooks", "secretEnc", rotatedTwice!.id)), second.body.secret);
  assert.equal(
    decryptSecret(rotatedTwice!.previousSecretEnc!, api.config.encryptionKey, secretAad("webhooks", "secretEnc", rotatedTwice!.id)),
    res.body.secret,
    "only the immediately previous secret is kept",
  );
  assert.ok(!second.text.includes(res.body.secret) && !second.text.includes(created.secret), "old secrets are never shown again");

  const shown = await call("GET", `/webhooks/${created.id}`);
  assert.ok(!("secret" in shown.body));
  assert.ok(!shown.text.includes(res.body.secret));

  const withBody = await call("POST", `/webhooks/${created.id}/rotate_secret`, { body: { secret: "chosen" } });
  assertError(withBody, 422, "validation_failed", "secret is not allowed");
  const after = await storedRow(created.id);
  assert.deepEqual(after, rotatedTwice, "a rejected rotation changes nothing");
});

test("Idempotency-Key replays create and rotate_secret instead of running them twice", async () => {
  const key = `create-${randomUUID()}`;
  const body = { webhook: { url: "https://hooks.example.com/idem" } };
  const first = await call("POST", "/webhooks", { body, headers: { "idempotency-key": key } });
  assert.equal(first.status, 201);
  const replay = await call("POST", "/webhooks", { body, headers: { "idempotency-key": key } });
  assert.equal(replay.status, 201);
  assert.equal(replay.headers.get("idempotent-replay"), "true");
  assert.deepEqual(replay.body, first.body);
  assert.equal(await api.database.db.webhook.count({ where: { url: "https://hooks.example.com/idem" } }), 1);
  const conflict = await call("POST", "/webhooks", { body: { webhook: { url: "https://hooks.example.com/other" } }, headers: { "idempotency-key": key } });
  assertError(conflict, 409, "idempotency_conflict");

  const rotateKey = `rotate-${randomUUID()}`;
  const rotated = await call("POST", `/webhooks/${first.body.id}/rotate_secret`, { headers: { "idempotency-key": rotateKey } });
  assert.equal(rotated.status, 200);
  const stored = (await storedRow(first.body.id))!.secretEnc;
  const again = await call("POST", `/webhooks/${first.body.id}/rotate_secret`, { headers: { "idempotency-key": rotateKey } });
  assert.equal(again.headers.get("idempotent-replay"), "true");
  assert.deepEqual(again.body, rotated.body);
  assert.equal((await storedRow(first.body.id))!.secretEnc, stored, "the replay did not rotate again");
});

test("DELETE /webhooks/:id deletes the webhook and cascades to its deliveries", async () => {
  const created = await createHook();
  const keep = await createHook({ url: "https://hooks.example.com/keep" });
  const db = api.database.db;
  const event = await db.event.create({ data: { accountId: accountA, type: "enrollment.sent", data: {} } });
  const delivery = await db.webhookDelivery.create({ data: { accountId: accountA, webhookId: created.id, eventId: event.id, eventType: event.type } });
  await db.webhookAttempt.create({ data: { deliveryId: delivery.id, number: 1, statusCode: 500, durationMs: 12 } });
  await db.webhookDelivery.create({ data: { accountId: accountA, webhookId: keep.id, eventId: event.id, eventType: event.type } });

  const res = await call("DELETE", `/webhooks/${created.id}`);
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body, { id: created.id, deleted: true });

  assert.equal(await storedRow(created.id), null);
  assert.equal(await db.webhookDelivery.count({ where: { webhookId: created.id } }), 0);
  assert.equal(await db.webhookAttempt.count({ where: { deliveryId: delivery.id } }), 0);
  assert.equal(await db.webhookDelivery.count({ where: { webhookId: keep.id } }), 1, "other webhooks' deliveries stay");
  assert.ok(await db.event.findUnique({ where: { id: event.id } }), "the event itself stays");

  assertError(await call("GET", `/webhooks/${created.id}`), 404, "webhook_not_found", "Webhook not found.");
  assertError(await call("DELETE", `/webhooks/${created.id}`), 404, "webhook_not_found", "Webhook not found.");
});

test("unknown, malformed and other accounts' ids give the same 404 webhook_not_found and change nothing", async () => {
  const foreign = await createHook({ webhook: { url: "https://b.example.com/hook", description: "B's" } }, tokenB);
  const foreignRow = await storedRow(foreign.id);
  const ids = [randomUUID(), "not-a-uuid", "123", `${foreign.id}x`, foreign.id, foreign.id.toUpperCase()];
  const attempts: Array<[string, (id: string) => string, unknown]> = [
    ["GET", (id) => `/webhooks/${id}`, undefined],
    ["PATCH", (id) => `/webhooks/${id}`, { webhook: { description: "hijacked", disabled_at: null } }],
    ["DELETE", (id) => `/webhooks/${id}`, undefined],
    ["POST", (id) => `/webhooks/${id}/rotate_secret`, undefined],
  ];
  for (const id of ids) {
    for (const [method, path, body] of attempts) {
      const res = await call(method, path(encodeURIComponent(id)), { body });
      assertError(res, 404, "webhook_not_found", "Webhook not found.");
      assert.deepEqual(Object.keys(res.body).sort(), ["code", "message", "type"], `${method} ${id}`);
    }
  }
  assert.deepEqual(await storedRow(foreign.id), foreignRow, "the other account's webhook is unchanged");

  const list = await call("GET", "/webhooks");
  assert.ok(!list.body.some((w: any) => w.id === foreign.id), "another account's webhook is not listed");
  const own = await call("GET", `/webhooks/${foreign.id}`, { token: tokenB });
  assert.equal(own.status, 200);
  assert.equal(own.body.description, "B's");
});

test("webhook endpoints require an API key", async () => {
  for (const [method, path] of [
    ["GET", "/webhooks"],
    ["POST", "/webhooks"],
    ["GET", `/webhooks/${randomUUID()}`],
    ["POST", `/webhooks/${randomUUID()}/rotate_secret`],
  ] as const) {
    const res = await request(api.baseUrl, method, path, { body: method === "POST" ? { url: "https://hooks.example.com/" } : undefined });
    assertError(res, 401, "unauthorized");
  }
});
