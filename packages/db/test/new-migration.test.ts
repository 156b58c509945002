// pnpm db:new-migration (scripts/new-migration.mjs) on a scratch copy of prisma/ and
// packages/db/sql: a change to a packages/db/sql file becomes a migration holding the new
// definition, and afterwards the files, the snapshot and the migrations agree again.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { after, test } from "node:test";
import { applyMigrations, listMigrations, MIGRATIONS_DIR } from "../src/index.js";
import { classifyStatement, describeChanges, migrationSqlFor, migrationsDir, readSnapshot, readSqlObjects, snapshotOf, sqlChanges, sqlDir } from "../../../scripts/live-schema.mjs";
import { applySqlFiles, catalogProblems, docProblems, dropScratchDatabases, prismaOnlyDatabase, readCatalog, scratchDatabase } from "./support/live-schema.js";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const SCRIPT = join(REPO_ROOT, "scripts/new-migration.mjs");
const roots: string[] = [];

after(async () => {
  await dropScratchDatabases();
  for (const dir of roots) rmSync(dir, { recursive: true, force: true });
});

/** A checkout of its own: prisma/ (schema, migrations, snapshots) and packages/db/sql. */
function scratchRoot(): string {
  const root = mkdtempSync(join(tmpdir(), "new-migration-"));
  roots.push(root);
  mkdirSync(join(root, "prisma"));
  cpSync(join(REPO_ROOT, "prisma/schema.prisma"), join(root, "prisma/schema.prisma"));
  cpSync(MIGRATIONS_DIR, migrationsDir(root), { recursive: true });
  cpSync(sqlDir(REPO_ROOT), sqlDir(root), { recursive: true });
  return root;
}

