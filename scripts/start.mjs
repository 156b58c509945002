#!/usr/bin/env node
// npm start: bootstrap, build, migrate, seed, then run all five apps in the foreground.
// An app that exits unexpectedly is restarted with a backoff (scripts/supervise.mjs);
// Ctrl-C / SIGTERM stops every app (each finishes what it holds) and exits 0.
import { join } from "node:path";
import { bootstrap, fail, loadDotEnv, log, ROOT, run } from "./lib.mjs";
import { superviseUntilSignalled } from "./supervise.mjs";

const APPS = ["api", "dispatcher", "sender", "imap-poller", "webhook-deliverer"];

const pnpm = bootstrap();
// .env (see .env.example), under whatever the environment already sets
const fromDotEnv = loadDotEnv();
if (fromDotEnv.length) log(`read ${fromDotEnv.length} setting(s) from .env: ${fromDotEnv.join(", ")}`);
log("building the apps");
run(pnpm[0], [...pnpm.slice(1), "exec", "turbo", "run", "build", "--output-logs=errors-only", "--log-prefix=none"]);
log("creating the database if needed and applying migrations");
run(process.execPath, ["--import", "tsx", join(ROOT, "packages/db/src/cli/migrate.ts")]);
run(process.execPath, ["--import", "tsx", join(ROOT, "packages/db/src/cli/seed.ts")]);

const port = process.env.PORT || "3000";
const supervisor = superviseUntilSignalled(
  APPS.map((app) => ({ name: app, command: process.execPath, args: ["--enable-source-maps", join(ROOT, "apps", app, "dist/main.js")], cwd: ROOT, env: process.env })),
);

// Tell the user where the API is once it answers.
const deadline = Date.now() + 60_000;
(async function announce() {
  while (!supervisor.isStopping() && Date.now() < deadline) {
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
  if (!supervisor.isStopping()) fail(`the API did not become ready on port ${port} within 60 s`);
})();
