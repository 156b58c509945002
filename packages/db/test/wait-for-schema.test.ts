import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { after, test } from "node:test";
import pg from "pg";
import { applyMigrations, ensureDatabase, findMigrationsDir, listMigrations, MIGRATIONS_DIR, pendingMigrations, waitForSchema } from "../src/index.js";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const CLI = join(REPO_ROOT, "packages/db/src/cli/wait-for-schema.ts");
const TEST_ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const TEST_DATABASE_PREFIX = "outreach_test_";
const ALL = listMigrations(MIGRATIONS_DIR).map((m) => m.name);

const created: string[] = [];
function scratchUrl(): string {
  const name = `${TEST_DATABASE_PREFIX}${Date.now().toString(36)}_wait${randomBytes(3).toString("hex")}`;
  created.push(name);
  const url = new URL(TEST_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function exec(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

after(async () => {
  for (const name of created) await exec(TEST_ADMIN_URL, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
});

/** Runs the CLI (through tsx) with the given database; resolves with its exit code and output. */
function runCli(url: string, env: Record<string, string> = {}): { done: Promise<{ code: number | null; output: string }> } {
  const child = spawn(process.execPath, ["--import", "tsx", CLI], {
    cwd: REPO_ROOT,
    env: { ...process.env, NODE_ENV: "test", LOG_LEVEL: "info", DATABASE_URL: url, DATABASE_DIRECT_URL: "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  return { done: new Promise((resolveDone) => child.once("exit", (code) => resolveDone({ code, output }))) };
}

test("the migrations directory is found above a bundle anywhere in the image's layout", () => {
  const root = mkdtempSync(join(tmpdir(), "outreach-layout-"));
  try {
    cpSync(MIGRATIONS_DIR, join(root, "prisma", "migrations"), { recursive: true });
    for (const dir of ["tools", "chunks", "apps/api/dist"]) assert.equal(findMigrationsDir(join(root, dir)), join(root, "prisma", "migrations"), dir);
    assert.equal(findMigrationsDir(join(REPO_ROOT, "packages/db/src")), join(REPO_ROOT, "prisma", "migrations"));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test("pendingMigrations: every migration while the database or its migrations table is missing, none once migrated", async () => {
  assert.ok(ALL.length > 0);
  const url = scratchUrl();
  assert.deepEqual(await pendingMigrations(url, MIGRATIONS_DIR), ALL, "no database yet");
  await ensureDatabase(url);
  assert.deepEqual(await pendingMigrations(url, MIGRATIONS_DIR), ALL, "no migrations table yet");
  await applyMigrations(url, MIGRATIONS_DIR);
  assert.deepEqual(await pendingMigrations(url, MIGRATIONS_DIR), []);
  // a migration recorded but rolled back, or started and never finished, is still pending
  const [first, second] = ALL;
  await exec(url, `UPDATE "_prisma_migrations" SET rolled_back_at = now() WHERE migration_name = '${first}'`);
  if (second) await exec(url, `UPDATE "_prisma_migrations" SET finished_at = NULL WHERE migration_name = '${second}'`);
  assert.deepEqual(await pendingMigrations(url, MIGRATIONS_DIR), second ? [first, second] : [first]);
});

test("waitForSchema gives up after its timeout naming the migration it waits for, and returns once it is applied", async () => {
  const url = scratchUrl();
  const lines: string[] = [];
  const log = { info: (line: string) => void lines.push(line) };
  const started = Date.now();
  const timedOut = await waitForSchema(url, MIGRATIONS_DIR, { timeoutMs: 300, intervalMs: 100, log });
  assert.equal(timedOut.ok, false);
  assert.ok(Date.now() - started < 5_000);
  assert.ok(timedOut.checks >= 2, "it polled");
  assert.match(lines[0] ?? "", new RegExp(`waiting for migration ${ALL[0]} \\(${ALL.length} pending\\)`));

  // applied while it waits: it notices on a later check
  await ensureDatabase(url);
  const waiting = waitForSchema(url, MIGRATIONS_DIR, { timeoutMs: 20_000, intervalMs: 100, log });
  await new Promise((r) => setTimeout(r, 300));
  await applyMigrations(url, MIGRATIONS_DIR);
  const result = await waiting;
  assert.equal(result.ok, true);
  assert.ok(result.checks >= 2, "it waited first");
});

test("waitForSchema waits for a database it cannot reach, and says so", async () => {
  const lines: string[] = [];
  const result = await waitForSchema("postgresql://postgres@127.0.0.1:1/none", MIGRATIONS_DIR, { timeoutMs: 200, intervalMs: 50, log: { info: (l) => void lines.push(l) } });
  assert.equal(result.ok, false);
  assert.match(lines[0] ?? "", /waiting for the database: .*ECONNREFUSED/);
});

test("the wait-for-schema CLI exits 1 with a clear message after SCHEMA_WAIT_TIMEOUT_SECONDS, and 0 once the schema is up to date", async () => {
  const url = scratchUrl();
  const timedOut = await runCli(url, { SCHEMA_WAIT_TIMEOUT_SECONDS: "1" }).done;
  assert.equal(timedOut.code, 1, timedOut.output);
  assert.match(timedOut.output, new RegExp(`waiting for migration ${ALL[0]}`));
  assert.match(timedOut.output, /schema not ready after 1 s \(SCHEMA_WAIT_TIMEOUT_SECONDS\)/);

  const bad = await runCli(url, { SCHEMA_WAIT_TIMEOUT_SECONDS: "soon" }).done;
  assert.equal(bad.code, 1);
  assert.match(bad.output, /SCHEMA_WAIT_TIMEOUT_SECONDS: must be a positive number/);

  await ensureDatabase(url);
  await applyMigrations(url, MIGRATIONS_DIR);
  const ready = await runCli(url, { SCHEMA_WAIT_TIMEOUT_SECONDS: "5" }).done;
  assert.equal(ready.code, 0, ready.output);
  assert.match(ready.output, /schema is up to date/);
});
