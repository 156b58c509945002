import assert from "node:assert/strict";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import { createLogger, SenderRegistry, startMetricsServer, TypedQueue } from "@outreach/core";
import { createAdminApp, type AdminApp } from "../src/admin/admin-app.js";
import { OPERATOR_COOKIE } from "../src/admin/operator-auth.js";
import { startTestApi, type TestApi } from "./helpers.js";

// The operator views on the api's metrics listener: bull-board and the schedule, behind OPERATOR_TOKEN.
const TOKEN = "operator-token-for-tests-0123456789";
const logger = createLogger({ service: "api", level: "error" });

let api: TestApi;
let admin: AdminApp;
let listener: Server;
let base: string;
let registry: SenderRegistry;
let leftover: TypedQueue<"send-email">;

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${base}${path}`, { headers, redirect: "manual" });
const bearer = (token = TOKEN) => ({ authorization: `Bearer ${token}` });

before(async () => {
  api = await startTestApi({ OPERATOR_TOKEN: TOKEN });
  admin = createAdminApp({ config: api.config, logger, db: api.ctx.db, redis: api.ctx.producer })!;
  assert.ok(admin, "OPERATOR_TOKEN set: the views are on");
  listener = await startMetricsServer(0, api.ctx.metrics, undefined, "127.0.0.1", admin.listener);
  base = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
  // a sender registered now, and the queue of one that is gone from the registry but left jobs behind
  registry = new SenderRegistry(api.ctx.producer, api.config);
  await registry.start("sender-live");
  leftover = new TypedQueue("send-email", api.config, api.ctx.producer, "sender-gone");
  await leftover.add({ accountId: "6f1c2a7e-0000-4000-8000-000000000001", stepSendId: "6f1c2a7e-0000-4000-8000-000000000002" }, { jobId: "left-behind" });
});

after(async () => {
  await registry?.stop("sender-live");
  await leftover?.queue.obliterate({ force: true }).catch(() => undefined);
  await leftover?.close();
  listener?.close();
  await admin?.close();
  await api?.close();
});

describe("the operator token", () => {
  test("without it, or with a wrong one, every view is 401 with WWW-Authenticate; /metrics needs none", async () => {
    for (const [path, headers] of [
      ["/admin/queues", {}],
      ["/admin/queues/api/queues", {}],
      ["/admin/schedule", {}],
      ["/admin/queues", bearer("operator-token-for-tests-WRONG-6789")],
      ["/admin/queues", bearer(`${TOKEN}x`)],
      ["/admin/queues?token=not-the-token", {}],
      ["/admin/queues", { cookie: `${OPERATOR_COOKIE}=9999999999999.${"0".repeat(64)}` }],
      ["/admin/queues", { authorization: `Basic ${Buffer.from(`ops:${TOKEN}`).toString("base64")}` }],
    ] as Array<[string, Record<string, string>]>) {
      const res = await get(path, headers);
      assert.equal(res.status, 401, `${path} ${JSON.stringify(headers)}`);
      assert.equal(res.headers.get("www-authenticate"), 'Bearer realm="operator"');
      const body = await res.json();
      assert.equal(body.code, "unauthorized");
      assert.match(body.message, /OPERATOR_TOKEN/);
    }
    const metrics = await get("/metrics");
    assert.equal(metrics.status, 200);
    assert.match(await metrics.text(), /outreach_http_requests_total/);
  });

  test("with the bearer token, the board's page, its assets and its API are served; the API lists every queue of the catalog and each sender's", async () => {
    const page = await get("/admin/queues", bearer());
    assert.equal(page.status, 200);
    assert.match(page.headers.get("content-type") ?? "", /^text\/html/);
    assert.match(page.headers.get("content-security-policy") ?? "", /default-src 'self'/);
    const html = await page.text();
    assert.match(html, /<title>Outreach queues<\/title>/);
    assert.match(html, /<base href="\/admin\/queues\/"/);
    const script = /src="(static\/js\/main\.[^"]+\.js)"/.exec(html)?.[1];
    assert.ok(script, "the page loads its script from the board's static files");
    const asset = await get(`/admin/queues/${script}`, bearer());
    assert.equal(asset.status, 200);
    assert.equal((await get(`/admin/queues/${script}`)).status, 401, "the assets need the token too");

    const res = await get("/admin/queues/api/queues", bearer());
    assert.equal(res.status, 200);
    const { queues } = (await res.json()) as { queues: Array<{ name: string; readOnlyMode: boolean; counts: Record<string, number> }> };
    const names = queues.map((q) => q.name).sort();
    assert.deepEqual(names, ["campaign-dispatch", "replan-held-sends", "send-answer", "send-email", "send-email.sender-gone", "send-email.sender-live", "test-send"]);
    assert.ok(queues.every((q) => q.readOnlyMode), "read-only");
    assert.equal(queues.find((q) => q.name === "send-email.sender-gone")!.counts.waiting, 1, "the leftover queue's job is counted");
  });

  test("the board is read-only: pausing, emptying or retrying is refused (405) and changes nothing", async () => {
    const pause = await fetch(`${base}/admin/queues/api/queues/send-email/pause`, { method: "PUT", headers: bearer() });
    assert.equal(pause.status, 405);
    const empty = await fetch(`${base}/admin/queues/api/queues/send-email.sender-gone/empty`, { method: "PUT", headers: bearer() });
    assert.equal(empty.status, 405);
    assert.equal(await leftover.queue.isPaused(), false);
    assert.equal(await api.ctx.producer.exists(`${api.config.queuePrefix}:send-email.sender-gone:left-behind`), 1, "the job is still there");
  });

  test("a browser brings the token once in ?token=: it gets an HttpOnly, SameSite=Strict session cookie for /admin (not the token) and is sent on without it", async () => {
    const res = await get("/admin/queues?token=" + encodeURIComponent(TOKEN) + "&x=1");
    assert.equal(res.status, 200);
    const cookie = res.headers.get("set-cookie") ?? "";
    assert.match(cookie, new RegExp(`^${OPERATOR_COOKIE}=\\d{13}\\.[0-9a-f]{64}; Path=/admin; Max-Age=43200; HttpOnly; SameSite=Strict$`));
    assert.ok(!cookie.includes(TOKEN), "the cookie does not carry the token");
    assert.equal(res.headers.get("referrer-policy"), "no-referrer");
    assert.equal(res.headers.get("cache-control"), "no-store");
    assert.match(await res.text(), /<meta http-equiv="refresh" content="0;url=\/admin\/queues\?x=1">/);

    const session = cookie.split(";")[0]!;
    const page = await get("/admin/queues", { cookie: session });
    assert.equal(page.status, 200);
    assert.match(await page.text(), /Outreach queues/);
    assert.equal((await get("/admin/queues/api/queues", { cookie: session })).status, 200);
    assert.equal((await get("/admin/schedule", { cookie: session })).status, 200);

    // a cookie whose expiry was changed does not verify
    const [expiry, mac] = session.split("=")[1]!.split(".");
    const forged = `${OPERATOR_COOKIE}=${Number(expiry) + 1000}.${mac}`;
    assert.equal((await get("/admin/queues", { cookie: forged })).status, 401);
  });

  test("the views are on the metrics listener only: the public port answers 404 for them", async () => {
    for (const path of ["/admin/queues", `/admin/queues?token=${TOKEN}`, "/admin/queues/api/queues", "/admin/schedule"]) {
      const res = await fetch(`${api.baseUrl}${path}`, { headers: bearer() });
      assert.equal(res.status, 404, path);
      assert.equal((await res.json()).code, "not_found");
    }
  });

  test("/admin/schedule: 422 for a malformed account id, 404 for an unknown one", async () => {
    const malformed = await get("/admin/schedule?account=nope", bearer());
    assert.equal(malformed.status, 422);
    assert.equal((await malformed.json()).code, "validation_failed");
    const unknown = await get("/admin/schedule?account=6f1c2a7e-0000-4000-8000-00000000dead", bearer());
    assert.equal(unknown.status, 404);
    assert.equal((await unknown.json()).code, "not_found");
  });
});

test("OPERATOR_TOKEN unset: no views, the metrics listener answers /metrics and 404 for /admin", async () => {
  const off = await startTestApi();
  try {
    assert.equal(createAdminApp({ config: off.config, logger, db: off.ctx.db, redis: off.ctx.producer }), null);
    const server = await startMetricsServer(0, off.ctx.metrics, undefined, "127.0.0.1", undefined);
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      for (const path of ["/admin/queues", `/admin/queues?token=${TOKEN}`, "/admin/schedule"]) {
        const res = await fetch(`${url}${path}`, { headers: bearer() });
        assert.equal(res.status, 404, path);
      }
      assert.equal((await fetch(`${url}/metrics`)).status, 200);
    } finally {
      server.close();
    }
  } finally {
    await off.close();
  }
});
