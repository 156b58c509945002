// The supervisor behind `npm start` (scripts/supervise.mjs): an app that exits
// unexpectedly is restarted with a backoff while the others keep running, and a
// signal still stops everything with exit code 0.
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { createTestDatabase, findFreePort, uniqueQueuePrefix, waitFor, type TestDatabase } from "@outreach/testing";
import { supervise } from "../scripts/supervise.mjs";

const ROOT = join(import.meta.dirname, "..");
const APPS = ["api", "dispatcher", "sender", "imap-poller", "webhook-deliverer"] as const;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

test("a crashing app is restarted with a doubling, capped backoff, reset once it ran stably; stop() restarts nothing", async () => {
  const lines: string[] = [];
  const node = (code: string) => ({ command: process.execPath, args: ["-e", code] });
  const supervisor = supervise(
    [
      { name: "crasher", ...node("process.exit(3)") },
      { name: "steady", ...node("setInterval(() => {}, 1000)") },
      // stableMs is far above a node process's start-up on a loaded machine, so the
      // crasher never counts as stable however slowly it starts
      { name: "late-crasher", ...node("setTimeout(() => process.exit(1), 2500)") },
    ],
    { backoff: { initialMs: 50, maxMs: 200, stableMs: 2000 }, log: (line) => lines.push(line), stdio: "ignore" },
  );
  let steadyPid = 0;
  try {
    steadyPid = await waitFor(() => supervisor.pids().steady);
    const restartsOf = (name: string) => lines.filter((l) => l.startsWith(`${name} exited unexpectedly`));
    await waitFor(() => restartsOf("crasher").length >= 5 && restartsOf("late-crasher").length >= 2, { timeoutMs: 30_000, what: "restarts" });

    assert.deepEqual(restartsOf("crasher").slice(0, 5), [
      "crasher exited unexpectedly (code 3); restarting in 0.05 s (restart #1)",
      "crasher exited unexpectedly (code 3); restarting in 0.1 s (restart #2)",
      "crasher exited unexpectedly (code 3); restarting in 0.2 s (restart #3)",
      "crasher exited unexpectedly (code 3); restarting in 0.2 s (restart #4)",
      "crasher exited unexpectedly (code 3); restarting in 0.2 s (restart #5)",
    ]);
    // it ran longer than stableMs each time: every restart waits the initial delay again
    assert.deepEqual(restartsOf("late-crasher").slice(0, 2), [
      "late-crasher exited unexpectedly (code 1); restarting in 0.05 s (restart #1)",
      "late-crasher exited unexpectedly (code 1); restarting in 0.05 s (restart #2)",
    ]);
    assert.equal(supervisor.pids().steady, steadyPid, "the app that did not crash was left alone");
    assert.ok(!lines.some((l) => l.startsWith("steady exited")));
  } catch (error) {
    // a failed assertion must not leave the supervisor restarting its apps until the file times out
    await supervisor.stop("test");
    throw error;
  }
  await supervisor.stop("test");
  const afterStop = lines.length;
  assert.ok(!alive(steadyPid), "stop() ended the running app");
  assert.deepEqual(supervisor.pids(), {});
  await new Promise((resolve) => setTimeout(resolve, 400)); // longer than any pending backoff: nothing may start again
  assert.deepEqual(supervisor.pids(), {});
  assert.ok(!lines.slice(afterStop).some((l) => l.startsWith("started")), "no restart after stop()");
});

let database: TestDatabase;
let supervisorProcess: ChildProcess | undefined;
before(async () => {
  database = await createTestDatabase();
});
after(async () => {
  if (supervisorProcess && supervisorProcess.exitCode === null) supervisorProcess.kill("SIGKILL");
  await database?.drop();
});

test("npm start's supervisor: the killed imap-poller is restarted and answers again, the other apps keep running, SIGTERM still exits 0", async () => {
  const ports: Record<string, number> = {};
  for (const app of APPS) ports[app] = await findFreePort();
  ports["api-metrics"] = await findFreePort();
  let output = "";
  const child = spawn(process.execPath, [join(ROOT, "test/fixtures/supervise-apps.mjs")], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: "test", LOG_LEVEL: "warn", DATABASE_URL: database.url, QUEUE_PREFIX: uniqueQueuePrefix(), SUPERVISED_PORTS: JSON.stringify(ports) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  supervisorProcess = child;
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | string>((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal ?? -1)));

  const pidsOf = (app: string) => [...output.matchAll(new RegExp(`\\[outreach\\] started ${app} \\(pid (\\d+)\\)`, "g"))].map((m) => Number(m[1]));
  const healthy = async (app: string) => {
    try {
      return (await fetch(`http://127.0.0.1:${ports[app]}/healthz`, { signal: AbortSignal.timeout(2_000) })).status === 200;
    } catch {
      return false;
    }
  };
  try {
    for (const app of APPS) await waitFor(() => healthy(app), { timeoutMs: 60_000, what: `${app} /healthz`, intervalMs: 200 });
    const before = Object.fromEntries(APPS.map((app) => [app, pidsOf(app)]));
    for (const app of APPS) assert.equal(before[app]!.length, 1, `${app} started once`);

    const victim = before["imap-poller"]![0]!;
    process.kill(victim, "SIGKILL");
    await waitFor(() => pidsOf("imap-poller").length === 2, { timeoutMs: 15_000, what: "imap-poller restarted" });
    assert.match(output, /\[outreach\] imap-poller exited unexpectedly \(SIGKILL\); restarting in 1 s \(restart #1\)/);
    const restarted = pidsOf("imap-poller")[1]!;
    assert.notEqual(restarted, victim);
    assert.ok(!alive(victim));
    await waitFor(() => healthy("imap-poller"), { timeoutMs: 60_000, what: "the restarted imap-poller's /healthz", intervalMs: 200 });

    for (const app of APPS.filter((a) => a !== "imap-poller")) {
      assert.deepEqual(pidsOf(app), before[app], `${app} was not restarted`);
      assert.ok(alive(before[app]![0]!), `${app} still runs`);
      assert.ok(await healthy(app), `${app} still answers`);
    }
    assert.doesNotMatch(output, /stopping the others/);

    child.kill("SIGTERM");
    assert.equal(await exited, 0, output);
    for (const app of APPS) for (const pid of pidsOf(app)) assert.ok(!alive(pid), `${app} (pid ${pid}) stopped with the supervisor`);
    assert.match(output, /all apps stopped/);
  } catch (err) {
    throw new Error(`${(err as Error).message}\n--- supervisor output ---\n${output}`);
  }
});
