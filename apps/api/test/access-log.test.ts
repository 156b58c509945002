import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { captureLogs, waitFor } from "@outreach/testing";
import { request, signUp, startTestApi, type TestApi } from "./helpers.js";

let api: TestApi;
before(async () => {
  api = await startTestApi();
});
after(() => api?.close());

test("every request is one access-log line: request id, account, method, route pattern, status, duration; refused and public ones too", async () => {
  const logs = captureLogs(api.ctx.logger);
  try {
    const { token, accountId } = await signUp(api);
    const missing = await request(api.baseUrl, "GET", "/campaigns/6f1c2a7e-0000-4000-8000-000000000000", { token });
    const refused = await request(api.baseUrl, "GET", "/campaigns", { token: "ak_live_wrong" });
    await request(api.baseUrl, "GET", "/plans");
    const lines = await waitFor(
      () => {
        const found = logs.entries.filter((entry) => entry.message === "request");
        return found.length >= 4 ? found : undefined;
      },
      { what: "four access-log lines" },
    );
    const line = (requestId: string | null) => lines.find((entry) => entry.requestId === requestId);
    const notFound = line(missing.headers.get("x-request-id"))!;
    assert.deepEqual(
      { ...notFound, durationMs: typeof notFound.durationMs, timestamp: undefined, service: undefined, level: undefined },
      {
        message: "request",
        requestId: missing.headers.get("x-request-id"),
        accountId,
        method: "GET",
        route: "/campaigns/:id",
        status: 404,
        durationMs: "number",
        timestamp: undefined,
        service: undefined,
        level: undefined,
      },
    );
    const unauthorized = line(refused.headers.get("x-request-id"))!;
    assert.equal(unauthorized.status, 401);
    assert.equal(unauthorized.route, "/campaigns");
    assert.equal(unauthorized.accountId, undefined);
    assert.ok(
      lines.some((entry) => entry.route === "/plans" && entry.status === 200),
      "a public route",
    );
    assert.ok(lines.some((entry) => entry.route === "/signup" && entry.status === 201));
  } finally {
    logs.stop();
  }
});
