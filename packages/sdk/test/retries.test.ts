import assert from "node:assert/strict";
import { test } from "node:test";
import { createClient, isApiError, OutreachApiError, OutreachNetworkError } from "../src/index.js";
import { envelope, recordingSleep, startStandIn } from "./stand-in-server.js";

// The stand-in's paths are not the API's: these tests use the client's untyped calls.

test("a 503 is retried after the backoff and the call resolves with the answer that finally came", async (t) => {
  const api = await startStandIn(t, (_req, i) => (i < 2 ? { status: 503, json: envelope("service_unavailable") } : { status: 200, json: { ok: true } }));
  const { waits, sleep } = recordingSleep();
  const client = createClient({ baseUrl: api.baseUrl, apiKey: "ak_live_test", sleep });

  const { data, response } = await client.untyped.GET("/things");

  assert.deepEqual(data, { ok: true });
  assert.equal(response.status, 200);
  assert.equal(api.received.length, 3);
  assert.equal(waits.length, 2);
  assert.ok(waits[0]! >= 250 && waits[0]! <= 500, `first backoff ${waits[0]} ms is within 250..500`);
  assert.ok(waits[1]! >= 500 && waits[1]! <= 1000, `second backoff ${waits[1]} ms is within 500..1000`);
});

test("500, 502 and 504 are retried too", async (t) => {
  const statuses = [500, 502, 504];
  const api = await startStandIn(t, (_req, i) => (i < statuses.length ? { status: statuses[i]!, text: "upstream trouble" } : { status: 200, json: [] }));
  const { sleep } = recordingSleep();
  const client = createClient({ baseUrl: api.baseUrl, sleep });
  await client.untyped.GET("/things");
  assert.equal(api.received.length, 4);
});

test("a 429 waits the Retry-After seconds the API asked for", async (t) => {
  const api = await startStandIn(t, (_req, i) =>
    i === 0 ? { status: 429, headers: { "retry-after": "2" }, json: envelope("rate_limited", "Too many requests", { limit: 60, period: 60 }) } : { status: 200, json: { ok: true } },
  );
  const { waits, sleep } = recordingSleep();
  const client = createClient({ baseUrl: api.baseUrl, sleep });
  await client.untyped.GET("/things");
  assert.deepEqual(waits, [2000]);
});

test("a Retry-After longer than the longest wait is not waited for: the 429 is thrown", async (t) => {
  const api = await startStandIn(t, () => ({ status: 429, headers: { "retry-after": "3600" }, json: envelope("rate_limited", "Too many requests", { limit: 5, period: 3600 }) }));
  const { waits, sleep } = recordingSleep();
  const client = createClient({ baseUrl: api.baseUrl, sleep, maxRetryDelayMs: 30_000 });
  await assert.rejects(client.untyped.GET("/things"), (err) => isApiError(err, "rate_limited") && err.status === 429 && err.details?.period === 3600);
  assert.equal(api.received.length, 1);
  assert.deepEqual(waits, []);
});

test("after maxRetries the last error answer is thrown", async (t) => {
  const api = await startStandIn(t, () => ({ status: 503, json: envelope("service_unavailable", "The service is unavailable") }));
  const { waits, sleep } = recordingSleep();
  const client = createClient({ baseUrl: api.baseUrl, sleep, maxRetries: 2 });
  await assert.rejects(client.untyped.GET("/things"), (err) => err instanceof OutreachApiError && err.status === 503 && err.code === "service_unavailable");
  assert.equal(api.received.length, 3, "the first attempt and two retries");
  assert.equal(waits.length, 2);
});

test("the backoff doubles up to the cap", async (t) => {
  const api = await startStandIn(t, () => ({ status: 502, text: "bad gateway" }));
  const { waits, sleep } = recordingSleep();
  const client = createClient({ baseUrl: api.baseUrl, sleep, maxRetries: 8, maxRetryDelayMs: 4000 });
  await assert.rejects(client.untyped.GET("/things"), OutreachApiError);
  const steps = [500, 1000, 2000, 4000, 4000, 4000, 4000, 4000];
  assert.equal(waits.length, steps.length);
  waits.forEach((wait, i) => assert.ok(wait >= steps[i]! / 2 && wait <= steps[i]!, `wait ${i + 1} (${wait} ms) is within the upper half of ${steps[i]} ms`));
});

test("other 4xx answers are not retried", async (t) => {
  const api = await startStandIn(t, () => ({ status: 404, json: envelope("campaign_not_found") }));
  const { waits, sleep } = recordingSleep();
  const client = createClient({ baseUrl: api.baseUrl, sleep });
  await assert.rejects(client.untyped.GET("/campaigns/x"), (err) => isApiError(err, "campaign_not_found"));
  assert.equal(api.received.length, 1);
  assert.deepEqual(waits, []);
});

test("a dropped connection is retried", async (t) => {
  const api = await startStandIn(t, (_req, i) => (i === 0 ? "drop" : { status: 200, json: { ok: true } }));
  const { waits, sleep } = recordingSleep();
  const client = createClient({ baseUrl: api.baseUrl, sleep });
  const { data } = await client.untyped.GET("/things");
  assert.deepEqual(data, { ok: true });
  assert.equal(api.received.length, 2);
  assert.equal(waits.length, 1);
});

test("when no attempt gets an answer, OutreachNetworkError tells how many were made", async (t) => {
  const api = await startStandIn(t, () => "drop");
  const { sleep } = recordingSleep();
  const client = createClient({ baseUrl: api.baseUrl, sleep, maxRetries: 2 });
  await assert.rejects(client.untyped.GET("/things"), (err) => {
    assert.ok(err instanceof OutreachNetworkError, String(err));
    assert.ok(!(err instanceof OutreachApiError));
    assert.equal(err.attempts, 3);
    assert.ok(err.cause, "the underlying failure is kept as the cause");
    return true;
  });
  assert.equal(api.received.length, 3);
});

test("an attempt that outlives timeoutMs is abandoned and retried", async (t) => {
  const api = await startStandIn(t, (_req, i) => (i === 0 ? "hang" : { status: 200, json: { ok: true } }));
  const { sleep } = recordingSleep();
  const client = createClient({ baseUrl: api.baseUrl, sleep, timeoutMs: 300 });
  const { data } = await client.untyped.GET("/things");
  assert.deepEqual(data, { ok: true });
  assert.equal(api.received.length, 2);
});

test("a caller's abort is not retried", async (t) => {
  const controller = new AbortController();
  const api = await startStandIn(t, () => {
    controller.abort();
    return "hang";
  });
  const { waits, sleep } = recordingSleep();
  const client = createClient({ baseUrl: api.baseUrl, sleep });
  await assert.rejects(client.untyped.GET("/things", { signal: controller.signal }), (err: Error) => err.name === "AbortError");
  assert.equal(api.received.length, 1);
  assert.deepEqual(waits, []);
});

test("maxRetries: 0 sends once", async (t) => {
  const api = await startStandIn(t, () => ({ status: 503, json: envelope("service_unavailable") }));
  const client = createClient({ baseUrl: api.baseUrl, maxRetries: 0 });
  await assert.rejects(client.untyped.GET("/things"), OutreachApiError);
  assert.equal(api.received.length, 1);
});
