// The process supervisor behind `npm start`: runs each app as a child process
// and restarts one that exits unexpectedly, with a backoff, so one app's crash
// is not the whole service's. stop() ends every app and restarts nothing more.
import { spawn } from "node:child_process";
import { log as defaultLog } from "./lib.mjs";

export const DEFAULT_BACKOFF = {
  /** the wait before the first restart; it doubles with each crash in a row */
  initialMs: 1_000,
  maxMs: 30_000,
  /** an app that ran this long before exiting starts again from initialMs */
  stableMs: 60_000,
};

function formatSeconds(ms) {
  return `${Number((ms / 1000).toFixed(3))} s`;
}

/**
 * Starts every app and keeps it running.
 *   apps: [{ name, command, args, env?, cwd? }]
 * Returns { pids(), isStopping(), stop(reason), stopped }: `stopped` resolves once stop() was
 * called and every app has exited.
 */
export function supervise(apps, { backoff = DEFAULT_BACKOFF, log = defaultLog, stdio = ["ignore", "inherit", "inherit"] } = {}) {
  const { initialMs, maxMs, stableMs } = { ...DEFAULT_BACKOFF, ...backoff };
  const running = new Map(); // name -> child
  const pendingRestarts = new Map(); // name -> timer
  const state = new Map(apps.map((app) => [app.name, { crashesInRow: 0, restarts: 0 }]));
  let stopping = false;
  let resolveStopped;
  const stopped = new Promise((resolve) => (resolveStopped = resolve));

  function settleIfDone() {
    if (stopping && running.size === 0 && pendingRestarts.size === 0) resolveStopped();
  }

  function start(app) {
    const startedAt = Date.now();
    const child = spawn(app.command, app.args, { cwd: app.cwd, env: app.env ?? process.env, stdio });
    running.set(app.name, child);
    log(`started ${app.name} (pid ${child.pid})`);
    let ended = false;
    const onEnd = (how) => {
      if (ended) return;
      ended = true;
      running.delete(app.name);
      if (stopping) {
        log(`${app.name} stopped (${how})`);
        settleIfDone();
        return;
      }
      const s = state.get(app.name);
      if (Date.now() - startedAt >= stableMs) s.crashesInRow = 0;
      const delay = Math.min(maxMs, initialMs * 2 ** s.crashesInRow);
      s.crashesInRow++;
      s.restarts++;
      log(`${app.name} exited unexpectedly (${how}); restarting in ${formatSeconds(delay)} (restart #${s.restarts})`);
      const timer = setTimeout(() => {
        pendingRestarts.delete(app.name);
        if (!stopping) start(app);
        else settleIfDone();
      }, delay);
      pendingRestarts.set(app.name, timer);
    };
    child.on("exit", (code, signal) => onEnd(signal ?? `code ${code}`));
    child.on("error", (err) => onEnd(`could not run: ${err.message}`));
  }

  for (const app of apps) start(app);

  return {
    pids: () => Object.fromEntries([...running].map(([name, child]) => [name, child.pid])),
    isStopping: () => stopping,
    stopped,
    stop(reason) {
      if (stopping) return stopped;
      stopping = true;
      log(`stopping all apps (${reason})`);
      for (const timer of pendingRestarts.values()) clearTimeout(timer);
      pendingRestarts.clear();
      for (const child of running.values()) if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      settleIfDone();
      return stopped;
    },
  };
}

/**
 * supervise(), wired to this process: SIGINT/SIGTERM (and our parent going
 * away) stop every app, then the process exits 0.
 */
export function superviseUntilSignalled(apps, options) {
  const supervisor = supervise(apps, options);
  const stop = (reason) =>
    supervisor.stop(reason).then(() => {
      (options?.log ?? defaultLog)("all apps stopped");
      process.exit(0);
    });
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
  // `kill <npm pid>` reaches npm's shell but not always this process: when our
  // parent goes away we are re-parented, and stop as if we had been signalled.
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) stop("parent exited");
  }, 500).unref();
  return supervisor;
}
