import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createTestDatabase, startAppProcess, uniqueQueuePrefix, type AppDir, type AppProcess, type TestDatabase } from "@outreach/testing";

const APPS: AppDir[] = ["api", "dispatcher", "sender", "imap-poller", "webhook-deliverer"];
let database: TestDatabase;
let processes: AppProcess[] = [];

before(async () => {
  database = await createTestDatabase();
});
after(async () => {
  await Promise.all(processes.map((p) => p.stop("SIGKILL")));
  await database?.drop();
});

test("all five apps start as processes, report ready, and exit 0 on SIGTERM", async () => {
  const env = { DATABASE_URL: database.url, QUEUE_PREFIX: uniqueQueuePrefix() };
  processes = await Promise.all(APPS.map((app) => startAppProcess(app, { env })));

  for (const app of processes) {
    const health = await fetch(`${app.baseUrl}/healthz`);
    assert.equal(health.status, 200, `${app.app} /healthz`);
    const ready = await fetch(`${app.baseUrl}/readyz`);
    assert.equal(ready.status, 200, `${app.app} /readyz`);
    const body = (await ready.json()) as { checks: Record<string, string> };
    assert.equal(body.checks.postgres, "ok", app.app);
    assert.equal(body.checks.redis, "ok", app.app);
  }

  const codes = await Promise.all(processes.map((app) => app.stop("SIGTERM")));
  assert.deepEqual(Object.fromEntries(processes.map((app, i) => [app.app, codes[i]])), Object.fromEntries(APPS.map((app) => [app, 0])));
});

test("an app given a bad variable exits 1 with a message naming it", async () => {
  const app = await startAppProcess("sender", { env: { DATABASE_URL: database.url, QUEUE_PREFIX: "has space" }, waitReady: false });
  assert.equal(await app.exited, 1);
  assert.match(app.output(), /QUEUE_PREFIX/);
});
