// The linter that npm test runs (scripts/lint.mjs, eslint.config.mjs) and its
// rule that only packages/db touches SQL (outreach/no-raw-sql): the rule fails a
// file elsewhere that imports pg, calls $queryRaw or holds SQL text, passes the
// same file in packages/db, tests, benchmarks and scripts, and the allow-list of
// today's offenders only shrinks (a listed file that no longer offends is reported).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { ESLint } from "eslint";
import { checkAllowlist } from "../scripts/lint/check.mjs";
import { ALLOWLIST_FILE, buildConfig, parseAllowlist, RAW_SQL_RULE, ROOT } from "../scripts/lint/config.mjs";

// One line per offence, so the test can say which line each report is for.
const PROBE = [
  'import pg from "pg";',
  'import Cursor from "pg-cursor";',
  'import { queryRows, type Db } from "@outreach/db";',
  "export async function probe(db: Db) {",
  "  await db.$queryRaw`SELECT 1`;",
  '  await db.$executeRawUnsafe("DELETE FROM contacts");',
  '  return [pg, Cursor, await queryRows(db, "SELECT 1", [])];',
  "}",
  "",
].join("\n");

const MORE_FORMS = [
  "import type { Db } from '@outreach/db';",
  "import { Prisma } from '@outreach/db';",
  "export async function probe(db: Db) {",
  "  const pg = await import('pg');", // 4
  "  const pool = require('pg-pool');", // 5
  "  await db?.$queryRawUnsafe('SELECT 1');", // 6
  "  await db['$executeRaw']`SELECT 1`;", // 7
  "  const { $queryRaw } = db;", // 8
  "  const fragment = Prisma.sql`id = 1`;", // 9
  "  return [pg, pool, $queryRaw, fragment];", // 10
  "}",
  "export type Raw = Pick<Db, '$queryRawUnsafe'>;", // 12
  "export { Client } from 'pg';", // 13
  "const client = createRequire(import.meta.url)('pg');", // 14
  "export const statement = `", // 15: SQL text, whatever runs it
  "  UPDATE step_sends SET state = 'sent' WHERE id = $1`;",
  "export const run = (db: { rows(text: string): unknown }) => db.rows('WITH due AS (SELECT 1) SELECT * FROM due');", // 17
  "",
].join("\n");

// A pg transaction held for statements packages/db writes is not raw SQL.
const LOOKALIKES = [
  'import { createDbClient, inRawTransaction, type Db, type RawClient } from "@outreach/db";',
  "export function probe(db: Db & { queryRawish: () => void }) {",
  '  const note = "this sentence names $queryRaw but runs nothing";',
  '  const hint = "Select a campaign, then UPDATE the schedule";',
  "  db.queryRawish();",
  "  return [createDbClient, inRawTransaction, note, hint] as Array<unknown | RawClient>;",
  "}",
  "",
].join("\n");

const repo = new ESLint({ cwd: ROOT });

async function lint(code: string, path: string, eslint = repo) {
  const [result] = await eslint.lintText(code, { filePath: join(ROOT, path) });
  assert.ok(result, `a result for ${path}`);
  return result;
}

function rawSql(result: ESLint.LintResult) {
  return result.messages.filter((m) => m.ruleId === RAW_SQL_RULE);
}

test("a file outside packages/db that imports pg or calls $queryRaw fails the lint, naming outreach/no-raw-sql", async () => {
  const result = await lint(PROBE, "apps/api/src/__lint_probe__.ts");
  const reports = rawSql(result);
  assert.deepEqual(
    reports.map((m) => m.line),
    [1, 2, 3, 5, 6, 7],
  );
  assert.ok(reports.every((m) => m.severity === 2));
  assert.equal(result.errorCount, reports.length, "nothing else is reported");
  assert.match(reports[0]!.message, /'pg' is a database client: only packages\/db may import it/);
  assert.match(reports[2]!.message, /queryRows from @outreach\/db runs SQL text/);
  assert.match(reports[3]!.message, /\$queryRaw runs raw SQL: only packages\/db may use it/);
  assert.match(reports[4]!.message, /\$executeRawUnsafe runs raw SQL/);
  assert.match(reports[5]!.message, /SQL statement text \("SELECT 1\.\.\."\): only packages\/db may hold SQL/);
});

