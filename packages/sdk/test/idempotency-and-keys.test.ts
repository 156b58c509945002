import assert from "node:assert/strict";
import { test } from "node:test";
import { createClient, OutreachApiError, OutreachNetworkError } from "../src/index.js";
import { envelope, recordingSleep, startStandIn } from "./stand-in-server.js";

// The stand-in's paths are not the API's: these tests use the client's untyped calls.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test("every call carries the API key as a bearer token", async (t) => {
  const api = await startStandIn(t, () => ({ status: 200, json: {} }));
  const client = createClient({ baseUrl: api.baseUrl, apiKey: "ak_live_abcd1234" });
  await client.untyped.GET("/things");
  await client.untyped.POST("/things", { body: {} });
  assert.deepEqual(
    api.received.map((r) => r.headers.authorization),
    ["Bearer ak_live_abcd1234", "Bearer ak_live_abcd1234"],
  );
});

test("a client without a key sends no Authorization header", async (t) => {
  const api = await startStandIn(t, () => ({ status: 200, json: [] }));
  await createClient({ baseUrl: api.baseUrl }).untyped.GET("/plans");
  assert.equal(api.received[0]!.headers.authorization, undefined);
});

test("a POST gets an Idempotency-Key, and every retry of it sends the same key and body", async (t) => {
  const api = await startStandIn(t, (_req, i) => (i === 0 ? "drop" : i === 1 ? { status: 503, json: envelope("service_unavailable") } : { status: 201, json: { id: "c1" } }));
  const { sleep } = recordingSleep();
  const client = createClient({ baseUrl: api.baseUrl, apiKey: "k", sleep });

  const { data } = await client.untyped.POST("/campaigns", { body: { campaign: { name: "Q4" } } });

  assert.deepEqual(data, { id: "c1" });
  assert.equal(api.received.length, 3);
  const keys = api.received.map((r) => r.headers["idempotency-key"]);
  assert.match(String(keys[0]), UUID);
  assert.deepEqual(keys, [keys[0], keys[0], keys[0]]);
  assert.deepEqual(
    api.received.map((r) => JSON.parse(r.body)),
    Array(3).fill({ campaign: { name: "Q4" } }),
  );
});

test("each call gets a key of its own", async (t) => {
  const api = await startStandIn(t, () => ({ status: 201, json: {} }));
  const client = createClient({ baseUrl: api.baseUrl, apiKey: "k" });
  await client.untyped.POST("/outreaches", { body: { name: "a" } });
  await client.untyped.POST("/outreaches", { body: { name: "a" } });
  const [first, second] = api.received.map((r) => r.headers["idempotency-key"]);
  assert.match(String(first), UUID);
  assert.match(String(second), UUID);
  assert.notEqual(first, second);
});

test("a key the caller gives wins, as a header or as the operation's header parameter", async (t) => {
  const api = await startStandIn(t, () => ({ status: 201, json: {} }));
  const client = createClient({ baseUrl: api.baseUrl, apiKey: "k" });
  await client.untyped.POST("/outreaches", { body: {}, headers: { "Idempotency-Key": "order-42" } });
  await client.untyped.POST("/outreaches", { body: {}, params: { header: { "Idempotency-Key": "order-43" } } });
  assert.deepEqual(
    api.received.map((r) => r.headers["idempotency-key"]),
    ["order-42", "order-43"],
  );
});

test("GET, PATCH and DELETE carry no Idempotency-Key", async (t) => {
  const api = await startStandIn(t, () => ({ status: 200, json: {} }));
  const client = createClient({ baseUrl: api.baseUrl, apiKey: "k" });
  await client.untyped.GET("/things");
  await client.untyped.PATCH("/things/1", { body: { name: "b" } });
  await client.untyped.DELETE("/things/1");
  assert.deepEqual(
    api.received.map((r) => [r.method, r.headers["idempotency-key"]]),
    [
      ["GET", undefined],
      ["PATCH", undefined],
      ["DELETE", undefined],
    ],
  );
});