function newMigration(root: string, ...args: string[]) {
  const result = spawnSync(process.execPath, [SCRIPT, ...args, "--root", root], { encoding: "utf8" });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

function edit(path: string, from: string, to: string): void {
  const text = readFileSync(path, "utf8");
  assert.ok(text.includes(from), `${path} has ${from}`);
  writeFileSync(path, text.replace(from, to));
}

function newMigrationsOf(root: string): string[] {
  const before = new Set(listMigrations(MIGRATIONS_DIR).map((m) => m.name));
  return readdirSync(migrationsDir(root)).filter((name) => existsSync(join(migrationsDir(root), name, "migration.sql")) && !before.has(name));
}

/** What --check asks of packages/db/sql (without its Prisma half, which takes seconds): the snapshot is the files. */
function assertSnapshotCurrent(root: string): void {
  const changes = sqlChanges(readSnapshot(root), readSqlObjects(sqlDir(root)));
  assert.ok(changes.empty, describeChanges(changes).join("\n"));
}

/** Applies the root's migrations to a fresh database and compares it with schema.prisma plus the root's sql files. */
async function assertMigrationsBuildTheFiles(root: string): Promise<void> {
  const migrated = await scratchDatabase("nm");
  await applyMigrations(migrated.url, migrationsDir(root));
  const declared = await prismaOnlyDatabase(root);
  const objects = await applySqlFiles(declared.url, root);
  const problems = catalogProblems(await readCatalog(migrated.url), await readCatalog(declared.url), objects);
  assert.equal(problems.length, 0, problems.join("\n\n"));
}

test("an edited function: --check fails naming it, the new migration replaces just it, stamps the file, and all agree again", async () => {
  const root = scratchRoot();
  const file = join(sqlDir(root), "functions/release_due_sends.sql");
  edit(file, "LIMIT (SELECT GREATEST(0, p_limit - n) FROM inflight)", "LIMIT (SELECT GREATEST(0, p_limit - n) FROM inflight) -- the account's free slots");

  const check = newMigration(root, "--check");
  assert.equal(check.status, 1, check.output);
  assert.match(check.output, /packages\/db\/sql has changes that no migration covers/);
  assert.match(check.output, /changed {2}function release_due_sends\(.*\(packages\/db\/sql\/functions\/release_due_sends\.sql\)/);
  assert.doesNotMatch(check.output, /prisma\/schema\.prisma has changes/);

  const made = newMigration(root, "comment_free_slots");
  assert.equal(made.status, 0, made.output);
  const [name, ...more] = newMigrationsOf(root);
  assert.ok(name && more.length === 0, made.output);
  assert.match(name, /^\d{14}_comment_free_slots$/);
  const sql = readFileSync(join(migrationsDir(root), name, "migration.sql"), "utf8");
  assert.match(sql, /CREATE OR REPLACE FUNCTION release_due_sends\(/);
  assert.match(sql, /-- the account's free slots/);
  assert.doesNotMatch(sql, /CREATE INDEX|CREATE TRIGGER|DROP |ALTER TABLE/, "nothing but the changed function");

  // the file now names the migration that last changed it; the earlier migrations are untouched
  assert.match(readFileSync(file, "utf8"), new RegExp(`Last changed by migration: ${name}\\n`));
  const untouched = new Map(listMigrations(MIGRATIONS_DIR).map((m) => [m.name, m.checksum]));
  for (const m of listMigrations(migrationsDir(root))) if (m.name !== name) assert.equal(m.checksum, untouched.get(m.name), `${m.name} unchanged`);

  assertSnapshotCurrent(root);
  assert.deepEqual(docProblems(REPO_ROOT, migrationsDir(root), readSqlObjects(sqlDir(root))), []);
  await assertMigrationsBuildTheFiles(root);
});

test("indexes, constraints and triggers changed, added and removed, with a schema.prisma change: drops first, Prisma's SQL, then the new definitions", async () => {
  const root = scratchRoot();
  const dir = sqlDir(root);
  edit(join(dir, "indexes/events.sql"), `("createdAt", id) WHERE`, `("createdAt", id, "accountId") WHERE`);
  edit(join(dir, "constraints/reply_answers.sql"), "'sent', 'failed'", "'sent', 'failed', 'cancelled'");
  unlinkSync(join(dir, "constraints/blocklist_entries.sql"));
  unlinkSync(join(dir, "triggers/webhook_deliveries_notify.sql"));
  // a new column (schema.prisma) and a partial index on it (packages/db/sql), in one migration
  edit(join(root, "prisma/schema.prisma"), "model Event {\n", "model Event {\n  relayNote   String?\n");
  writeFileSync(
    join(dir, "indexes/events_relay_note.sql"),
    `-- events_relay_note_idx: events with a relay note.\n-- Used by: packages/db/test/new-migration.test.ts\n-- Last changed by migration: (set by new-migration)\nCREATE INDEX "events_relay_note_idx" ON "events" ("relayNote") WHERE "relayNote" IS NOT NULL;\n`,
  );

  const made = newMigration(root, "reshape");
  assert.equal(made.status, 0, made.output);
  const [name] = newMigrationsOf(root);
  assert.ok(name, made.output);
  const sql = readFileSync(join(migrationsDir(root), name, "migration.sql"), "utf8");
  const at = (needle: string) => {
    const index = sql.indexOf(needle);
    assert.ok(index >= 0, `the migration has ${needle}:\n${sql}`);
    return index;
  };
  // removed objects go first (trigger before its function), while their tables are there
  assert.ok(at(`DROP TRIGGER IF EXISTS "webhook_deliveries_notify" ON "webhook_deliveries";`) < at(`DROP FUNCTION IF EXISTS "notify_webhook_deliveries"();`));
  assert.ok(at(`DROP FUNCTION IF EXISTS "notify_webhook_deliveries"();`) < at(`ALTER TABLE "events" ADD COLUMN`));
  assert.ok(at(`ALTER TABLE IF EXISTS "blocklist_entries" DROP CONSTRAINT IF EXISTS "blocklist_entries_kind_check";`) < at(`ALTER TABLE "events" ADD COLUMN`));
  // then Prisma's part, then the current definitions, each replacing the old one
  assert.ok(at(`ALTER TABLE "events" ADD COLUMN`) < at(`DROP INDEX IF EXISTS "events_undispatched_idx";`));
  assert.ok(at(`DROP INDEX IF EXISTS "events_undispatched_idx";`) < at(`CREATE INDEX "events_undispatched_idx"`));
  assert.ok(at(`DROP CONSTRAINT IF EXISTS "reply_answers_state_check";`) < at(`ADD CONSTRAINT "reply_answers_state_check"`));
  assert.ok(at(`ALTER TABLE "events" ADD COLUMN`) < at(`CREATE INDEX "events_relay_note_idx"`));
  assert.doesNotMatch(sql, /release_due_sends|step_sends_due_campaign_idx/, "unchanged objects stay out");

  for (const file of ["indexes/events.sql", "constraints/reply_answers.sql", "indexes/events_relay_note.sql"]) {
    assert.match(readFileSync(join(dir, file), "utf8"), new RegExp(`Last changed by migration: ${name}\\n`), file);
  }
  assertSnapshotCurrent(root);
  await assertMigrationsBuildTheFiles(root);
});

test("a function whose return type changes is dropped before it is created again; a header-only edit needs no migration", () => {
  const v1 = `CREATE OR REPLACE FUNCTION f(a int, b text DEFAULT 'x') RETURNS int LANGUAGE sql AS $$ SELECT a $$;`;
  const v2 = `CREATE OR REPLACE FUNCTION f(a int, b text DEFAULT 'x') RETURNS bigint LANGUAGE sql AS $$ SELECT a::bigint $$;`;
  const object = (statement: string, file = "functions/f.sql") => ({ ...classifyStatement(statement), file, statement, sha256: statement, doc: null });
  const changes = sqlChanges(snapshotOf([object(v1)]), [object(v2)]);
  assert.equal(changes.removed.length, 1);
  assert.equal(changes.added.length, 1);
  const { before, after: put } = migrationSqlFor(changes, [object(v2)]);
  assert.match(before, /DROP FUNCTION IF EXISTS "f"\(a int, b text\);/);
  assert.match(put, /RETURNS bigint/);

  // the same statement moved to another file, or its comment edited: no change
  assert.ok(sqlChanges(snapshotOf([object(v1)]), [object(v1, "functions/g.sql")]).empty);
  const root = scratchRoot();
  const file = join(sqlDir(root), "indexes/events.sql");
  edit(file, "-- events_undispatched_idx:", "-- events_undispatched_idx (the relay's queue):");
  assertSnapshotCurrent(root);
});
