// The live schema's two halves and how changes to them become migrations:
// prisma/schema.prisma (tables, columns, plain indexes, foreign keys, enums) and
// packages/db/sql/ (what Prisma's schema cannot express: SQL functions, triggers,
// partial indexes, check constraints, UNLOGGED tables), one current definition of each.
//
// Used by scripts/new-migration.mjs (which appends the sql/ objects changed since
// prisma/migrations/sql.snapshot.json to a new migration) and by the tests that prove
// the migrations build exactly these definitions (packages/db/test/live-schema.test.ts).
// Plain Node (no TypeScript), so `pnpm db:new-migration` needs no build; types in
// live-schema.d.mts.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository this script belongs to: where prisma6 and the pg adapter are installed. */
export const TOOL_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

export function schemaPath(root) {
  return join(root, "prisma/schema.prisma");
}
export function migrationsDir(root) {
  return join(root, "prisma/migrations");
}
export function sqlDir(root) {
  return join(root, "packages/db/sql");
}
/** packages/db/sql as of the last migration: the object keys, their statements' hashes and how to drop them. */
export function sqlSnapshotPath(root) {
  return join(migrationsDir(root), "sql.snapshot.json");
}

// Kinds in the order their files are applied (a trigger needs its function, an index
// may use a function), and the sub-directory each kind's files live in.
const KIND_ORDER = ["function", "persistence", "index", "constraint", "trigger"];
const DIR_ORDER = ["functions", "tables", "indexes", "constraints", "triggers"];

// ---------------------------------------------------------------- SQL text --

function skipQuoted(text, i, quote) {
  for (let j = i + 1; j < text.length; j++) {
    if (text[j] === quote) {
      if (text[j + 1] === quote) j++;
      else return j + 1;
    }
  }
  throw new Error(`unterminated ${quote} quote`);
}

/**
 * Splits SQL text into statements: [{ text, start, end, leadStart }] where text runs from the
 * statement's first token to its semicolon (comments inside it kept) and leadStart..start is
 * what precedes it (comments and blank lines since the previous statement). Knows comments,
 * quoted strings and identifiers, and dollar-quoted bodies.
 */
export function splitStatements(text) {
  const out = [];
  let start = -1;
  let leadStart = 0;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === "-" && text[i + 1] === "-") {
      const end = text.indexOf("\n", i);
      i = end < 0 ? text.length : end + 1;
      continue;
    }
    if (c === "/" && text[i + 1] === "*") {
      let depth = 1;
      i += 2;
      while (i < text.length && depth > 0) {
        if (text.startsWith("/*", i)) (depth++, (i += 2));
        else if (text.startsWith("*/", i)) (depth--, (i += 2));
        else i++;
      }
      continue;
    }
    if (start < 0) {
      if (/\s/.test(c)) {
        i++;
        continue;
      }
      start = i;
    }
    if (c === "'" || c === '"') {
      i = skipQuoted(text, i, c);
      continue;
    }
    if (c === "$" && !/[A-Za-z0-9_]/.test(text[i - 1] ?? "")) {
      const tag = /^\$(?:[A-Za-z_][A-Za-z0-9_]*)?\$/.exec(text.slice(i));
      if (tag) {
        const close = text.indexOf(tag[0], i + tag[0].length);
        if (close < 0) throw new Error(`unterminated ${tag[0]} body`);
        i = close + tag[0].length;
        continue;
      }
    }
    if (c === ";") {
      out.push({ text: text.slice(start, i + 1), start, end: i + 1, leadStart });
      start = -1;
      leadStart = i + 1;
    }
    i++;
  }
  if (start >= 0) throw new Error(`statement without a closing semicolon: ${text.slice(start, start + 60)}...`);
  return out;
}

