#!/usr/bin/env node
// Makes a new SQL migration from the change to prisma/schema.prisma, offline.
//
//   pnpm db:new-migration add_something   writes prisma/migrations/<ts>_add_something/
//   pnpm db:new-migration --check         exits 1 when the schema has unmigrated changes
//
// Prisma 7's `migrate diff` needs a schema-engine binary that cannot be downloaded
// here, so the diff runs on Prisma 6.19's bundled WASM schema engine (devDependency
// `prisma6`) between two datamodels: the schema as of the last migration
// (prisma/migrations/schema.snapshot.prisma) and the current one.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, copyFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const schemaPath = join(root, "prisma/schema.prisma");
const migrationsDir = join(root, "prisma/migrations");
const snapshotPath = join(migrationsDir, "schema.snapshot.prisma");

const arg = process.argv[2];
if (!arg) {
  console.error("usage: pnpm db:new-migration <snake_case_name> | --check");
  process.exit(2);
}
const check = arg === "--check";
if (!check && !/^[a-z0-9_]+$/.test(arg)) {
  console.error("migration name must be snake_case letters, digits and _");
  process.exit(2);
}

// Prisma 6 wants a url in the datasource block; Prisma 7 forbids it. Add it to copies.
function withUrl(source) {
  return source.replace(/datasource db \{([^}]*)\}/, (_m, body) => `datasource db {${body.trimEnd()}\n  url = env("DATABASE_URL")\n}`);
}

const work = mkdtempSync(join(tmpdir(), "outreach-migration-"));
try {
  const toSchema = join(work, "to.prisma");
  writeFileSync(toSchema, withUrl(readFileSync(schemaPath, "utf8")));
  const fromArgs = existsSync(snapshotPath)
    ? ["--from-schema-datamodel", (writeFileSync(join(work, "from.prisma"), withUrl(readFileSync(snapshotPath, "utf8"))), join(work, "from.prisma"))]
    : ["--from-empty"];
  const config = join(work, "prisma.config.mjs");
  writeFileSync(
    config,
    `import { PrismaPg } from ${JSON.stringify(join(root, "node_modules/@prisma/adapter-pg/dist/index.mjs"))};
export default {
  experimental: { adapter: true },
  engine: "js",
  schema: ${JSON.stringify(toSchema)},
  adapter: async () => new PrismaPg({ connectionString: process.env.DATABASE_URL }),
};
`,
  );
  const sql = execFileSync(
    process.execPath,
    [join(root, "node_modules/prisma6/build/index.js"), "migrate", "diff", ...fromArgs, "--to-schema-datamodel", toSchema, "--script", "--config", config],
    {
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
    },
  );
  const empty = sql.trim() === "" || /^-- This is an empty migration\.?$/m.test(sql.trim());
  if (check) {
    if (!empty) {
      console.error("prisma/schema.prisma has changes that no migration covers. Run: pnpm db:new-migration <name>\n" + sql);
      process.exit(1);
    }
    console.log("schema and migrations agree");
  } else if (empty) {
    console.log("no schema changes; nothing written");
  } else {
    const stamp = new Date().toISOString().replace(/[-:T]/g, "").slice(0, 14);
    const dir = join(migrationsDir, `${stamp}_${arg}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "migration.sql"), sql);
    copyFileSync(schemaPath, snapshotPath);
    console.log(`wrote ${dir}/migration.sql`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
