import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createTestDatabase, startAppProcess, startTcpProxy, uniqueQueuePrefix, waitFor, type AppProcess, type TcpProxy, type TestDatabase } from "@outreach/testing";

// Redis is shared with other test files, so the outage is made with a proxy in
// front of it that only these apps use: cutting it drops their connections.
let database: TestDatabase;
let proxy: TcpProxy;
let apps: AppProcess[] = [];

before(async () => {
  database = await createTestDatabase();
  const redis = new URL(process.env.REDIS_URL ?? "redis://127.0.0.1:6379");
  proxy = await startTcpProxy(redis.hostname, Number(redis.port || 6379));
});
after(async () => {
  await Promise.all(apps.map((app) => app.stop("SIGKILL")));
  await proxy?.close();
  await database?.drop();
});

async function readiness(app: AppProcess): Promise<number> {
  return (await fetch(`${app.baseUrl}/readyz`, { signal: AbortSignal.timeout(5_000) })).status;
}

test("losing Redis makes /readyz answer 503, and the apps recover without a restart when it returns", async () => {
  const env = { DATABASE_URL: database.url, QUEUE_PREFIX: uniqueQueuePrefix(), REDIS_URL: proxy.url("redis") };
  apps = await Promise.all([startAppProcess("api", { env }), startAppProcess("dispatcher", { env })]);
  for (const app of apps) assert.equal(await readiness(app), 200);

  proxy.cut();
  for (const app of apps) await waitFor(async () => (await readiness(app)) === 503, { timeoutMs: 15_000, what: `${app.app} to report 503` });
  const health = await fetch(`${apps[0]!.baseUrl}/healthz`);
  assert.equal(health.status, 200, "the process itself stays alive");

  proxy.resume();
  for (const app of apps) await waitFor(async () => (await readiness(app)) === 200, { timeoutMs: 20_000, what: `${app.app} to recover` });

  const codes = await Promise.all(apps.map((app) => app.stop("SIGTERM")));
  assert.deepEqual(codes, [0, 0], apps.map((app) => `--- ${app.app}\n${app.output()}`).join("\n"));
});