/** The statement without comments, whitespace collapsed, for matching its shape. */
function flatten(statement) {
  let out = "";
  let i = 0;
  while (i < statement.length) {
    const c = statement[i];
    if (c === "-" && statement[i + 1] === "-") {
      const end = statement.indexOf("\n", i);
      i = end < 0 ? statement.length : end + 1;
      out += " ";
      continue;
    }
    if (c === "/" && statement[i + 1] === "*") {
      const end = statement.indexOf("*/", i + 2);
      i = end < 0 ? statement.length : end + 2;
      out += " ";
      continue;
    }
    if (c === "'" || c === '"') {
      const end = skipQuoted(statement, i, c);
      out += statement.slice(i, end);
      i = end;
      continue;
    }
    if (c === "$" && !/[A-Za-z0-9_]/.test(statement[i - 1] ?? "")) {
      const tag = /^\$(?:[A-Za-z_][A-Za-z0-9_]*)?\$/.exec(statement.slice(i));
      if (tag) {
        const close = statement.indexOf(tag[0], i + tag[0].length);
        const end = close < 0 ? statement.length : close + tag[0].length;
        out += statement.slice(i, end);
        i = end;
        continue;
      }
    }
    out += /\s/.test(c) ? " " : c;
    i++;
  }
  return out.replace(/ +/g, " ").trim();
}

/** Lower-cases what is not quoted and drops the spaces around punctuation: two spellings of one signature compare equal. */
function normalize(sql) {
  let out = "";
  let i = 0;
  while (i < sql.length) {
    const c = sql[i];
    if (c === "'" || c === '"') {
      const end = skipQuoted(sql, i, c);
      out += sql.slice(i, end);
      i = end;
      continue;
    }
    out += c.toLowerCase();
    i++;
  }
  return out
    .replace(/\s+/g, " ")
    .replace(/ ?([(),]) ?/g, "$1")
    .trim();
}

const IDENT = String.raw`(?:"(?:[^"]|"")+"|[A-Za-z_][A-Za-z0-9_$]*)`;
const QIDENT = String.raw`(?:${IDENT}\.)?${IDENT}`;

/** The object's name as PostgreSQL stores it ("Quoted" kept, bare folded to lower case); only the public schema. */
function identName(raw) {
  const parts = [];
  const re = new RegExp(IDENT, "y");
  let i = 0;
  while (i < raw.length) {
    re.lastIndex = i;
    const m = re.exec(raw);
    if (!m) break;
    const part = m[0];
    parts.push(part.startsWith('"') ? part.slice(1, -1).replace(/""/g, '"') : part.toLowerCase());
    i = re.lastIndex + 1; // past the dot
  }
  if (parts.length === 2 && parts[0] !== "public") throw new Error(`${raw}: only objects of the public schema are supported`);
  return parts[parts.length - 1];
}

export function quoteIdent(name) {
  return `"${name.replace(/"/g, '""')}"`;
}

/** The text inside the parenthesis that opens at `open`, and where it closes. */
function parenthesized(text, open) {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === "'" || c === '"') {
      i = skipQuoted(text, i, c) - 1;
      continue;
    }
    if (c === "(") depth++;
    else if (c === ")" && --depth === 0) return { inner: text.slice(open + 1, i), close: i };
  }
  throw new Error("unbalanced parentheses");
}

function splitTopLevel(text) {
  const parts = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "'" || c === '"') {
      i = skipQuoted(text, i, c) - 1;
      continue;
    }
    if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (c === "," && depth === 0) {
      parts.push(text.slice(from, i));
      from = i + 1;
    }
  }
  if (text.slice(from).trim()) parts.push(text.slice(from));
  return parts.map((p) => p.trim());
}

const FUNCTION_OPTION = /^ (?:LANGUAGE|AS|IMMUTABLE|STABLE|VOLATILE|STRICT|CALLED|SECURITY|EXTERNAL|PARALLEL|COST|ROWS|SUPPORT|SET|WINDOW|LEAKPROOF|NOT LEAKPROOF|TRANSFORM|RETURNS NULL)\b/i;

