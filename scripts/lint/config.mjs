// The ESLint configuration (eslint.config.mjs builds it from the committed
// allow-list) and the allow-list's file. Syntax-only rules: no type
// information, so the whole repository lints in seconds; tsc covers types,
// unused variables and undefined names.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import tseslint from "typescript-eslint";
import { outreachPlugin } from "./no-raw-sql.mjs";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const ALLOWLIST_FILE = "packages/db/raw-sql-allowlist.txt";
export const RAW_SQL_RULE = "outreach/no-raw-sql";

const SOURCES = ["**/*.{js,mjs,cjs,ts,mts,cts,tsx}"];
/**
 * Where raw SQL is allowed: packages/db owns it. Tests and benchmarks seed and
 * inspect tables directly (they check what the code wrote, and build data sets
 * faster than the code could); scripts/ is repository tooling that administers
 * databases (migrations, the demo's database), not code the apps run. None of
 * them is held to the rule.
 */
export const RAW_SQL_ALLOWED = ["packages/db/**", "**/test/**", "bench/**", "scripts/**"];
/** Of those, where SQL text may be written but a driver or Prisma's raw methods may not be used: all but packages/db. */
export const SQL_TEXT_ALLOWED = ["**/test/**", "bench/**", "scripts/**"];

/** The allow-list's paths (one a line; blank lines and # comments skipped). */
export function parseAllowlist(text) {
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
}

export function readAllowlist(file = join(ROOT, ALLOWLIST_FILE)) {
  return existsSync(file) ? parseAllowlist(readFileSync(file, "utf8")) : [];
}

export function formatAllowlist(paths) {
  return [
    "# Files outside packages/db that still use raw SQL (the outreach/no-raw-sql lint rule",
    "# reports them as warnings; anywhere else it is an error). The list only shrinks:",
    "# move a file's SQL into packages/db, then run  node scripts/lint.mjs --update-allowlist",
    "# Tests (**/test/**), benchmarks (bench/**) and scripts/ may use raw SQL and are not listed.",
    ...[...new Set(paths)].sort(),
    "",
  ].join("\n");
}

/** Glob characters would make an entry match other files; such entries are refused by the check. */
export const GLOB_CHARS = /[*?[\]{}!]/;

/** The flat config: general rules, then the raw-SQL rule, then the allow-list's exceptions. */
export function buildConfig(allowlist = readAllowlist()) {
  const listed = allowlist.filter((path) => !GLOB_CHARS.test(path));
  return [
    { ignores: ["**/node_modules/", "**/dist/", "**/.turbo/", "packages/db/src/generated/", "bench/results/"] },
    // Some files disable typescript-eslint rules that are not turned on here.
    { linterOptions: { reportUnusedDisableDirectives: "off" } },
    { files: ["**/*.{ts,mts,cts,tsx}"], languageOptions: { parser: tseslint.parser } },
    {
      files: SOURCES,
      plugins: { "@typescript-eslint": tseslint.plugin, outreach: outreachPlugin },
      rules: {
        eqeqeq: ["error", "always", { null: "ignore" }],
        "no-var": "error",
        // A variable a closure reads before its one assignment stays a let.
        "prefer-const": ["error", { ignoreReadBeforeAssign: true }],
        "no-debugger": "error",
        "no-empty": ["error", { allowEmptyCatch: false }],
        "no-fallthrough": "error",
        "no-unsafe-finally": "error",
        "no-unsafe-optional-chaining": "error",
        "no-async-promise-executor": "error",
        "no-cond-assign": "error",
        "no-self-compare": "error",
        "no-self-assign": "error",
        "no-dupe-else-if": "error",
        "no-duplicate-case": "error",
        "no-throw-literal": "error",
        "no-eval": "error",
        "no-new-func": "error",
        "@typescript-eslint/ban-ts-comment": "error",
      },
    },
    { files: SOURCES, ignores: RAW_SQL_ALLOWED, rules: { [RAW_SQL_RULE]: "error" } },
    // tests, benchmarks and scripts: statement text allowed, drivers and Prisma's raw methods not
    { files: SQL_TEXT_ALLOWED, ignores: ["packages/db/**"], rules: { [RAW_SQL_RULE]: ["error", { allowSqlText: true }] } },
    ...(listed.length ? [{ files: listed, ignores: RAW_SQL_ALLOWED, rules: { [RAW_SQL_RULE]: "warn" } }] : []),
  ];
}
