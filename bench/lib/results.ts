// Reporting: the code and machine a result was measured on, result files, and
// progress lines.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { join } from "node:path";
import { round } from "./numbers.js";
import { REPO_ROOT } from "./settings.js";

/** The commit measured, and the engine files that differ from it (uncommitted changes). */
export function codeVersion() {
  const git = (...args: string[]) => {
    try {
      return execFileSync("git", args, { cwd: REPO_ROOT, encoding: "utf8" }).trim();
    } catch {
      return "";
    }
  };
  return { commit: git("rev-parse", "--short", "HEAD"), uncommitted_engine_files: git("status", "--porcelain", "--", "apps", "packages", "prisma").split("\n").filter(Boolean) };
}

export function machineInfo() {
  return {
    code: codeVersion(),
    cpus: cpus().length,
    cpu_model: cpus()[0]?.model,
    memory_gb: Math.round(totalmem() / 1024 ** 3),
    node: process.version,
    loadavg_at_start: loadavg().map((l) => round(l, 2)),
  };
}

/** Writes bench/results/<name>.json (BENCH_RESULT_NAME renames it, e.g. for a profiling run) and prints it. */
export function writeResult(name: string, report: unknown): void {
  name = process.env.BENCH_RESULT_NAME ?? name;
  mkdirSync(join(REPO_ROOT, "bench/results"), { recursive: true });
  const text = JSON.stringify(report, null, 2) + "\n";
  writeFileSync(join(REPO_ROOT, `bench/results/${name}.json`), text);
  console.log(text);
}

export function log(message: string): void {
  console.error(`[${new Date().toISOString().slice(11, 23)}] ${message}`);
}