function functionSignature(flat, nameEnd) {
  const open = flat.indexOf("(", nameEnd);
  const { inner, close } = parenthesized(flat, open);
  const rest = flat.slice(close + 1);
  const returns = /^ ?RETURNS /i.exec(rest);
  let returnsClause = "";
  if (returns) {
    let depth = 0;
    let i = returns[0].length;
    for (; i < rest.length; i++) {
      const c = rest[i];
      if (c === "'" || c === '"') {
        i = skipQuoted(rest, i, c) - 1;
        continue;
      }
      if (c === "(") depth++;
      else if (c === ")") depth--;
      else if (depth === 0 && FUNCTION_OPTION.test(rest.slice(i))) break;
    }
    returnsClause = rest.slice(returns[0].length, i);
  }
  const args = splitTopLevel(inner);
  // DROP FUNCTION takes the arguments without their defaults (names and modes are allowed)
  const dropArgs = args.map((a) => a.replace(/\s+(?:DEFAULT\b|=)[\s\S]*$/i, "").trim());
  return { args: normalize(args.join(",")), dropArgs: dropArgs.join(", "), returns: normalize(returnsClause) };
}

// ---------------------------------------------------------------- objects --

/**
 * What one statement of a packages/db/sql file defines: its kind, name, identity key, the
 * statements that replace an existing definition (run before it), and the statement that
 * removes it. Throws on a statement this tool does not know how to replace.
 */
export function classifyStatement(statement) {
  const flat = flatten(statement);
  let m;
  if ((m = new RegExp(String.raw`^CREATE OR REPLACE FUNCTION (${QIDENT}) ?\(`, "i").exec(flat))) {
    const name = identName(m[1]);
    const sig = functionSignature(flat, m[0].length - 1);
    return {
      kind: "function",
      name,
      // the return type is part of the key: a change of it needs a DROP before the CREATE
      key: `function ${name}(${sig.args}) returns ${sig.returns}`,
      replace: [],
      drop: `DROP FUNCTION IF EXISTS ${quoteIdent(name)}(${sig.dropArgs});`,
    };
  }
  if ((m = new RegExp(String.raw`^CREATE (UNIQUE )?INDEX (CONCURRENTLY )?(IF NOT EXISTS )?(${QIDENT}) ON (?:ONLY )?(${QIDENT})`, "i").exec(flat))) {
    if (m[2]) throw new Error("CREATE INDEX CONCURRENTLY cannot run in a migration's transaction");
    if (m[3]) throw new Error("write CREATE INDEX without IF NOT EXISTS: the migration drops the old definition first");
    const name = identName(m[4]);
    const drop = `DROP INDEX IF EXISTS ${quoteIdent(name)};`;
    return { kind: "index", name, table: identName(m[5]), key: `index ${name}`, replace: [drop], drop };
  }
  if ((m = new RegExp(String.raw`^ALTER TABLE (?:ONLY )?(${QIDENT}) ADD CONSTRAINT (${IDENT}) `, "i").exec(flat))) {
    const table = identName(m[1]);
    const name = identName(m[2]);
    const drop = `ALTER TABLE IF EXISTS ${quoteIdent(table)} DROP CONSTRAINT IF EXISTS ${quoteIdent(name)};`;
    return { kind: "constraint", name, table, key: `constraint ${table}.${name}`, replace: [drop], drop };
  }
  if ((m = new RegExp(String.raw`^CREATE (?:OR REPLACE )?(?:CONSTRAINT )?TRIGGER (${IDENT}) (?:BEFORE|AFTER|INSTEAD OF) .*? ON (${QIDENT})`, "i").exec(flat))) {
    const name = identName(m[1]);
    const table = identName(m[2]);
    const drop = `DROP TRIGGER IF EXISTS ${quoteIdent(name)} ON ${quoteIdent(table)};`;
    return { kind: "trigger", name, table, key: `trigger ${table}.${name}`, replace: [drop], drop };
  }
  if ((m = new RegExp(String.raw`^ALTER TABLE (${QIDENT}) SET UNLOGGED ?;$`, "i").exec(flat))) {
    const table = identName(m[1]);
    return { kind: "persistence", name: table, table, key: `unlogged ${table}`, replace: [], drop: `ALTER TABLE IF EXISTS ${quoteIdent(table)} SET LOGGED;` };
  }
  throw new Error(
    "not a statement packages/db/sql knows how to replace (CREATE OR REPLACE FUNCTION, CREATE [UNIQUE] INDEX, " +
      "ALTER TABLE ... ADD CONSTRAINT, CREATE TRIGGER, ALTER TABLE ... SET UNLOGGED; add others to scripts/live-schema.mjs): " +
      flat.slice(0, 80),
  );
}

