import { spawn, type ChildProcess } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { findFreePort } from "./free-port.js";

export const REPO_ROOT = resolve(join(dirname(fileURLToPath(import.meta.url)), "../../.."));

export type AppDir = "api" | "dispatcher" | "sender" | "imap-poller" | "webhook-deliverer";

/** Polls fn until it returns a truthy value or the deadline passes. */
export async function waitFor<T>(fn: () => Promise<T> | T, { timeoutMs = 10_000, intervalMs = 50, what = "condition" } = {}): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await fn();
      if (value) return value as NonNullable<T>;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${lastError ? `: ${(lastError as Error).message}` : ""}`);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

export interface AppProcess {
  app: AppDir;
  port: number;
  baseUrl: string;
  child: ChildProcess;
  output(): string;
  /** Resolves with the exit code (or the signal name) once the process has exited. */
  exited: Promise<number | string>;
  /** Signals the process and waits for it to exit; after `timeoutMs` it is killed and "timeout" returned. */
  stop(signal?: NodeJS.Signals, timeoutMs?: number): Promise<number | string>;
}

export interface StartAppOptions {
  env: Record<string, string>;
  /** Extra node flags, e.g. ["--cpu-prof"]. */
  nodeArgs?: string[];
  /** Wait for /readyz to answer 200 (default true). */
  waitReady?: boolean;
  timeoutMs?: number;
}

/** Starts one app as a child process from its TypeScript source (node + tsx) and waits until it is ready. */
export async function startAppProcess(app: AppDir, options: StartAppOptions): Promise<AppProcess> {
  const port = await findFreePort();
  const portVariable = app === "api" ? "PORT" : "HEALTH_PORT";
  let output = "";
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), "--import", "tsx", join(REPO_ROOT, "apps", app, "src", "main.ts")], {
    cwd: REPO_ROOT,
    // an api also listens for metrics: on a port of its own, so api processes of parallel tests never collide
    env: { ...process.env, NODE_ENV: "test", LOG_LEVEL: "warn", ...(app === "api" ? { METRICS_PORT: String(await findFreePort()) } : {}), ...options.env, [portVariable]: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | string>((resolveExit) => child.once("exit", (code, signal) => resolveExit(code ?? signal ?? -1)));
  const baseUrl = `http://127.0.0.1:${port}`;
  const handle: AppProcess = {
    app,
    port,
    baseUrl,
    child,
    output: () => output,
    exited,
    async stop(signal = "SIGTERM", timeoutMs = 30_000) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<string>((resolve) => {
        timer = setTimeout(() => {
          child.kill("SIGKILL");
          resolve("timeout");
        }, timeoutMs);
      });
      const result = await Promise.race([exited, timedOut]);
      clearTimeout(timer);
      return result;
    },
  };
  if (options.waitReady !== false) {
    let exitedEarly = false;
    void exited.then(() => (exitedEarly = true));
    await waitFor(
      async () => {
        if (exitedEarly) throw new Error(`${app} exited during start:\n${output}`);
        const res = await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(5_000) });
        return res.status === 200;
      },
      { timeoutMs: options.timeoutMs ?? 30_000, what: `${app} /readyz`, intervalMs: 100 },
    ).catch(async (err) => {
      await handle.stop("SIGKILL");
      throw new Error(`${(err as Error).message}\n--- ${app} output ---\n${output}`);
    });
  }
  return handle;
}
