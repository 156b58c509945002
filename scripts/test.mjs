#!/usr/bin/env node
// npm test: bootstrap, typecheck, lint, check formatting, prepare the template database, then run every
// test file with node's test runner (files in parallel, each with its own
// database and QUEUE_PREFIX).
import { spawn } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { bootstrap, log, ROOT, run } from "./lib.mjs";

const pnpm = bootstrap();
log("typechecking");
run(pnpm[0], [...pnpm.slice(1), "exec", "turbo", "run", "typecheck", "--output-logs=errors-only", "--log-prefix=none"]);
run(pnpm[0], [...pnpm.slice(1), "exec", "tsc", "-p", "tsconfig.json", "--noEmit"]);
log("linting");
run(process.execPath, [join(ROOT, "scripts/lint.mjs")]);
log("checking formatting (npm run format fixes it)");
run(pnpm[0], [...pnpm.slice(1), "run", "--silent", "format:check"]);
log("preparing the test database template");
run(process.execPath, ["--import", "tsx", join(ROOT, "packages/testing/src/cli/prepare.ts")]);

function findTests(dir, found = []) {
  for (const entry of readdirSync(dir)) {
    if (entry === "node_modules" || entry === "dist" || entry.startsWith(".")) continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) findTests(path, found);
    else if (entry.endsWith(".test.ts") && path.split("/").includes("test")) found.push(relative(ROOT, path));
  }
  return found;
}

const only = process.argv.slice(2);
const files = only.length ? only : ["apps", "packages", "test"].flatMap((dir) => findTests(join(ROOT, dir))).sort();
log(`running ${files.length} test files`);
const child = spawn(process.execPath, ["--import", "tsx", "--test", `--test-concurrency=${process.env.TEST_CONCURRENCY ?? 3}`, "--test-timeout=180000", ...files], {
  cwd: ROOT,
  stdio: "inherit",
  env: { ...process.env, NODE_ENV: "test" },
});
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