/**
 * Which objects a migration statement creates, replaces or drops (kind and name, no signature),
 * for telling which migration last changed an object. Other statements give null.
 */
export function touchedByStatement(statement) {
  const flat = flatten(statement);
  let m;
  if ((m = new RegExp(String.raw`^CREATE (?:OR REPLACE )?FUNCTION (${QIDENT})`, "i").exec(flat))) return { kind: "function", name: identName(m[1]) };
  if ((m = new RegExp(String.raw`^DROP FUNCTION (?:IF EXISTS )?(${QIDENT})`, "i").exec(flat))) return { kind: "function", name: identName(m[1]) };
  if ((m = new RegExp(String.raw`^CREATE (?:UNIQUE )?INDEX (?:CONCURRENTLY )?(?:IF NOT EXISTS )?(${QIDENT}) ON`, "i").exec(flat))) return { kind: "index", name: identName(m[1]) };
  if ((m = new RegExp(String.raw`^DROP INDEX (?:CONCURRENTLY )?(?:IF EXISTS )?(${QIDENT})`, "i").exec(flat))) return { kind: "index", name: identName(m[1]) };
  if ((m = new RegExp(String.raw`^ALTER TABLE (?:IF EXISTS )?(?:ONLY )?(${QIDENT}) (?:ADD|DROP) CONSTRAINT (?:IF EXISTS )?(${IDENT})`, "i").exec(flat)))
    return { kind: "constraint", name: identName(m[2]), table: identName(m[1]) };
  if ((m = new RegExp(String.raw`^CREATE (?:OR REPLACE )?(?:CONSTRAINT )?TRIGGER (${IDENT}) .*? ON (${QIDENT})`, "i").exec(flat)))
    return { kind: "trigger", name: identName(m[1]), table: identName(m[2]) };
  if ((m = new RegExp(String.raw`^DROP TRIGGER (?:IF EXISTS )?(${IDENT}) ON (${QIDENT})`, "i").exec(flat))) return { kind: "trigger", name: identName(m[1]), table: identName(m[2]) };
  if ((m = new RegExp(String.raw`^CREATE UNLOGGED TABLE (?:IF NOT EXISTS )?(${QIDENT})`, "i").exec(flat))) return { kind: "persistence", name: identName(m[1]) };
  if ((m = new RegExp(String.raw`^ALTER TABLE (?:IF EXISTS )?(${QIDENT}) SET (?:UN)?LOGGED`, "i").exec(flat))) return { kind: "persistence", name: identName(m[1]) };
  return null;
}

/** An object's identity without its signature: kind and name (and table, for the per-table names of triggers and constraints). */
export function touchKey(object) {
  return object.kind === "trigger" || object.kind === "constraint" ? `${object.kind} ${object.table}.${object.name}` : `${object.kind} ${object.name}`;
}

function sha256(text) {
  return createHash("sha256").update(text).digest("hex");
}

function filesUnder(dir, base = dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(path, base);
    return entry.name.endsWith(".sql") ? [relative(base, path)] : [];
  });
}

function fileOrder(file) {
  const index = DIR_ORDER.indexOf(file.split("/")[0]);
  return index < 0 ? DIR_ORDER.length : index;
}

/**
 * Every object the .sql files under `dir` define, in the order they are to be applied
 * (functions, tables, indexes, constraints, triggers; then file and statement order).
 * Each: file (relative to dir), statement text, sha256 of it, its doc comment, and what
 * classifyStatement says. Throws on an unknown statement or an object defined twice.
 */
