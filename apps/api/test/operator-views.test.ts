import assert from "node:assert/strict";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import { createLogger, InboxLeases, Keyring, redisKeys, SenderRegistry, startMetricsServer, TypedQueue } from "@outreach/core";
import type { StepSendState } from "@outreach/db";
import { runOperatorCommand } from "@outreach/domain/src/operations/cli/operator-command.js";
import { createAdminApp, type AdminApp } from "../src/admin/admin-app.js";
import { OPERATOR_COOKIE } from "../src/admin/operator-auth.js";
import { captureLogs, sealedCredentialSecrets, waitFor } from "@outreach/testing";
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
      const body = (await res.json()) as { code: string; message: string };
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
    assert.doesNotMatch(html, /fonts\.googleapis\.com/, "no third-party web fonts");
    const script = /src="(static\/js\/main\.[^"]+\.js)"/.exec(html)?.[1];
    assert.ok(script, "the page loads its script from the board's static files");
    const asset = await get(`/admin/queues/${script}`, bearer());
    assert.equal(asset.status, 200);
    assert.equal((await get(`/admin/queues/${script}`)).status, 401, "the assets need the token too");

    const res = await get("/admin/queues/api/queues", bearer());
    assert.equal(res.status, 200);
    const { queues } = (await res.json()) as { queues: Array<{ name: string; readOnlyMode: boolean; counts: Record<string, number> }> };
    const names = queues.map((q) => q.name).sort();
    assert.deepEqual(names, ["campaign-dispatch", "categorize-reply", "replan-held-sends", "send-answer", "send-email", "send-email.sender-gone", "send-email.sender-live", "test-send"]);
    assert.ok(
      queues.every((q) => q.readOnlyMode),
      "read-only",
    );
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
    const logs = captureLogs(logger);
    const res = await get("/admin/queues?token=" + encodeURIComponent(TOKEN) + "&x=1");
    // each view is logged with its path, never the token
    await waitFor(() => logs.entries.some((e) => e.message === "operator view" && e.path === "/admin/queues" && e.status === 200), { what: "the access line" });
    logs.stop();
    assert.ok(!JSON.stringify(logs.entries).includes(TOKEN), "the token is not logged");
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
      assert.equal(((await res.json()) as { code: string }).code, "not_found");
    }
  });

  test("/admin/schedule: 422 for a malformed account id, 404 for an unknown one", async () => {
    const malformed = await get("/admin/schedule?account=nope", bearer());
    assert.equal(malformed.status, 422);
    assert.equal(((await malformed.json()) as { code: string }).code, "validation_failed");
    const unknown = await get("/admin/schedule?account=6f1c2a7e-0000-4000-8000-00000000dead", bearer());
    assert.equal(unknown.status, 404);
    assert.equal(((await unknown.json()) as { code: string }).code, "not_found");
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

describe("the schedule", () => {
  let seeded: Awaited<ReturnType<typeof seedSchedule>>;
  before(async () => {
    seeded = await seedSchedule();
  });

  /** An account with a campaign sending, a paused one, inboxes watched or not; a suspended account; an idle one. */
  async function seedSchedule() {
    const db = api.ctx.db;
    const plan = await db.plan.findUniqueOrThrow({ where: { slug: "pro" } });
    const now = Date.now();
    const account = (email: string, suspended = false) =>
      db.account.create({
        data: { email, planId: plan.id, currentPeriodEnd: new Date(now + 30 * 86_400_000), ...(suspended ? { suspendedAt: new Date(now - 60_000), suspendedReason: "abuse report 42" } : {}) },
      });
    const sending = await account("sending@schedule.test");
    const suspended = await account("suspended@schedule.test", true);
    const idle = await account("idle@schedule.test");
    const keys = Keyring.fromConfig(api.config);
    let n = 0;
    const campaign = async (accountId: string, status: "active" | "paused", pausedReason: string | null = null) => {
      const c = await db.campaign.create({ data: { accountId, name: `Campaign ${++n}`, status, pausedReason } });
      return c;
    };
    const inbox = (accountId: string, campaignId: string, imap: boolean) =>
      db.smtpCredential.create({
        data: {
          ...sealedCredentialSecrets(keys, "pw", imap ? "imap-pw" : undefined),
          accountId,
          campaignId,
          label: `inbox ${++n}`,
          fromEmail: `inbox${n}@schedule.test`,
          smtpHost: "smtp.schedule.test",
          smtpPort: 587,
          smtpUsername: `inbox${n}`,
          dailyLimit: 50,
          ...(imap ? { imapHost: "imap.schedule.test", imapPort: 993, imapUsername: `inbox${n}` } : {}),
        },
      });
    const sends = async (accountId: string, campaignId: string, rows: Array<[StepSendState, number]>) => {
      for (const [state, offsetSeconds] of rows) {
        const contact = await db.contact.create({ data: { accountId, email: `contact${++n}@schedule.test` } });
        const enrollment = await db.enrollment.create({ data: { accountId, campaignId, contactId: contact.id } });
        await db.stepSend.create({ data: { accountId, campaignId, enrollmentId: enrollment.id, stepPosition: 1, state, dueAt: new Date(now + offsetSeconds * 1000) } });
      }
    };
    const active = await campaign(sending.id, "active");
    await sends(sending.id, active.id, [
      ["scheduled", -300],
      ["scheduled", -60],
      ["scheduled", 3600],
      ["scheduled", 7200],
      ["scheduled", 86_400],
      ["queued", -30],
      ["sending", -20],
      ["sent", -900],
      ["cancelled", -900],
    ]);
    const paused = await campaign(sending.id, "paused", "manual");
    await sends(sending.id, paused.id, [
      ["scheduled", -600],
      ["scheduled", 600],
    ]);
    const watched = await inbox(sending.id, active.id, true);
    await inbox(sending.id, active.id, true);
    await inbox(sending.id, active.id, false);
    await inbox(sending.id, paused.id, true);
    const held = await campaign(suspended.id, "active");
    await sends(suspended.id, held.id, [
      ["scheduled", -120],
      ["queued", -10],
    ]);
    // an imap-poller replica holds the first inbox's lease
    await api.ctx.producer.set(redisKeys.inboxLease(api.config, watched.id), "poller-replica-1", "PX", 60_000);
    return { sending, suspended, idle, active, paused, held };
  }

  const leases = () => new InboxLeases(api.ctx.producer, (id) => redisKeys.inboxLease(api.config, id), "test");

  test("GET /admin/schedule and pnpm ops schedule --json show the same counts per account and campaign", async () => {
    const res = await get("/admin/schedule", bearer());
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("cache-control"), "no-store");
    const view = await res.json();
    const cli = await runOperatorCommand(api.ctx.db, ["schedule", "--json"], { leases: leases() });
    assert.equal(cli.code, 0, cli.stderr);
    const printed = JSON.parse(cli.stdout);
    const { sending, suspended, idle, active, paused, held } = seeded;

    for (const overview of [view, printed]) {
      assert.equal(overview.has_more, false);
      assert.equal(overview.inbox_leases_error, null);
      const ids = overview.accounts.map((a: any) => a.account_id);
      assert.deepEqual(ids, [sending.id, suspended.id].sort(), "the accounts with sends waiting, by id; not the idle one");
      assert.ok(!ids.includes(idle.id));

      const a = overview.accounts.find((x: any) => x.account_id === sending.id);
      assert.equal(a.email, "sending@schedule.test");
      assert.equal(a.suspended_at, null);
      assert.deepEqual([a.due, a.later, a.queued, a.sending, a.held], [2, 3, 1, 1, 2]);
      assert.ok(a.oldest_due_age_seconds >= 300 && a.oldest_due_age_seconds < 3600, String(a.oldest_due_age_seconds));
      assert.deepEqual(a.inboxes, { with_imap: 3, watched: 1, unwatched: 1, idle: 1 });
      const [first, second] = a.campaigns;
      assert.equal(first.campaign_id, active.id, "the campaign with the oldest due send first");
      assert.deepEqual([first.status, first.held_because, first.due, first.later, first.queued, first.sending, first.held], ["active", null, 2, 3, 1, 1, 0]);
      assert.equal(first.oldest_due_age_seconds, a.oldest_due_age_seconds);
      assert.equal(second.campaign_id, paused.id);
      assert.deepEqual(
        [second.status, second.paused_reason, second.held_because, second.due, second.later, second.held, second.oldest_due_age_seconds],
        ["paused", "manual", "campaign paused (manual)", 0, 0, 2, null],
      );

      const s = overview.accounts.find((x: any) => x.account_id === suspended.id);
      assert.equal(s.suspended_reason, "abuse report 42");
      assert.ok(s.suspended_at);
      assert.deepEqual([s.due, s.later, s.queued, s.sending, s.held, s.oldest_due_age_seconds], [0, 0, 1, 0, 1, null]);
      assert.deepEqual(
        s.campaigns.map((c: any) => [c.campaign_id, c.held_because]),
        [[held.id, "account suspended"]],
      );
    }
  });

  test("one account with --account (also one with nothing waiting), and the text table", async () => {
    const one = await get(`/admin/schedule?account=${seeded.idle.id}`, bearer());
    assert.equal(one.status, 200);
    const body = (await one.json()) as any;
    assert.deepEqual(
      body.accounts.map((a: any) => [a.account_id, a.due, a.held, a.campaigns.length]),
      [[seeded.idle.id, 0, 0, 0]],
    );
    assert.equal(((await get("/admin/schedule?limit=1", bearer()).then((r) => r.json())) as { has_more: boolean }).has_more, true);

    const text = await runOperatorCommand(api.ctx.db, ["schedule", "--account", seeded.sending.id], { leases: leases() });
    assert.equal(text.code, 0, text.stderr);
    const lines = text.stdout.trimEnd().split("\n");
    assert.match(lines[0]!, /^ACCOUNT \/ CAMPAIGN\s+NAME\s+STATE\s+DUE\s+LATER\s+QUEUED\s+SENDING\s+HELD\s+OLDEST DUE\s+INBOXES$/);
    assert.match(lines[1]!, new RegExp(`^${seeded.sending.id}\\s+sending@schedule.test\\s+active\\s+2\\s+3\\s+1\\s+1\\s+2\\s+\\d+m\\d\\ds\\s+1 watched, 1 unwatched, 1 idle$`));
    assert.match(lines[2]!, new RegExp(`^  ${seeded.active.id}\\s+Campaign \\d+\\s+active\\s+2\\s+3\\s+1\\s+1\\s+0\\s+\\d+m\\d\\ds$`));
    assert.match(lines[3]!, new RegExp(`^  ${seeded.paused.id}\\s+Campaign \\d+\\s+held: campaign paused \\(manual\\)\\s+0\\s+0\\s+0\\s+0\\s+2\\s+-$`));

    // without Redis to read the leases from, the counts still come, the inboxes as unknown
    const blind = await runOperatorCommand(api.ctx.db, ["schedule", "--account", seeded.sending.id, "--json"]);
    assert.equal(blind.code, 0);
    assert.equal(JSON.parse(blind.stdout).accounts[0].inboxes, null);
    assert.match(blind.stderr, /inboxes shown as unknown/);
  });

  test("pnpm ops schedule refuses an unknown or malformed account id", async () => {
    const unknown = await runOperatorCommand(api.ctx.db, ["schedule", "--account", "6f1c2a7e-0000-4000-8000-00000000dead"]);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /no account 6f1c2a7e-0000-4000-8000-00000000dead/);
    const malformed = await runOperatorCommand(api.ctx.db, ["schedule", "--account", "someone@example.com"]);
    assert.equal(malformed.code, 2);
    assert.match(malformed.stderr, /--account takes an account id/);
    assert.equal((await runOperatorCommand(api.ctx.db, ["schedule", "--limit", "0"])).code, 2);
  });
});
