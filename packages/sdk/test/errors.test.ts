import assert from "node:assert/strict";
import { test } from "node:test";
import { createClient, isApiError, OutreachApiError, UNEXPECTED_RESPONSE } from "../src/index.js";
import { envelope, startStandIn } from "./stand-in-server.js";

// The stand-in's paths are not the API's: these tests use the client's untyped calls.

test("an error answer throws OutreachApiError with the envelope, the status and the request id", async (t) => {
  const body = envelope("campaign_not_active", "The campaign is not active.", { status: "paused" });
  const api = await startStandIn(t, () => ({ status: 422, headers: { "x-request-id": "req_123" }, json: body }));
  const client = createClient({ baseUrl: api.baseUrl, apiKey: "k" });

  const error = await client.untyped.POST("/campaigns/c1/pause").then(
    () => assert.fail("the call should have thrown"),
    (err: unknown) => err,
  );

  assert.ok(error instanceof OutreachApiError);
  assert.equal(error.name, "OutreachApiError");
  assert.equal(error.status, 422);
  assert.equal(error.code, "campaign_not_active");
  assert.equal(error.type, "http://localhost:3000/docs/errors/campaign_not_active");
  assert.equal(error.message, "The campaign is not active.");
  assert.deepEqual(error.details, { status: "paused" });
  assert.equal(error.requestId, "req_123");
  assert.deepEqual(error.envelope, body);
});

test("the body's request_id is used when the header is missing", async (t) => {
  const api = await startStandIn(t, () => ({ status: 404, json: { ...envelope("webhook_not_found"), request_id: "req_body" } }));
  const client = createClient({ baseUrl: api.baseUrl, apiKey: "k" });
  await assert.rejects(client.untyped.GET("/webhooks/w1"), (err) => isApiError(err) && err.requestId === "req_body");
});

test("isApiError narrows by code", async (t) => {
  const api = await startStandIn(t, () => ({ status: 402, json: envelope("plan_limit_reached", "Plan limit reached", { monthly_limit: 100 }) }));
  const client = createClient({ baseUrl: api.baseUrl, apiKey: "k" });
  const error = await client.untyped.POST("/campaigns/c1/dispatch", { body: {} }).catch((err: unknown) => err);

  assert.equal(isApiError(error), true);
  assert.equal(isApiError(error, "plan_limit_reached"), true);
  assert.equal(isApiError(error, "no_pending_enrollments", "plan_limit_reached"), true);
  assert.equal(isApiError(error, "no_pending_enrollments"), false);
  assert.equal(isApiError(new Error("plan_limit_reached"), "plan_limit_reached"), false);
  if (isApiError(error, "plan_limit_reached")) {
    const code: "plan_limit_reached" = error.code;
    assert.equal(code, "plan_limit_reached");
  }
});

test("an error page that is not the API's envelope still throws OutreachApiError, with code unexpected_response", async (t) => {
  const api = await startStandIn(t, () => ({ status: 413, text: "<html>Request Entity Too Large</html>" }));
  const client = createClient({ baseUrl: api.baseUrl, apiKey: "k" });
  await assert.rejects(client.untyped.POST("/contact_imports", { body: {} }), (err) => {
    assert.ok(err instanceof OutreachApiError);
    assert.equal(err.status, 413);
    assert.equal(err.code, UNEXPECTED_RESPONSE);
    assert.equal(err.envelope, undefined);
    assert.match(err.message, /HTTP 413: <html>Request Entity Too Large/);
    return true;
  });
});

test("a 2xx answer resolves with its data and the response; an empty 204 with no data", async (t) => {
  const api = await startStandIn(t, (req) => (req.method === "DELETE" ? { status: 204 } : { status: 200, headers: { "x-request-id": "req_ok" }, json: { id: "c1" } }));
  const client = createClient({ baseUrl: api.baseUrl, apiKey: "k" });
  const got = await client.untyped.GET("/campaigns/{id}", { params: { path: { id: "c1" } } });
  assert.deepEqual(got.data, { id: "c1" });
  assert.equal(got.response.headers.get("x-request-id"), "req_ok");
  assert.equal(api.received[0]!.url, "/campaigns/c1");
  const deleted = await client.untyped.DELETE("/campaigns/{id}", { params: { path: { id: "c1" } } });
  assert.equal(deleted.data, undefined);
  assert.equal(deleted.response.status, 204);
});