export function readSqlObjects(dir) {
  const files = filesUnder(dir).sort((a, b) => fileOrder(a) - fileOrder(b) || a.localeCompare(b));
  const objects = [];
  const seen = new Map();
  for (const file of files) {
    const text = readFileSync(join(dir, file), "utf8");
    let statements;
    try {
      statements = splitStatements(text);
    } catch (err) {
      throw new Error(`packages/db/sql/${file}: ${err.message}`);
    }
    let doc = null;
    statements.forEach((statement, index) => {
      let info;
      try {
        info = classifyStatement(statement.text);
      } catch (err) {
        throw new Error(`packages/db/sql/${file}: ${err.message}`);
      }
      if (seen.has(info.key)) throw new Error(`${info.key} is defined twice: packages/db/sql/${seen.get(info.key)} and packages/db/sql/${file}`);
      seen.set(info.key, file);
      const lead = text.slice(statement.leadStart, statement.start);
      // a statement is documented by the nearest comment above it that says when it last changed
      if (/Last changed by migration:/.test(lead) || index === 0) doc = { file, start: statement.leadStart, end: statement.start, text: lead };
      objects.push({ ...info, file, statement: statement.text, sha256: sha256(statement.text), doc });
    });
  }
  return objects;
}

// ---------------------------------------------------------------- snapshot and migration SQL --

/** The manifest new-migration keeps in prisma/migrations/sql.snapshot.json. */
export function snapshotOf(objects) {
  const entries = [...objects].sort((a, b) => a.key.localeCompare(b.key)).map((o) => [o.key, { file: o.file, sha256: o.sha256, drop: o.drop }]);
  return {
    comment:
      "packages/db/sql as of the last migration, written by pnpm db:new-migration: the next migration gets the objects whose statements changed since (see packages/db/sql/README.md). Do not edit by hand.",
    objects: Object.fromEntries(entries),
  };
}

export function readSnapshot(root) {
  const path = sqlSnapshotPath(root);
  if (!existsSync(path)) return { objects: {} };
  return JSON.parse(readFileSync(path, "utf8"));
}

export function writeSnapshot(root, objects) {
  writeFileSync(sqlSnapshotPath(root), JSON.stringify(snapshotOf(objects), null, 2) + "\n");
}

/** What changed in packages/db/sql since the snapshot: objects added, changed (statement differs), removed. */
export function sqlChanges(snapshot, objects) {
  const before = snapshot.objects ?? {};
  const now = new Map(objects.map((o) => [o.key, o]));
  const added = objects.filter((o) => !before[o.key]);
  const changed = objects.filter((o) => before[o.key] && before[o.key].sha256 !== o.sha256);
  const removed = Object.entries(before)
    .filter(([key]) => !now.has(key))
    .map(([key, entry]) => ({ key, kind: key.split(" ")[0], ...entry }));
  return { added, changed, removed, empty: added.length + changed.length + removed.length === 0 };
}

/** One line per change, for --check and the new migration's summary. */
export function describeChanges(changes) {
  return [
    ...changes.added.map((o) => `  added    ${o.key}  (packages/db/sql/${o.file})`),
    ...changes.changed.map((o) => `  changed  ${o.key}  (packages/db/sql/${o.file})`),
    ...changes.removed.map((o) => `  removed  ${o.key}  (was in packages/db/sql/${o.file})`),
  ];
}

/** The statements that put `objects` in place whatever is there: each one's replace statements, then it. */
export function applySql(objects) {
  return objects.map((o) => [`-- packages/db/sql/${o.file}: ${o.key}`, ...o.replace, o.statement].join("\n")).join("\n\n") + "\n";
}

/**
 * The SQL a migration needs for `changes`: `before` (dropping removed objects, triggers first,
 * functions last) runs ahead of Prisma's part while their tables are still there; `after`
 * (added and changed objects, replacing the old definitions) runs after it.
 */
