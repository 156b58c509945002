import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { waitFor } from "@outreach/testing";
import { request, startTestApi, type TestApi } from "./helpers.js";

let api: TestApi;

before(async () => {
  api = await startTestApi();
});

after(async () => {
  await api?.close();
});

test("/readyz names an unavailable dependency with a fixed word, never its error text", async () => {
  assert.deepEqual((await request(api.baseUrl, "GET", "/readyz")).body, { status: "ok", checks: { postgres: "ok", redis: "ok" } });
  api.ctx.redis.disconnect(); // commands now fail with the client's own error message
  // the last result is reused for a second
  const res = await waitFor(
    async () => {
      const answer = await request(api.baseUrl, "GET", "/readyz");
      return answer.status === 503 ? answer : undefined;
    },
    { what: "/readyz to report Redis unavailable" },
  );
  assert.deepEqual(res.body, { status: "unavailable", checks: { postgres: "ok", redis: "unavailable" } });
});
