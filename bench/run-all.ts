// Runs the benchmarks of this folder one after the other, each as its own process
// with its defaults (each writes bench/results/<name>.json), then regenerates
// bench/README.md (bench/report.ts).
//   npm run bench                              every benchmark
//   npm run bench -- sending many-accounts     these only, in this order
//   npm run bench -- sending:500:5:1           with arguments (colon-separated)
//   npm run bench -- --list                    the benchmarks and their order
// A benchmark that fails is reported and the others still run; the exit code is 1 then.
import { spawn } from "node:child_process";
import { readdirSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { REPO_ROOT } from "@outreach/testing";
import { renderReport } from "./report.js";

/** not benchmarks: the API's baseline server, this runner, the report, the performance table (a runner of its own) */
const NOT_BENCHMARKS = new Set(["bare-server", "run-all", "report", "performance-table"]);
/** the issue's benchmarks first; any other file of bench/ follows in name order */
const ORDER = ["sending", "many-accounts", "api", "dispatch", "dispatch-memory", "fairness", "webhooks", "rendering", "contact-import", "import-memory", "replies", "campaign-analytics"];

const available = readdirSync(join(REPO_ROOT, "bench"))
  .filter((f) => f.endsWith(".ts"))
  .map((f) => f.slice(0, -3))
  .filter((name) => !NOT_BENCHMARKS.has(name));
const all = [...ORDER.filter((n) => available.includes(n)), ...available.filter((n) => !ORDER.includes(n)).sort()];

const requested = process.argv.slice(2).filter((a) => a !== "--");
if (requested.includes("--list")) {
  console.log(all.join("\n"));
  process.exit(0);
}
const plan = (requested.length ? requested : all).map((spec) => {
  const [name = "", ...args] = spec.split(":");
  if (!available.includes(name)) throw new Error(`no benchmark ${name} (bench/${name}.ts); --list lists them`);
  return { name, args };
});

function runBenchmark(name: string, args: string[]): Promise<number | null> {
  const child = spawn(process.execPath, ["--import", "tsx", join(REPO_ROOT, "bench", `${name}.ts`), ...args], { cwd: REPO_ROOT, stdio: "inherit" });
  return new Promise((resolve) => child.once("exit", (code) => resolve(code)));
}

const outcomes: Array<{ name: string; code: number | null; seconds: number }> = [];
for (const { name, args } of plan) {
  const started = performance.now();
  console.error(
    `\n=== ${name} ${args.join(" ")} (load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")})`,
  );
  const code = await runBenchmark(name, args);
  outcomes.push({ name, code, seconds: Math.round((performance.now() - started) / 1000) });
}
writeFileSync(join(REPO_ROOT, "bench/README.md"), renderReport());
console.error("\n=== done; bench/README.md regenerated");
for (const o of outcomes) console.error(`  ${o.name.padEnd(16)} ${o.code === 0 ? "ok    " : `FAILED (exit ${o.code})`} ${o.seconds} s`);
process.exit(outcomes.every((o) => o.code === 0) ? 0 : 1);
