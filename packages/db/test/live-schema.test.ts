// packages/db/sql holds the current definition of everything prisma/schema.prisma cannot
// express (functions, triggers, partial indexes, check constraints, UNLOGGED). These tests
// prove the files ARE the live schema: a database built by the migrations and one built from
// schema.prisma plus the files have the same catalog, definition for definition.
import assert from "node:assert/strict";
import { cpSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { after, before, test } from "node:test";
import { applyMigrations, MIGRATIONS_DIR } from "../src/index.js";
import { applySql, readSnapshot, readSqlObjects, sqlChanges, sqlDir } from "../../../scripts/live-schema.mjs";
import { applySqlFiles, catalogProblems, docProblems, dropScratchDatabases, execSql, prismaOnlyDatabase, readCatalog, scratchDatabase, type Catalog } from "./support/live-schema.js";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

let migratedUrl: string;
let migrated: Catalog;
let prismaOnly: string;
const scratchRoots: string[] = [];

before(async () => {
  const database = await scratchDatabase("live");
  await applyMigrations(database.url, MIGRATIONS_DIR);
  migratedUrl = database.url;
  migrated = await readCatalog(database.url);
  prismaOnly = (await prismaOnlyDatabase(REPO_ROOT)).name;
});

after(async () => {
  await dropScratchDatabases();
  for (const dir of scratchRoots) rmSync(dir, { recursive: true, force: true });
});

/** The catalog of schema.prisma's database plus the packages/db/sql files under `root`. */
async function declared(root: string) {
  const database = await scratchDatabase("decl", prismaOnly);
  const objects = await applySqlFiles(database.url, root);
  return { catalog: await readCatalog(database.url), objects };
}

/** A scratch root holding a copy of packages/db/sql, to break on purpose. */
function copyOfSqlFiles(): string {
  const root = mkdtempSync(join(tmpdir(), "live-schema-"));
  scratchRoots.push(root);
  cpSync(sqlDir(REPO_ROOT), sqlDir(root), { recursive: true });
  return root;
}

test("the migrations build exactly prisma/schema.prisma plus packages/db/sql: every function, trigger, index, constraint and table", async () => {
  const { catalog, objects } = await declared(REPO_ROOT);
  // what the comparison covers, so an empty catalog cannot pass
  for (const key of [
    "function release_due_sends(",
    "function notify_outbox_events(",
    "trigger events.events_notify_outbox",
    "trigger webhook_deliveries.webhook_deliveries_notify",
    "index step_sends_due_campaign_idx",
    "index enrollments_dispatch_page_idx",
    "constraint smtp_credentials.smtp_credentials_ramp_check",
    "relation contact_import_staged_rows",
    "column step_sends.dueAt",
  ]) {
    assert.ok(
      [...migrated.keys()].some((k) => k.startsWith(key)),
      `the migrated database has ${key}`,
    );
  }
  assert.match(migrated.get("relation contact_import_staged_rows") ?? "", /persistence=u/);
  assert.ok(objects.length >= 20, "packages/db/sql defines the objects schema.prisma cannot");
  const problems = catalogProblems(migrated, catalog, objects);
  assert.equal(problems.length, 0, problems.join("\n\n"));
});

test("re-running every packages/db/sql file on the migrated database, as a new migration would, changes no definition", async () => {
  const objects = readSqlObjects(sqlDir(REPO_ROOT));
  await execSql(migratedUrl, applySql(objects));
  const again = await readCatalog(migratedUrl);
  const problems = catalogProblems(migrated, again, objects);
  assert.equal(problems.length, 0, problems.join("\n\n"));
});

test("a file whose definition differs, a file missing, and a file defining what no migration created are each reported", async () => {
  const root = copyOfSqlFiles();
  const dir = sqlDir(root);
  // a body changed
  const fn = join(dir, "functions/release_due_sends.sql");
  writeFileSync(fn, readFileSync(fn, "utf8").replace("LIMIT (SELECT GREATEST(0, p_limit - n) FROM inflight)", "LIMIT (SELECT GREATEST(0, p_limit - n - 1) FROM inflight)"));
  // a check constraint changed
  const check = join(dir, "constraints/blocklist_entries.sql");
  writeFileSync(check, readFileSync(check, "utf8").replace("('email', 'domain')", "('email', 'domain', 'tld')"));
  // a file dropped: its trigger and trigger function are then nowhere
  unlinkSync(join(dir, "triggers/events_notify_outbox.sql"));
  // a file the migrations never ran
  writeFileSync(
    join(dir, "indexes/extra.sql"),
    `-- step_sends_sent_idx: an index nobody migrated.\n-- Used by: packages/db/test/live-schema.test.ts\n-- Last changed by migration: none\nCREATE INDEX "step_sends_sent_idx" ON "step_sends" ("sentAt") WHERE state = 'sent';\n`,
  );

  const { catalog, objects } = await declared(root);
  const problems = catalogProblems(migrated, catalog, objects);
  const about = (key: string) => problems.filter((p) => p.startsWith(key));
  assert.equal(about("function release_due_sends(").length, 1, problems.join("\n\n"));
  assert.match(about("function release_due_sends(")[0]!, /packages\/db\/sql\/functions\/release_due_sends\.sql defines it otherwise than the migrations do/);
  assert.match(about("constraint blocklist_entries.blocklist_entries_kind_check")[0] ?? "", /packages\/db\/sql\/constraints\/blocklist_entries\.sql defines it otherwise/);
  assert.match(about("trigger events.events_notify_outbox")[0] ?? "", /the migrations create it, but neither prisma\/schema\.prisma nor a file of packages\/db\/sql defines it/);
  assert.match(about("function notify_outbox_events(")[0] ?? "", /the migrations create it/);
  assert.match(about("index step_sends_sent_idx")[0] ?? "", /packages\/db\/sql\/indexes\/extra\.sql defines it, but the migrations never create it/);
  assert.equal(problems.length, 5, problems.join("\n\n"));
});

test("each file says what its objects are for, which code uses them, and the migration that last changed them", () => {
  const objects = readSqlObjects(sqlDir(REPO_ROOT));
  const problems = docProblems(REPO_ROOT, MIGRATIONS_DIR, objects);
  assert.equal(problems.length, 0, problems.join("\n"));

  // and says so when a comment points at a superseded migration or at code that is not there
  const root = copyOfSqlFiles();
  const fn = join(sqlDir(root), "functions/release_due_sends.sql");
  const lastChange = /Last changed by migration: (\S+)/.exec(readFileSync(fn, "utf8"))![1]!;
  writeFileSync(
    fn,
    readFileSync(fn, "utf8")
      .replace(/Last changed by migration: \S+/, "Last changed by migration: 20261122020000_release_due_sends_function")
      .replace("apps/dispatcher/src/feeder.ts", "apps/dispatcher/src/no-such-feeder.ts"),
  );
  const stale = docProblems(REPO_ROOT, MIGRATIONS_DIR, readSqlObjects(sqlDir(root)));
  assert.equal(stale.length, 2, stale.join("\n"));
  assert.match(stale.join("\n"), new RegExp(`says it was last changed by 20261122020000_release_due_sends_function, but ${lastChange} changed it since`));
  assert.match(stale.join("\n"), /names apps\/dispatcher\/src\/no-such-feeder\.ts, which does not exist/);
});

test("prisma/migrations/sql.snapshot.json is packages/db/sql as of the last migration (no file changed without a migration)", () => {
  const changes = sqlChanges(readSnapshot(REPO_ROOT), readSqlObjects(sqlDir(REPO_ROOT)));
  assert.deepEqual({ added: changes.added.map((o) => o.key), changed: changes.changed.map((o) => o.key), removed: changes.removed.map((o) => o.key) }, { added: [], changed: [], removed: [] });
});
