import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { Validator } from "@seriousme/openapi-schema-validator";
import { ERROR_CODES } from "@outreach/core";
import { createApp } from "../src/app.js";
import { openApiPath } from "../src/openapi/document.js";
import { mountedRoutes } from "../src/route-list.js";
import { RELEASE_VERSION } from "../src/openapi/release.js";
import { DocumentChecker, testDocument } from "./openapi-check.js";
import { request, startTestApi, type TestApi } from "./helpers.js";

let api: TestApi;
before(async () => {
  api = await startTestApi();
});
after(() => api?.close());

const METHODS = ["get", "post", "put", "patch", "delete", "head"];

function documentedOperations(document: any): string[] {
  return Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((method) => METHODS.includes(method))
      .map((method) => `${method.toUpperCase()} ${path}`),
  );
}

test("GET /openapi.json serves the OpenAPI 3.1 document without a key", async () => {
  const res = await request(api.baseUrl, "GET", "/openapi.json");
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
  assert.equal(res.body.openapi, "3.1.0");
  assert.equal(res.body.info.version, RELEASE_VERSION);
  assert.deepEqual(res.body.servers, [{ url: api.config.publicBaseUrl }]);
  assert.deepEqual(res.body.components.securitySchemes.apiKey, { type: "http", scheme: "bearer", description: res.body.components.securitySchemes.apiKey.description });
});

test("the document passes an independent OpenAPI 3.1 validator", async () => {
  const validator = new Validator();
  const result = await validator.validate(testDocument());
  assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2)?.slice(0, 4000));
  assert.equal(validator.version, "3.1");
});

test("every mounted route is documented, and every documented operation is mounted", () => {
  const mounted = new Set(mountedRoutes(createApp(api.ctx)).map((route) => `${route.method} ${openApiPath(route.path)}`));
  const documented = new Set(documentedOperations(testDocument()));
  const undocumented = [...mounted].filter((route) => !documented.has(route)).sort();
  const unmounted = [...documented].filter((route) => !mounted.has(route)).sort();
  assert.deepEqual(undocumented, [], "mounted routes missing from the OpenAPI document");
  assert.deepEqual(unmounted, [], "documented operations that no route answers");
});

test("every operation has an id, a summary, a tag and its errors as envelopes with their codes", () => {
  const document: any = testDocument();
  const ids = new Set<string>();
  for (const [path, item] of Object.entries<any>(document.paths)) {
    for (const [method, operation] of Object.entries<any>(item)) {
      const where = `${method.toUpperCase()} ${path}`;
      assert.ok(operation.operationId && !ids.has(operation.operationId), `${where}: a unique operationId`);
      ids.add(operation.operationId);
      assert.ok(operation.summary, `${where}: a summary`);
      assert.equal(operation.tags?.length, 1, `${where}: one tag`);
      for (const [status, response] of Object.entries<any>(operation.responses)) {
        // answers that are not the error envelope (pages, GET /readyz's 503 body) have their own schema
        if (Number(status) < 400 || !response.content?.["application/json"]?.schema?.allOf) continue;
        const codes: string[] = response.content["application/json"].schema.allOf[1].properties.code.enum;
        for (const code of codes) assert.equal(String(ERROR_CODES[code as keyof typeof ERROR_CODES][0]), status, `${where}: ${code} under ${status}`);
      }
    }
  }
});

test("the webhooks section has one entry per event type with the signature header", () => {
  const document: any = testDocument();
  for (const type of [
    "enrollment.sent",
    "enrollment.opened",
    "enrollment.replied",
    "enrollment.bounced",
    "enrollment.unsubscribed",
    "credential.disabled",
    "campaign.paused",
    "enrollment.clicked",
    "webhook.test",
  ]) {
    const post = document.webhooks[type]?.post;
    assert.ok(post, `webhooks.${type}`);
    assert.ok(post.parameters.some((p: any) => p.name === "X-Service-Signature" && p.in === "header" && p.required));
    assert.ok(post.requestBody.content["application/json"].schema.properties.data, `${type}: data`);
  }
});

test("the checker refuses an undocumented status, a wrong body, and an undocumented property", () => {
  const checker = new DocumentChecker();
  const headers = new Headers({ "content-type": "application/json", "x-request-id": "r" });
  const campaign = { id: "6f1c1e57-5f44-4c33-9d5e-0d8a8e6f7a11", name: "x", status: "pending", created_at: "2026-01-01T00:00:00.000Z" };
  const page = new Headers({ ...Object.fromEntries(headers), "x-has-more": "false" });
  assert.deepEqual(checker.check("GET", "/campaigns", { status: 200, headers: page, text: JSON.stringify([campaign]) }), []);
  assert.match(checker.check("GET", "/campaigns", { status: 418, headers, text: "{}" })[0] ?? "", /status 418 is not documented/);
  assert.match(checker.check("GET", "/campaigns", { status: 200, headers: page, text: JSON.stringify([{ ...campaign, status: "running" }]) })[0] ?? "", /does not match/);
  assert.match(checker.check("GET", "/campaigns", { status: 200, headers: page, text: JSON.stringify([{ ...campaign, extra: 1 }]) })[0] ?? "", /extra/);
  assert.match(
    checker.check("GET", "/campaigns/6f1c1e57-5f44-4c33-9d5e-0d8a8e6f7a11", {
      status: 404,
      headers,
      text: JSON.stringify({ code: "webhook_not_found", type: "http://outreach.test/docs/errors/webhook_not_found", message: "m" }),
    })[0] ?? "",
    /does not match/,
  );
});
