import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { openPgConnection, type PgConnection } from "@outreach/db/testing";
import { request, signUp, startTestApi, type JsonResponse, type TestApi } from "./helpers.js";
import { credential, step } from "./workflow-fixtures.js";

// A request that meets a row lock held elsewhere gives up after DATABASE_LOCK_TIMEOUT_MS
// and answers 503 service_busy with Retry-After, instead of holding its connection.
let api: TestApi;
let token: string;
let holder: PgConnection;

before(async () => {
  api = await startTestApi({ DATABASE_LOCK_TIMEOUT_MS: "200", SIGNUP_LIMIT_PER_HOUR: "1000", RATE_LIMIT_PER_MINUTE: "100000" });
  ({ token } = await signUp(api));
  holder = await openPgConnection(api.database.url);
});

after(async () => {
  await holder?.end();
  await api?.close();
});

// A deadline for the whole exchange (not a timing assertion): a request stuck behind the lock fails the test instead of hanging it.
const call = (method: string, path: string, body?: unknown): Promise<JsonResponse> =>
  Promise.race([
    request(api.baseUrl, method, path, { token, body }),
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${method} ${path} did not answer while the lock was held`)), 30_000).unref()),
  ]);

async function createCampaign(status: "pending" | "active" | "paused"): Promise<string> {
  const res = await request(api.baseUrl, "POST", "/campaigns", { token, body: { campaign: { name: `Busy ${status}`, smtp_credentials: [credential()], sequence_steps: [step(1)] } } });
  assert.equal(res.status, 201, res.text);
  await api.database.db.campaign.update({ where: { id: res.body.id }, data: { status } });
  return res.body.id;
}

/** Holds the campaign row's lock (another process's long transaction) while `fn` runs. */
async function whileLocked<T>(campaignId: string, fn: () => Promise<T>): Promise<T> {
  await holder.query("BEGIN");
  try {
    const { rowCount } = await holder.query("SELECT id FROM campaigns WHERE id = $1 FOR UPDATE", [campaignId]);
    assert.equal(rowCount, 1);
    return await fn();
  } finally {
    await holder.query("ROLLBACK");
  }
}

function assertBusy(res: JsonResponse, what: string): void {
  assert.equal(res.status, 503, `${what}: ${res.text}`);
  assert.equal(res.body?.code, "service_busy", what);
  assert.equal(res.body.type, `${api.config.docsUrl}/errors/service_busy`);
  assert.match(res.body.message, /busy/i);
  const retryAfter = Number(res.headers.get("retry-after"));
  assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 5, `${what}: Retry-After ${res.headers.get("retry-after")}`);
}

test("PATCH, pause, resume and dispatch of a locked campaign answer 503 service_busy with Retry-After while other requests are served", async () => {
  const active = await createCampaign("active");
  const paused = await createCampaign("paused");
  const pending = await createCampaign("pending");
  for (const [id, method, path, body] of [
    [active, "PATCH", `/campaigns/${active}`, { campaign: { name: "Renamed" } }],
    [active, "POST", `/campaigns/${active}/pause`, undefined],
    [paused, "POST", `/campaigns/${paused}/resume`, undefined],
    [pending, "POST", `/campaigns/${pending}/dispatch`, {}],
  ] as const) {
    await whileLocked(id, async () => {
      assertBusy(await call(method, path, body), `${method} ${path}`);
      // the API keeps answering: reads, and writes that need no such lock
      assert.equal((await call("GET", `/campaigns/${id}`)).status, 200);
      assert.equal((await call("GET", "/campaigns")).status, 200);
      assert.equal((await call("PATCH", `/campaigns/${id === active ? paused : active}`, { campaign: { name: "Other" } })).status, 200);
    });
  }
  // nothing was changed by the refused requests
  const stored = await api.database.db.campaign.findUniqueOrThrow({ where: { id: active } });
  assert.deepEqual([stored.name, stored.status], ["Other", "active"]);
  assert.equal((await api.database.db.campaign.findUniqueOrThrow({ where: { id: paused } })).status, "paused");
  // once the lock is gone, the same requests go through
  const renamed = await call("PATCH", `/campaigns/${active}`, { campaign: { name: "Renamed" } });
  assert.equal(renamed.status, 200, renamed.text);
  assert.equal((await call("POST", `/campaigns/${active}/pause`)).status, 200);
  assert.equal((await call("POST", `/campaigns/${paused}/resume`)).status, 200);
});

test("the error page documents service_busy", async () => {
  const res = await fetch(`${api.baseUrl}/docs/errors/service_busy`);
  assert.equal(res.status, 200);
  assert.match(await res.text(), /Retry-After/);
});
