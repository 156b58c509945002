#!/usr/bin/env node
// npm start: bootstrap, build, migrate, seed, then run all five apps in the foreground.
// Ctrl-C / SIGTERM stops every app (each finishes what it holds) and exits 0.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { bootstrap, fail, log, ROOT, run } from "./lib.mjs";

const APPS = ["api", "dispatcher", "sender", "imap-poller", "webhook-deliverer"];

const pnpm = bootstrap();
log("building the apps");
run(pnpm[0], [...pnpm.slice(1), "exec", "turbo", "run", "build", "--output-logs=errors-only", "--log-prefix=none"]);
log("creating the database if needed and applying migrations");
run(process.execPath, ["--import", "tsx", join(ROOT, "packages/db/src/cli/migrate.ts")]);
run(process.execPath, ["--import", "tsx", join(ROOT, "packages/db/src/cli/seed.ts")]);

const port = process.env.PORT || "3000";
const children = new Map();
let stopping = false;

function stopAll(signal) {
  if (stopping) return;
  stopping = true;
  log(`stopping all apps (${signal})`);
  for (const child of children.values()) if (child.exitCode === null) child.kill("SIGTERM");
}

for (const app of APPS) {
  const child = spawn(process.execPath, ["--enable-source-maps", join(ROOT, "apps", app, "dist/main.js")], {
    cwd: ROOT,
    stdio: ["ignore", "inherit", "inherit"],
    env: process.env,
  });
  children.set(app, child);
  child.on("exit", (code, signal) => {
    children.delete(app);
    if (!stopping) {
      log(`${app} exited unexpectedly (${code ?? signal}); stopping the others`);
      process.exitCode = 1;
      stopAll("app exit");
    }
    if (children.size === 0) {
      log("all apps stopped");
      process.exit(process.exitCode ?? 0);
    }
  });
}

process.on("SIGINT", () => stopAll("SIGINT"));
process.on("SIGTERM", () => stopAll("SIGTERM"));
// `kill <npm pid>` reaches npm's shell but not always this process: when our
// parent goes away we are re-parented, and stop as if we had been signalled.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) stopAll("parent exited");
}, 500).unref();

// Tell the user where the API is once it answers.
const deadline = Date.now() + 60_000;
(async function announce() {
  while (!stopping && Date.now() < deadline) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/readyz`);
      if (res.ok) {
        log(`API ready at http://localhost:${port}  (Ctrl-C stops everything)`);
        return;
      }
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  if (!stopping) fail(`the API did not become ready on port ${port} within 60 s`);
})();
