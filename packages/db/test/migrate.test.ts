import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { after, test } from "node:test";
import pg from "pg";
import { applyMigrations, ensureDatabase, listMigrations, MIGRATIONS_DIR } from "../src/index.js";

// This package sits below @outreach/testing, so it names its scratch databases itself
// (with the prefix the harness sweeps up after killed runs).
const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const TEST_ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const TEST_DATABASE_PREFIX = "outreach_test_";

const created: string[] = [];
function scratchUrl(): string {
  const name = `${TEST_DATABASE_PREFIX}${Date.now().toString(36)}_mig${randomBytes(3).toString("hex")}`;
  created.push(name);
  const url = new URL(TEST_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

after(async () => {
  for (const name of created) await query(TEST_ADMIN_URL, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
});

test("a missing database is created, every migration applied once and recorded like prisma migrate deploy", async () => {
  const url = scratchUrl();
  await ensureDatabase(url);
  await ensureDatabase(url); // a second call is harmless
  const first = await applyMigrations(url, MIGRATIONS_DIR);
  const migrations = listMigrations(MIGRATIONS_DIR);
  assert.deepEqual(
    first.applied,
    migrations.map((m) => m.name),
  );

  const second = await applyMigrations(url, MIGRATIONS_DIR);
  assert.deepEqual(second.applied, [], "the second run applies nothing");
  assert.deepEqual(
    second.alreadyApplied,
    migrations.map((m) => m.name),
  );

  const rows = await query<{ migration_name: string; checksum: string; finished_at: Date | null; applied_steps_count: number }>(
    url,
    `SELECT migration_name, checksum, finished_at, applied_steps_count FROM "_prisma_migrations" ORDER BY migration_name`,
  );
  assert.deepEqual(
    rows.map((r) => [r.migration_name, r.checksum]),
    migrations.map((m) => [m.name, m.checksum]),
  );
  assert.ok(rows.every((r) => r.finished_at instanceof Date && r.applied_steps_count === 1));

  const tables = await query<{ table_name: string }>(url, "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'");
  for (const table of ["accounts", "api_keys", "plans", "campaigns", "enrollments", "step_sends", "events", "webhook_deliveries", "idempotency_records"]) {
    assert.ok(
      tables.some((t) => t.table_name === table),
      `${table} exists`,
    );
  }
});

test("concurrent migration runs apply each migration exactly once", async () => {
  const url = scratchUrl();
  await ensureDatabase(url);
  const results = await Promise.all([applyMigrations(url, MIGRATIONS_DIR), applyMigrations(url, MIGRATIONS_DIR), applyMigrations(url, MIGRATIONS_DIR)]);
  const appliedCount = results.reduce((n, r) => n + r.applied.length, 0);
  assert.equal(appliedCount, listMigrations(MIGRATIONS_DIR).length);
  const { count } = (await query<{ count: string }>(url, `SELECT count(*) FROM "_prisma_migrations"`))[0]!;
  assert.equal(Number(count), listMigrations(MIGRATIONS_DIR).length);
});

test("a failing migration is rolled back, reported, and blocks nothing that came before it", async () => {
  const url = scratchUrl();
  await ensureDatabase(url);
  const dir = mkdtempSync(join(tmpdir(), "migrations-"));
  try {
    cpSync(MIGRATIONS_DIR, dir, { recursive: true });
    mkdirSync(join(dir, "99990101000000_broken"));
    writeFileSync(join(dir, "99990101000000_broken", "migration.sql"), `CREATE TABLE "half_done" (id int);\nSELECT * FROM "no_such_table";`);
    await assert.rejects(applyMigrations(url, dir), /99990101000000_broken failed/);
    const tables = await query<{ table_name: string }>(url, "SELECT table_name FROM information_schema.tables WHERE table_name = 'half_done'");
    assert.equal(tables.length, 0, "the failed migration left nothing behind");
    const { count } = (await query<{ count: string }>(url, `SELECT count(*) FROM "_prisma_migrations"`))[0]!;
    assert.equal(Number(count), listMigrations(MIGRATIONS_DIR).length);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("prisma/schema.prisma has no changes that a migration does not cover", () => {
  const output = execFileSync(process.execPath, [join(REPO_ROOT, "scripts/new-migration.mjs"), "--check"], { encoding: "utf8" });
  assert.match(output, /schema and migrations agree/);
});
