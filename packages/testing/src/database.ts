import { createHash, randomBytes } from "node:crypto";
import pg from "pg";
import { applyMigrations, createDbClient, listMigrations, MIGRATIONS_DIR, seedPlans, type Db } from "@outreach/db";

/** Server the test databases live on; the "postgres" database is used for admin commands. */
export const TEST_ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
export const TEST_DATABASE_PREFIX = "outreach_test_";

function urlFor(database: string): string {
  const url = new URL(TEST_ADMIN_URL);
  url.pathname = `/${database}`;
  return url.toString();
}

async function withAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_ADMIN_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function databaseExists(client: pg.Client, name: string): Promise<boolean> {
  const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
  return Boolean(rowCount);
}

/** The template's name changes whenever a migration changes, so a stale template is never cloned. */
export function templateDatabaseName(): string {
  const hash = createHash("sha256");
  for (const migration of listMigrations(MIGRATIONS_DIR)) hash.update(migration.name).update(migration.checksum);
  return `outreach_template_${hash.digest("hex").slice(0, 12)}`;
}

/** Creates (once, under an advisory lock) a migrated and seeded template database. */
export async function ensureTemplateDatabase(): Promise<string> {
  const name = templateDatabaseName();
  await withAdmin(async (client) => {
    await client.query("SELECT pg_advisory_lock(hashtext($1))", [name]);
    try {
      if (await databaseExists(client, name)) return;
      const building = `${name}_building`;
      await client.query(`DROP DATABASE IF EXISTS "${building}"`);
      await client.query(`CREATE DATABASE "${building}"`);
      await applyMigrations(urlFor(building), MIGRATIONS_DIR);
      const db = createDbClient(urlFor(building), { poolMax: 1 });
      try {
        await seedPlans(db);
      } finally {
        await db.$disconnect();
      }
      await client.query(`ALTER DATABASE "${building}" RENAME TO "${name}"`);
      await client.query(`ALTER DATABASE "${name}" WITH IS_TEMPLATE true`);
    } finally {
      await client.query("SELECT pg_advisory_unlock(hashtext($1))", [name]);
    }
  });
  return name;
}

export interface TestDatabase {
  name: string;
  url: string;
  db: Db;
  drop(): Promise<void>;
}

/** A fresh database for one test file, cloned from the migrated template (milliseconds, not seconds). */
export async function createTestDatabase(): Promise<TestDatabase> {
  const template = await ensureTemplateDatabase();
  const name = `${TEST_DATABASE_PREFIX}${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  await withAdmin(async (client) => {
    for (let attempt = 0; ; attempt++) {
      try {
        await client.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
        return;
      } catch (err) {
        // 55006: the template is briefly in use by another clone; try again
        if ((err as { code?: string }).code !== "55006" || attempt > 50) throw err;
        await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 100));
      }
    }
  });
  const url = urlFor(name);
  const db = createDbClient(url, { poolMax: 5 });
  return {
    name,
    url,
    db,
    async drop() {
      await db.$disconnect();
      await withAdmin((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}

/** Drops test databases left behind by killed runs (older than maxAgeMs, so a parallel run keeps its own). */
export async function dropLeftoverTestDatabases(maxAgeMs = 3 * 3600_000): Promise<number> {
  return withAdmin(async (client) => {
    const { rows } = await client.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname LIKE $1", [`${TEST_DATABASE_PREFIX}%`]);
    let dropped = 0;
    for (const { datname } of rows) {
      const createdAt = parseInt(datname.slice(TEST_DATABASE_PREFIX.length).split("_")[0] ?? "", 36);
      if (Number.isFinite(createdAt) && Date.now() - createdAt < maxAgeMs) continue;
      await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
      dropped++;
    }
    return dropped;
  });
}

/** A QUEUE_PREFIX of its own per test file, so files share one Redis without interfering. */
export function uniqueQueuePrefix(): string {
  return `test-${randomBytes(6).toString("hex")}`;
}
