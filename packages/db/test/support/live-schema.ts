// What the live-schema and new-migration tests share: scratch databases, a database's
// schema read back from the catalog (as PostgreSQL prints each definition), a database built
// from the two halves of the live schema (prisma/schema.prisma and packages/db/sql), and the
// comparison of the two with messages that name the file to fix.
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { listMigrations } from "../../src/migrate.js";
import { applySql, prismaDiff, readSqlObjects, schemaPath, splitStatements, sqlDir, touchedByStatement, touchKey, type SqlObject } from "../../../../scripts/live-schema.mjs";

// This package sits below @outreach/testing, so it names its scratch databases itself
// (with the prefix the harness sweeps up after killed runs).
const TEST_ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const TEST_DATABASE_PREFIX = "outreach_test_";

export function urlOf(name: string): string {
  const url = new URL(TEST_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("SET client_min_messages TO warning");
    return await fn(client);
  } finally {
    await client.end();
  }
}

const created: string[] = [];

/** A new empty database (or a copy of `template`), dropped by dropScratchDatabases. */
export async function scratchDatabase(tag: string, template?: string): Promise<{ name: string; url: string }> {
  const name = `${TEST_DATABASE_PREFIX}${Date.now().toString(36)}_${tag}${randomBytes(3).toString("hex")}`;
  created.push(name);
  await withClient(TEST_ADMIN_URL, (client) => client.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ""}`));
  return { name, url: urlOf(name) };
}

export async function dropScratchDatabases(): Promise<void> {
  for (const name of created.splice(0)) await withClient(TEST_ADMIN_URL, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}

export async function execSql(url: string, sql: string): Promise<void> {
  await withClient(url, async (client) => {
    await client.query("BEGIN");
    try {
      await client.query(sql);
      await client.query("COMMIT");
    } catch (err) {
      await client.query("ROLLBACK");
      throw err;
    }
  });
}

/** A database with what prisma/schema.prisma declares and nothing else (Prisma's SQL from an empty database). */
export async function prismaOnlyDatabase(root: string): Promise<{ name: string; url: string }> {
  const database = await scratchDatabase("prisma");
  await execSql(database.url, prismaDiff(null, schemaPath(root)));
  return database;
}

/** Applies every packages/db/sql object of `root`, as a migration written by new-migration applies them. */
export async function applySqlFiles(url: string, root: string): Promise<SqlObject[]> {
  const objects = readSqlObjects(sqlDir(root));
  await execSql(url, applySql(objects));
  return objects;
}

// Every object of the public schema, keyed by kind and name, with the definition PostgreSQL
// prints for it (pg_get_functiondef, pg_get_triggerdef, pg_indexes.indexdef,
// pg_get_constraintdef, ...): spelling, spacing and quoting in the SQL that made them do not
// matter, the definitions do. Extension members and the migrations' own table are left out.
const CATALOG = `
WITH ns AS (SELECT oid FROM pg_namespace WHERE nspname = 'public'),
ext AS (SELECT objid FROM pg_depend WHERE deptype = 'e'),
rel AS (SELECT c.* FROM pg_class c WHERE c.relnamespace IN (SELECT oid FROM ns) AND c.relname <> '_prisma_migrations' AND c.oid NOT IN (SELECT objid FROM ext))
SELECT 'function ' || p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')' AS key, pg_get_functiondef(p.oid) AS def
  FROM pg_proc p WHERE p.pronamespace IN (SELECT oid FROM ns) AND p.prokind IN ('f', 'p', 'w') AND p.oid NOT IN (SELECT objid FROM ext)
UNION ALL
SELECT 'aggregate ' || p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')', p.prokind::text
  FROM pg_proc p WHERE p.pronamespace IN (SELECT oid FROM ns) AND p.prokind = 'a' AND p.oid NOT IN (SELECT objid FROM ext)
UNION ALL
SELECT 'trigger ' || c.relname || '.' || t.tgname, pg_get_triggerdef(t.oid) || ' enabled=' || t.tgenabled::text
  FROM pg_trigger t JOIN rel c ON c.oid = t.tgrelid WHERE NOT t.tgisinternal
UNION ALL
SELECT 'index ' || i.indexname, i.indexdef FROM pg_indexes i WHERE i.schemaname = 'public' AND i.tablename <> '_prisma_migrations'
UNION ALL
SELECT 'constraint ' || coalesce(c.relname, format_type(k.contypid, NULL)) || '.' || k.conname,
       k.contype::text || ' ' || pg_get_constraintdef(k.oid) || CASE WHEN k.convalidated THEN '' ELSE ' (not validated)' END
  FROM pg_constraint k LEFT JOIN pg_class c ON c.oid = k.conrelid
  WHERE k.connamespace IN (SELECT oid FROM ns) AND coalesce(c.relname, '') <> '_prisma_migrations'
UNION ALL
SELECT 'relation ' || c.relname, 'kind=' || c.relkind::text || ' persistence=' || c.relpersistence::text || ' rls=' || c.relrowsecurity::text
  FROM rel c WHERE c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f', 'c')
UNION ALL
SELECT 'column ' || c.relname || '.' || a.attname,
       format_type(a.atttypid, a.atttypmod) || CASE WHEN a.attnotnull THEN ' not null' ELSE '' END
       || coalesce(' default ' || pg_get_expr(d.adbin, d.adrelid), '')
       || CASE WHEN a.attidentity <> '' THEN ' identity ' || a.attidentity::text ELSE '' END
       || CASE WHEN a.attgenerated <> '' THEN ' generated' ELSE '' END
       || CASE WHEN a.attcollation <> 0 AND a.attcollation <> t.typcollation THEN ' collate ' || a.attcollation::regcollation::text ELSE '' END
  FROM pg_attribute a JOIN rel c ON c.oid = a.attrelid JOIN pg_type t ON t.oid = a.atttypid
  LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
  WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f') AND a.attnum > 0 AND NOT a.attisdropped
UNION ALL
SELECT 'view ' || c.relname, pg_get_viewdef(c.oid) FROM rel c WHERE c.relkind IN ('v', 'm')
UNION ALL
SELECT 'sequence ' || c.relname,
       format_type(s.seqtypid, NULL) || ' start ' || s.seqstart || ' increment ' || s.seqincrement || ' min ' || s.seqmin
       || ' max ' || s.seqmax || ' cache ' || s.seqcache || ' cycle ' || s.seqcycle
  FROM pg_sequence s JOIN rel c ON c.oid = s.seqrelid
UNION ALL
SELECT 'type ' || t.typname,
       t.typtype::text || ' ' || coalesce((SELECT string_agg(e.enumlabel, ',' ORDER BY e.enumsortorder) FROM pg_enum e WHERE e.enumtypid = t.oid),
                                          format_type(t.typbasetype, t.typtypmod), '')
  FROM pg_type t WHERE t.typnamespace IN (SELECT oid FROM ns) AND t.typtype IN ('e', 'd', 'r', 'm') AND t.oid NOT IN (SELECT objid FROM ext)
UNION ALL
SELECT 'extension ' || x.extname, x.extversion FROM pg_extension x
UNION ALL
SELECT 'rule ' || r.tablename || '.' || r.rulename, r.definition FROM pg_rules r WHERE r.schemaname = 'public'
UNION ALL
SELECT 'policy ' || p.tablename || '.' || p.policyname, p.cmd || ' ' || coalesce(p.qual, '') || ' ' || coalesce(p.with_check, '') FROM pg_policies p WHERE p.schemaname = 'public'
UNION ALL
SELECT 'comment ' || d.classoid::regclass::text || ' ' || d.objoid || '.' || d.objsubid, d.description
  FROM pg_description d WHERE d.classoid = 'pg_class'::regclass AND d.objoid IN (SELECT oid FROM rel)`;

export type Catalog = Map<string, string>;

export async function readCatalog(url: string): Promise<Catalog> {
  return withClient(url, async (client) => {
    const { rows } = await client.query<{ key: string; def: string }>(CATALOG);
    return new Map(rows.map((row) => [row.key, row.def]));
  });
}

/** The catalog key an object of packages/db/sql shows up under (a function: its name, then its arguments' types). */
function catalogPrefix(object: SqlObject): string {
  if (object.kind === "function") return `function ${object.name}(`;
  if (object.kind === "persistence") return `relation ${object.name}`;
  return object.key;
}

function ownerOf(key: string, objects: SqlObject[]): string {
  const object = objects.find((o) => key === catalogPrefix(o) || (o.kind === "function" && key.startsWith(catalogPrefix(o))));
  return object ? `packages/db/sql/${object.file}` : "prisma/schema.prisma";
}

/**
 * How the database the migrations built (`migrated`) differs from the one built from
 * schema.prisma and packages/db/sql (`declared`): one message per object, naming the file
 * that declares it. Empty when they are the same.
 */
export function catalogProblems(migrated: Catalog, declared: Catalog, objects: SqlObject[]): string[] {
  const problems: string[] = [];
  for (const [key, def] of migrated) {
    const other = declared.get(key);
    if (other === undefined) {
      problems.push(`${key}: the migrations create it, but neither prisma/schema.prisma nor a file of packages/db/sql defines it ` + `(put its current definition in packages/db/sql/):\n    ${def}`);
    } else if (other !== def) {
      problems.push(`${key}: ${ownerOf(key, objects)} defines it otherwise than the migrations do.\n  migrations:\n    ${def}\n  ${ownerOf(key, objects)}:\n    ${other}`);
    }
  }
  for (const [key, def] of declared) {
    if (!migrated.has(key)) {
      problems.push(`${key}: ${ownerOf(key, objects)} defines it, but the migrations never create it ` + `(run pnpm db:new-migration <name>, or remove it):\n    ${def}`);
    }
  }
  return problems;
}

/** Where prisma/migrations last created, replaced or dropped each object (by kind and name). */
export function lastChangedBy(migrationsDir: string): Map<string, string> {
  const last = new Map<string, string>();
  for (const migration of listMigrations(migrationsDir)) {
    for (const statement of splitStatements(migration.sql)) {
      const touched = touchedByStatement(statement.text);
      if (touched) last.set(touchKey(touched), migration.name);
    }
  }
  return last;
}

/**
 * The doc comment of every object of packages/db/sql says what it is for, which code uses it
 * (files that exist) and the migration that last changed it (the last one that created,
 * replaced or dropped any object it documents).
 */
export function docProblems(root: string, migrationsDir: string, objects: SqlObject[]): string[] {
  const last = lastChangedBy(migrationsDir);
  const migrationNames = new Set(listMigrations(migrationsDir).map((m) => m.name));
  const docs = new Map<string, { file: string; text: string; objects: SqlObject[] }>();
  for (const object of objects) {
    const id = `${object.file}@${object.doc?.start ?? -1}`;
    const doc = docs.get(id) ?? { file: object.file, text: object.doc?.text ?? "", objects: [] };
    doc.objects.push(object);
    docs.set(id, doc);
  }
  const problems: string[] = [];
  for (const doc of docs.values()) {
    const where = `packages/db/sql/${doc.file} (${doc.objects.map((o) => o.key).join(", ")})`;
    const lines = doc.text
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line.startsWith("--"));
    const usedAt = lines.findIndex((line) => /^--\s*Used by:/.test(line));
    const lastAt = lines.findIndex((line) => /^--\s*Last changed by migration:/.test(line));
    const prose = lines.slice(0, usedAt < 0 ? lines.length : usedAt).filter((line) => line.replace(/^--\s*/, "").length > 0);
    if (prose.length === 0) problems.push(`${where}: its comment does not say what it is for`);
    if (usedAt < 0) {
      problems.push(`${where}: its comment has no "Used by:" line naming the code that uses it`);
    } else {
      const usedBy = lines.slice(usedAt, lastAt > usedAt ? lastAt : lines.length).join(" ");
      const paths = usedBy.match(/[A-Za-z0-9_.-]+(?:\/[A-Za-z0-9_.-]+)+\.[a-z]+/g) ?? [];
      if (paths.length === 0) problems.push(`${where}: "Used by:" names no file`);
      for (const path of paths) if (!existsSync(join(root, path))) problems.push(`${where}: "Used by:" names ${path}, which does not exist`);
    }
    const named = lastAt < 0 ? undefined : /Last changed by migration:\s*(\S+)/.exec(lines[lastAt]!)?.[1];
    const expected = doc.objects
      .map((o) => last.get(touchKey(o)))
      .filter((name): name is string => Boolean(name))
      .sort()
      .pop();
    if (!named) problems.push(`${where}: its comment has no "Last changed by migration: <name>" line`);
    else if (!migrationNames.has(named)) problems.push(`${where}: "Last changed by migration: ${named}" names no migration in prisma/migrations`);
    else if (expected && named !== expected) problems.push(`${where}: says it was last changed by ${named}, but ${expected} changed it since`);
    if (!expected) problems.push(`${where}: no migration creates it`);
  }
  return problems;
}
