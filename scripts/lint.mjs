#!/usr/bin/env node
// npm run lint (npm test runs it after typechecking): ESLint over the
// repository (eslint.config.mjs, syntax-only rules), then the raw-SQL
// allow-list check (packages/db/raw-sql-allowlist.txt).
//   node scripts/lint.mjs                     fails on any lint error or stale allow-list entry
//   node scripts/lint.mjs --update-allowlist  first drops the entries that no longer use raw SQL
//   LINT_CACHE=0 skips ESLint's cache; LINT_CONCURRENCY=2 lints in two threads
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ESLint } from "eslint";
import { checkAllowlist, lintRepository } from "./lint/check.mjs";
import { ALLOWLIST_FILE, formatAllowlist, RAW_SQL_RULE, readAllowlist, ROOT } from "./lint/config.mjs";

const update = process.argv.includes("--update-allowlist");
const started = performance.now();
const concurrency = process.env.LINT_CONCURRENCY ? (process.env.LINT_CONCURRENCY === "off" ? "off" : Number(process.env.LINT_CONCURRENCY)) : "off";
const { eslint, results } = await lintRepository({ cache: process.env.LINT_CACHE !== "0", concurrency });
const allowlist = readAllowlist();
const { keep, ...found } = checkAllowlist(results, allowlist);
let problems = found.problems;
if (update && keep.length !== allowlist.length) {
  writeFileSync(join(ROOT, ALLOWLIST_FILE), formatAllowlist(keep));
  console.log(`[lint] ${ALLOWLIST_FILE}: ${allowlist.length - keep.length} entries removed, ${keep.length} left`);
  problems = [];
}

const errors = ESLint.getErrorResults(results);
const errorCount = errors.reduce((sum, result) => sum + result.errorCount, 0);
if (errorCount) {
  const formatter = await eslint.loadFormatter("stylish");
  console.error(await formatter.format(errors));
  if (errors.some((result) => result.messages.some((m) => m.ruleId === RAW_SQL_RULE))) {
    console.error(
      `${RAW_SQL_RULE}: only packages/db may touch SQL. Move the query into packages/db and call it from there. ` +
        `(A file that was on ${ALLOWLIST_FILE} and was only renamed takes its new path there.)\n`,
    );
  }
}
for (const problem of problems) console.error(`[lint] ${problem}`);
if (problems.length) console.error(`[lint] or run: node scripts/lint.mjs --update-allowlist\n`);

const seconds = ((performance.now() - started) / 1000).toFixed(1);
const left = keep.length;
console.log(`[lint] ${results.length} files in ${seconds}s: ${errorCount} errors; raw SQL outside packages/db left in ${left} allow-listed files (${ALLOWLIST_FILE})`);
process.exit(errorCount || problems.length ? 1 : 0);