test("POST /signup takes no Idempotency-Key, so it is sent once and never retried", async (t) => {
  const api = await startStandIn(t, () => ({ status: 503, json: envelope("service_unavailable") }));
  const { waits, sleep } = recordingSleep();
  const client = createClient({ baseUrl: api.baseUrl, sleep });
  await assert.rejects(client.untyped.POST("/signup", { body: { email: "a@example.com" } }), OutreachApiError);
  assert.equal(api.received.length, 1);
  assert.equal(api.received[0]!.headers["idempotency-key"], undefined);
  assert.deepEqual(waits, []);
});

test("a dropped POST /signup is reported, not retried", async (t) => {
  const api = await startStandIn(t, () => "drop");
  const { sleep } = recordingSleep();
  const client = createClient({ baseUrl: api.baseUrl, sleep });
  await assert.rejects(client.untyped.POST("/signup", { body: { email: "a@example.com" } }), (err) => err instanceof OutreachNetworkError && err.attempts === 1);
  assert.equal(api.received.length, 1);
});

test("the base URL's own path is not part of the operation's: POST <base>/signup is still the signup", async (t) => {
  const api = await startStandIn(t, () => ({ status: 503, json: envelope("service_unavailable") }));
  const { sleep } = recordingSleep();
  const client = createClient({ baseUrl: `${api.baseUrl}/outreach-api/`, sleep });
  await assert.rejects(client.untyped.POST("/signup", { body: { email: "a@example.com" } }), OutreachApiError);
  assert.deepEqual(
    api.received.map((r) => [r.url, r.headers["idempotency-key"]]),
    [["/outreach-api/signup", undefined]],
  );
});

test("keys made through the SDK are attributed to it: POST /api_keys defaults client_kind to sdk", async (t) => {
  const api = await startStandIn(t, () => ({ status: 201, json: {} }));
  const client = createClient({ baseUrl: api.baseUrl, apiKey: "k" });
  await client.untyped.POST("/api_keys", { body: { label: "backend" } });
  await client.untyped.POST("/api_keys", { body: { api_key: { label: "wrapped" } } });
  await client.untyped.POST("/api_keys", { body: { label: "agent", client_kind: "mcp" } });
  await client.untyped.POST("/api_keys", { body: { api_key: { label: "plain", client_kind: "direct" } } });
  assert.deepEqual(
    api.received.map((r) => JSON.parse(r.body)),
    [{ label: "backend", client_kind: "sdk" }, { api_key: { label: "wrapped", client_kind: "sdk" } }, { label: "agent", client_kind: "mcp" }, { api_key: { label: "plain", client_kind: "direct" } }],
  );
});

test("other POST bodies are sent as given", async (t) => {
  const api = await startStandIn(t, () => ({ status: 201, json: {} }));
  const client = createClient({ baseUrl: api.baseUrl, apiKey: "k" });
  await client.untyped.POST("/webhooks", { body: { webhook: { url: "https://hooks.example.com" } } });
  assert.deepEqual(JSON.parse(api.received[0]!.body), { webhook: { url: "https://hooks.example.com" } });
});

test("the client sends through the fetch it is given, with the key and headers already set", async (t) => {
  const api = await startStandIn(t, () => ({ status: 201, json: { id: "o1" } }));
  const seen: Request[] = [];
  const client = createClient({
    baseUrl: api.baseUrl,
    apiKey: "k",
    fetch: (request) => {
      seen.push(request.clone());
      return fetch(request);
    },
  });
  const { data } = await client.untyped.POST("/outreaches", { body: { name: "Q4" } });
  assert.deepEqual(data, { id: "o1" });
  assert.equal(seen.length, 1);
  assert.equal(seen[0]!.headers.get("authorization"), "Bearer k");
  assert.match(String(seen[0]!.headers.get("idempotency-key")), UUID);
  assert.deepEqual(await seen[0]!.json(), { name: "Q4" });
});