export function migrationSqlFor(changes, objects) {
  const removed = [...changes.removed].sort((a, b) => KIND_ORDER.indexOf(b.kind) - KIND_ORDER.indexOf(a.kind));
  const before = removed.length ? ["-- packages/db/sql: objects no longer defined there", ...removed.map((o) => `-- was in packages/db/sql/${o.file}: ${o.key}\n${o.drop}`)].join("\n") + "\n" : "";
  const wanted = new Set([...changes.added, ...changes.changed].map((o) => o.key));
  const put = objects.filter((o) => wanted.has(o.key));
  const after = put.length ? "-- packages/db/sql: the current definitions of what changed there (see packages/db/sql/README.md)\n" + applySql(put) : "";
  return { before, after };
}

/**
 * Writes `migration` into the "Last changed by migration:" line of the doc comment of each
 * object in `objects` (inserting the line above the statement where the comment has none).
 */
export function stampLastChanged(dir, objects, migration) {
  const byFile = new Map();
  for (const o of objects) {
    if (!o.doc) continue;
    const docs = byFile.get(o.file) ?? new Map();
    docs.set(o.doc.start, o.doc);
    byFile.set(o.file, docs);
  }
  for (const [file, docs] of byFile) {
    const path = join(dir, file);
    let text = readFileSync(path, "utf8");
    for (const doc of [...docs.values()].sort((a, b) => b.start - a.start)) {
      const lead = text.slice(doc.start, doc.end);
      const stamped = /Last changed by migration:[^\n]*/.test(lead)
        ? lead.replace(/Last changed by migration:[^\n]*/, `Last changed by migration: ${migration}`)
        : `${lead}-- Last changed by migration: ${migration}\n`;
      text = text.slice(0, doc.start) + stamped + text.slice(doc.end);
    }
    writeFileSync(path, text);
  }
}

// ---------------------------------------------------------------- Prisma's half --

// Prisma 6 wants a url in the datasource block; Prisma 7 forbids it. Added to copies.
function withUrl(source) {
  return source.replace(/datasource db \{([^}]*)\}/, (_m, body) => `datasource db {${body.trimEnd()}\n  url = env("DATABASE_URL")\n}`);
}

/**
 * The SQL that takes a database from the `from` datamodel (a schema.prisma file, or null for
 * an empty database) to the `to` one, from Prisma 6.19's bundled WASM schema engine
 * (devDependency `prisma6`): offline, no database involved. "" when there is nothing to do.
 */
export function prismaDiff(fromSchema, toSchema) {
  const work = mkdtempSync(join(tmpdir(), "outreach-migration-"));
  try {
    const to = join(work, "to.prisma");
    writeFileSync(to, withUrl(readFileSync(toSchema, "utf8")));
    let fromArgs = ["--from-empty"];
    if (fromSchema) {
      writeFileSync(join(work, "from.prisma"), withUrl(readFileSync(fromSchema, "utf8")));
      fromArgs = ["--from-schema-datamodel", join(work, "from.prisma")];
    }
    const config = join(work, "prisma.config.mjs");
    writeFileSync(
      config,
      `import { PrismaPg } from ${JSON.stringify(join(TOOL_ROOT, "node_modules/@prisma/adapter-pg/dist/index.mjs"))};
export default {
  experimental: { adapter: true },
  engine: "js",
  schema: ${JSON.stringify(to)},
  adapter: async () => new PrismaPg({ connectionString: process.env.DATABASE_URL }),
};
`,
    );
    const sql = execFileSync(process.execPath, [join(TOOL_ROOT, "node_modules/prisma6/build/index.js"), "migrate", "diff", ...fromArgs, "--to-schema-datamodel", to, "--script", "--config", config], {
      cwd: work,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        DATABASE_URL: process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres",
        PRISMA_QUERY_ENGINE_LIBRARY: process.execPath,
        PRISMA_SCHEMA_ENGINE_BINARY: process.execPath,
        PRISMA_HIDE_UPDATE_MESSAGE: "1",
      },
    });
    const empty = sql.trim() === "" || /^-- This is an empty migration\.?$/m.test(sql.trim());
    return empty ? "" : sql;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