test("the rule sees dynamic imports, require, re-exports, optional and computed access, destructuring, types, Prisma.sql and SQL text", async () => {
  const result = await lint(MORE_FORMS, "packages/domain/src/__lint_probe__.ts");
  assert.deepEqual([...new Set(rawSql(result).map((m) => m.line))], [4, 5, 6, 7, 8, 9, 10, 12, 13, 14, 15, 17]);
});

test("names that only look like raw SQL pass", async () => {
  const result = await lint(LOOKALIKES, "apps/dispatcher/src/__lint_probe__.ts");
  assert.deepEqual(result.messages, []);
});

test("the same code passes in packages/db; tests, benchmarks and scripts may hold SQL text but not take a driver or Prisma's raw methods", async () => {
  assert.deepEqual((await lint(PROBE, "packages/db/src/__lint_probe__.ts")).messages, [], "packages/db");
  const SQL_TEXT_ONLY = [
    'import { executor, queryRows, type Db } from "@outreach/db";',
    "export async function probe(db: Db) {",
    '  await executor(db).execute("DELETE FROM contacts");',
    '  return [await executor(db).rows(`SELECT 1`), await queryRows(db, "SELECT 1", [])];',
    "}",
    "",
  ].join("\n");
  for (const path of ["apps/api/test/__lint_probe__.test.ts", "test/engine/__lint_probe__.ts", "bench/lib/__lint_probe__.ts", "scripts/__lint_probe__.ts"]) {
    assert.deepEqual((await lint(SQL_TEXT_ONLY, path)).messages, [], `${path}: SQL text through @outreach/db`);
    const probe = await lint(PROBE, path);
    assert.deepEqual(
      rawSql(probe).map((m) => m.messageId),
      ["driver", "driver", "raw", "raw"],
      `${path}: pg, pg-cursor, $queryRaw and $executeRawUnsafe are refused`,
    );
    assert.ok(
      rawSql(probe).every((m) => m.severity === 2),
      path,
    );
  }
});

test("an allow-listed file is a warning, and the allow-list check reports a stale entry", async () => {
  const listed = "apps/api/src/__listed__.ts";
  const clean = "apps/api/src/__clean__.ts";
  const gone = "apps/api/src/__gone__.ts";
  const eslint = new ESLint({ cwd: ROOT, overrideConfigFile: true, baseConfig: buildConfig([listed, clean, gone]) });
  const offending = await lint(PROBE, listed, eslint);
  assert.equal(offending.errorCount, 0);
  assert.equal(rawSql(offending).length, 6);
  assert.ok(rawSql(offending).every((m) => m.severity === 1));
  const fixed = await lint("export const answer = 42;\n", clean, eslint);
  assert.deepEqual(fixed.messages, []);
  // The same content under a name that is not listed is an error.
  const unlisted = await lint(PROBE, "apps/api/src/__unlisted__.ts", eslint);
  assert.equal(unlisted.errorCount, 6);

  const { problems, keep } = checkAllowlist([offending, fixed], [listed, clean, gone, listed]);
  assert.deepEqual(keep, [listed]);
  assert.deepEqual(problems, [
    `remove ${clean} from the allow-list (${ALLOWLIST_FILE}): it no longer uses raw SQL outside packages/db`,
    `remove ${gone} from the allow-list (${ALLOWLIST_FILE}): the file no longer exists`,
    `remove ${listed} from the allow-list (${ALLOWLIST_FILE}): it is listed twice`,
  ]);
});

test("the committed allow-list is sorted, without duplicates, and lists no file where raw SQL is allowed", () => {
  const entries = parseAllowlist(readFileSync(join(ROOT, ALLOWLIST_FILE), "utf8"));
  assert.deepEqual(entries, [...new Set(entries)].sort());
  for (const entry of entries) {
    assert.match(entry, /^(apps|packages)\/[^/]+\/src\/|^examples\//, entry);
    assert.doesNotMatch(entry, /^packages\/db\/|\/test\/|^bench\/|^scripts\//, entry);
  }
});

test("npm test and npm run lint run the linter", () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> };
  assert.equal(pkg.scripts.lint, "node scripts/lint.mjs");
  const testScript = readFileSync(join(ROOT, "scripts/test.mjs"), "utf8");
  assert.ok(testScript.indexOf("scripts/lint.mjs") > testScript.indexOf('"tsc"'), "after typechecking");
  assert.ok(testScript.indexOf("scripts/lint.mjs") < testScript.indexOf("--test"), "before the tests");
});
