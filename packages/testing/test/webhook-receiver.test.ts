import assert from "node:assert/strict";
import { test } from "node:test";
import { apiRequest } from "../src/api-client.js";
import { assertErrorEnvelope } from "../src/error-envelope.js";
import { startWebhookReceiver } from "../src/webhook-receiver.js";

test("the receiver records each request with its raw body and answers from its script, then its fallback", async () => {
  const receiver = await startWebhookReceiver({ path: "/in" });
  try {
    assert.match(receiver.url, /^http:\/\/127\.0\.0\.1:\d+\/in$/);
    receiver.answers.push({ status: 500, headers: { "x-why": "scripted" }, body: "no" });
    const first = await fetch(receiver.url, { method: "POST", headers: { "content-type": "application/json" }, body: '{"a":1}' });
    assert.equal(first.status, 500);
    assert.equal(first.headers.get("x-why"), "scripted");
    assert.equal(await first.text(), "no");
    const second = await fetch(receiver.url, { method: "POST", body: "not json" });
    assert.equal(second.status, 200);
    assert.equal(await second.text(), "ok");
    const [a, b] = await receiver.waitForRequests(2);
    assert.equal(a!.method, "POST");
    assert.equal(a!.url, "/in");
    assert.equal(a!.raw.toString("utf8"), '{"a":1}');
    assert.deepEqual(a!.body, { a: 1 });
    assert.equal(b!.body, null);
    assert.equal(a!.headers["content-type"], "application/json");
  } finally {
    await receiver.close();
  }
});

test("a dropped answer closes the connection; an answer function sees every request; a hanging one is closed with the receiver", async () => {
  const dropping = await startWebhookReceiver({ answer: (_request, index) => (index === 0 ? "drop" : { status: 204 }) });
  try {
    await assert.rejects(fetch(dropping.url, { method: "POST", body: "x" }));
    assert.equal((await fetch(dropping.url, { method: "POST", body: "y" })).status, 204);
  } finally {
    await dropping.close();
  }
  const hanging = await startWebhookReceiver({ fallback: "hang" });
  const pending = fetch(hanging.url, { method: "POST", body: "z" });
  await hanging.waitForRequest((request) => request.raw.toString("utf8") === "z");
  assert.equal(hanging.open, 1);
  await hanging.close();
  await assert.rejects(pending);
});

test("apiRequest sends JSON with a bearer key and parses JSON answers; assertErrorEnvelope checks the envelope", async () => {
  const envelope = { code: "not_found", type: "https://docs.outreach.test/errors/not_found", message: "Not found." };
  const server = await startWebhookReceiver({ fallback: { status: 404, headers: { "content-type": "application/json" }, body: JSON.stringify(envelope) } });
  try {
    const base = server.url.slice(0, -"/hook".length);
    const res = await apiRequest(base, "POST", "/things?x=1", { token: "ak_test", body: { name: "n" } });
    assert.equal(res.status, 404);
    assert.deepEqual(res.body, envelope);
    const [sent] = server.requests;
    assert.equal(sent!.url, "/things?x=1");
    assert.equal(sent!.headers.authorization, "Bearer ak_test");
    assert.equal(sent!.headers["content-type"], "application/json");
    assert.deepEqual(sent!.body, { name: "n" });
    assertErrorEnvelope(res, 404, "not_found", "Not found.");
    assertErrorEnvelope(res, 404, "not_found", /found/);
    assertErrorEnvelope(res, 404, "not_found", { includes: "Not" });
    assert.throws(() => assertErrorEnvelope(res, 404, "not_found", undefined, { docsUrl: "https://elsewhere.test" }));
    assert.throws(() => assertErrorEnvelope({ ...res, text: `${res.text}\n    at handler (app.ts:1:1)` }, 404, "not_found"));
    assert.throws(() => assertErrorEnvelope({ ...res, body: { ...envelope, message: "" } }, 404, "not_found"));
  } finally {
    await server.close();
  }
});
