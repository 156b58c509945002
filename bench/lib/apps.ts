// Starting and stopping the engine's processes (dispatcher, senders) for a
// benchmark, and running a benchmark part in a child process.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { createTestDatabase, LOOPBACK_MAIL_ENV, REPO_ROOT, startAppProcess, uniqueQueuePrefix, type AppProcess, type TestDatabase } from "@outreach/testing";
import { dispatchClient, dropQueuePrefix, type Dispatcher } from "./queues.js";
import { log } from "./results.js";
import { ENCRYPTION_KEY, PUBLIC_BASE_URL, REDIS_URL } from "./settings.js";

export function appEnv(databaseUrl: string, queuePrefix: string): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    REDIS_URL,
    QUEUE_PREFIX: queuePrefix,
    LOG_LEVEL: "warn",
    PUBLIC_BASE_URL,
    ENCRYPTION_KEY: ENCRYPTION_KEY.toString("base64"),
    ...LOOPBACK_MAIL_ENV,
  };
}

/** Starts an app; `<APP>_NODE_ARGS` (e.g. SENDER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof") adds node flags. */
export async function startApp(app: "dispatcher" | "sender", env: Record<string, string>): Promise<AppProcess> {
  const extra = process.env[`${app.toUpperCase()}_NODE_ARGS`]?.split(" ").filter(Boolean);
  return startAppProcess(app, { env, nodeArgs: extra, timeoutMs: 60_000 });
}

/** SIGTERM, then SIGKILL (this child only, by pid) if it has not exited within `graceMs`. */
export async function stopApp(app: AppProcess, graceMs = 20_000): Promise<number | string> {
  const timer = setTimeout(() => {
    if (app.child.exitCode === null && app.child.signalCode === null && app.child.pid) process.kill(app.child.pid, "SIGKILL");
  }, graceMs);
  try {
    return await app.stop("SIGTERM");
  } finally {
    clearTimeout(timer);
  }
}

/** What a dispatch run stands on: a scratch database, a queue prefix and a client of that prefix's dispatch queue. */
export interface DispatchStand {
  database: TestDatabase;
  prefix: string;
  client: Dispatcher;
}

export async function openDispatchStand(): Promise<DispatchStand> {
  const database = await createTestDatabase();
  const prefix = uniqueQueuePrefix();
  const client = await dispatchClient(prefix);
  return { database, prefix, client };
}

/** Stops the run's dispatcher (logging the first lines it printed), then closes the client and drops the database and the queue prefix. */
export async function closeDispatchStand({ database, prefix, client }: DispatchStand, dispatcher: AppProcess | undefined): Promise<void> {
  if (dispatcher) {
    await stopApp(dispatcher);
    const lines = dispatcher.output().trim().split("\n").filter(Boolean);
    if (lines.length) log(`dispatcher logged ${lines.length} line(s), e.g. ${lines.slice(0, 3).join(" | ")}`);
  }
  await client.close();
  await database.drop();
  await dropQueuePrefix(prefix);
}

/**
 * A dispatcher and `senders` sender processes on one database and queue
 * prefix: their processes by name (dispatcher, sender_1, ...) for the CPU and
 * cost probes, a stop that may be called more than once (mid-run, and again
 * in a finally), and what they logged.
 */
export class EngineApps {
  private readonly apps: AppProcess[] = [];
  private stopped = false;

  async start(databaseUrl: string, queuePrefix: string, senders: number): Promise<Record<string, AppProcess | undefined>> {
    const env = appEnv(databaseUrl, queuePrefix);
    const [dispatcher, ...senderApps] = await Promise.all([startApp("dispatcher", env), ...Array.from({ length: senders }, () => startApp("sender", env))]);
    this.apps.push(dispatcher!, ...senderApps);
    return { dispatcher, ...Object.fromEntries(senderApps.map((s, i) => [`sender_${i + 1}`, s])) };
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    await Promise.all(this.apps.map((app) => stopApp(app)));
  }

  /** Logs a few lines of each app that wrote anything (apps run with LOG_LEVEL error). */
  logOutput(): void {
    for (const app of this.apps) {
      const output = app.output().trim().split("\n").filter(Boolean);
      if (output.length) log(`${app.app} ${app.child.pid} logged ${output.length} line(s), e.g. ${output.slice(0, 3).join(" | ")}`);
    }
  }
}

/** Runs a TypeScript file of bench/lib in a child node process and returns the JSON it prints last. */
export async function runChild<T>(file: string, args: string[], nodeArgs: string[] = []): Promise<T> {
  const child = spawn(process.execPath, [...nodeArgs, "--import", "tsx", join(REPO_ROOT, "bench/lib", file), ...args], { cwd: REPO_ROOT, stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  child.stdout.on("data", (chunk) => (out += chunk));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  if (code !== 0) throw new Error(`${file} exited with ${code}: ${out}`);
  return JSON.parse(out.trim().split("\n").pop()!) as T;
}

/** The api app as a benchmark runs it: production mode, a fixed key, no request limit, errors only in its log. */
export async function startBenchApi(databaseUrl: string, options: { env?: Record<string, string>; nodeArgs?: string[]; timeoutMs?: number } = {}): Promise<AppProcess> {
  return startAppProcess("api", {
    nodeArgs: options.nodeArgs,
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    env: {
      DATABASE_URL: databaseUrl,
      QUEUE_PREFIX: uniqueQueuePrefix(),
      RATE_LIMIT_PER_MINUTE: "100000000",
      LOG_LEVEL: "error",
      NODE_ENV: "production",
      ENCRYPTION_KEY: Buffer.alloc(32, 3).toString("base64"),
      ...options.env,
    },
  });
}
