#!/usr/bin/env node
// Makes a new SQL migration from the changes to the live schema, offline.
//
//   pnpm db:new-migration add_something   writes prisma/migrations/<ts>_add_something/
//   pnpm db:new-migration --check         exits 1 when the schema has unmigrated changes
//   (either with --root <dir>: another checkout's prisma/ and packages/db/sql/, for tests)
//
// The live schema has two halves (scripts/live-schema.mjs):
// - prisma/schema.prisma: Prisma 7's `migrate diff` needs a schema-engine binary that cannot
//   be downloaded here, so the diff runs on Prisma 6.19's bundled WASM schema engine
//   (devDependency `prisma6`) between two datamodels: the schema as of the last migration
//   (prisma/migrations/schema.snapshot.prisma) and the current one.
// - packages/db/sql/: the objects whose statements changed since the last migration
//   (prisma/migrations/sql.snapshot.json) are written into the migration as their current
//   definitions (an index or constraint dropped and created again, a function created or
//   replaced); objects removed from there are dropped. The "Last changed by migration:" line
//   of each changed file's comment is set to the new migration.
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import {
  describeChanges,
  migrationSqlFor,
  migrationsDir,
  prismaDiff,
  readSnapshot,
  readSqlObjects,
  schemaPath,
  sqlChanges,
  sqlDir,
  stampLastChanged,
  TOOL_ROOT,
  writeSnapshot,
} from "./live-schema.mjs";

const args = process.argv.slice(2);
let root = TOOL_ROOT;
const rootAt = args.indexOf("--root");
if (rootAt >= 0) {
  if (!args[rootAt + 1]) {
    console.error("--root needs a directory");
    process.exit(2);
  }
  root = resolve(args[rootAt + 1]);
  args.splice(rootAt, 2);
}
const arg = args[0];
if (!arg || args.length > 1) {
  console.error("usage: pnpm db:new-migration <snake_case_name> | --check  [--root <dir>]");
  process.exit(2);
}
const check = arg === "--check";
if (!check && !/^[a-z0-9_]+$/.test(arg)) {
  console.error("migration name must be snake_case letters, digits and _");
  process.exit(2);
}

const snapshotPath = join(migrationsDir(root), "schema.snapshot.prisma");
let objects;
try {
  objects = readSqlObjects(sqlDir(root));
} catch (err) {
  console.error(err.message);
  process.exit(1);
}
const changes = sqlChanges(readSnapshot(root), objects);
const prismaSql = prismaDiff(existsSync(snapshotPath) ? snapshotPath : null, schemaPath(root));

if (check) {
  const problems = [];
  if (prismaSql) problems.push("prisma/schema.prisma has changes that no migration covers:\n" + prismaSql);
  if (!changes.empty) problems.push("packages/db/sql has changes that no migration covers:\n" + describeChanges(changes).join("\n"));
  if (problems.length) {
    console.error(problems.join("\n") + "\nRun: pnpm db:new-migration <name>");
    process.exit(1);
  }
  console.log("schema and migrations agree (prisma/schema.prisma and packages/db/sql)");
} else if (!prismaSql && changes.empty) {
  console.log("no schema changes; nothing written");
} else {
  const stamp = new Date().toISOString().replace(/[-:T]/g, "").slice(0, 14);
  const name = `${stamp}_${arg}`;
  const dir = join(migrationsDir(root), name);
  const { before, after } = migrationSqlFor(changes, objects);
  const sql = [before, prismaSql, after].filter(Boolean).join("\n");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "migration.sql"), sql);
  copyFileSync(schemaPath(root), snapshotPath);
  if (!changes.empty) {
    const touched = new Set([...changes.added, ...changes.changed].map((o) => o.key));
    stampLastChanged(
      sqlDir(root),
      objects.filter((o) => touched.has(o.key)),
      name,
    );
    // the stamp changed comments only: the statements' hashes are the ones just migrated
    writeSnapshot(root, readSqlObjects(sqlDir(root)));
    console.log("packages/db/sql changes in it:\n" + describeChanges(changes).join("\n"));
  }
  console.log(`wrote ${dir}/migration.sql`);
}
