import { createHash, randomBytes } from "node:crypto";
import { applyMigrations, createDbClient, listMigrations, MIGRATIONS_DIR, seedPlans, type Db } from "@outreach/db";
import {
  createDatabase,
  databaseExists,
  databasesNamedLike,
  dropDatabaseIfExists,
  lockAdvisoryKey,
  markTemplateDatabase,
  renameDatabase,
  unlockAdvisoryKey,
  withPgConnection,
  type PgConnection,
} from "@outreach/db/testing";

/** Server the test databases live on; the "postgres" database is used for admin commands. */
export const TEST_ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
export const TEST_DATABASE_PREFIX = "outreach_test_";

function urlFor(database: string): string {
  const url = new URL(TEST_ADMIN_URL);
  url.pathname = `/${database}`;
  return url.toString();
}

function withAdmin<T>(fn: (client: PgConnection) => Promise<T>): Promise<T> {
  return withPgConnection(TEST_ADMIN_URL, fn);
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
    await lockAdvisoryKey(client, name);
    try {
      if (await databaseExists(client, name)) return;
      const building = `${name}_building`;
      await dropDatabaseIfExists(client, building);
      await createDatabase(client, building);
      await applyMigrations(urlFor(building), MIGRATIONS_DIR);
      const db = createDbClient(urlFor(building), { poolMax: 1 });
      try {
        await seedPlans(db);
      } finally {
        await db.$disconnect();
      }
      await renameDatabase(client, building, name);
      await markTemplateDatabase(client, name);
    } finally {
      await unlockAdvisoryKey(client, name);
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
        await createDatabase(client, name, template);
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
      await withAdmin((client) => dropDatabaseIfExists(client, name, { force: true }));
    },
  };
}

/** Drops test databases left behind by killed runs (older than maxAgeMs, so a parallel run keeps its own). */
export async function dropLeftoverTestDatabases(maxAgeMs = 3 * 3600_000): Promise<number> {
  return withAdmin(async (client) => {
    const names = await databasesNamedLike(client, `${TEST_DATABASE_PREFIX}%`);
    let dropped = 0;
    for (const datname of names) {
      const createdAt = parseInt(datname.slice(TEST_DATABASE_PREFIX.length).split("_")[0] ?? "", 36);
      if (Number.isFinite(createdAt) && Date.now() - createdAt < maxAgeMs) continue;
      await dropDatabaseIfExists(client, datname, { force: true });
      dropped++;
    }
    return dropped;
  });
}

/** A QUEUE_PREFIX of its own per test file, so files share one Redis without interfering. */
export function uniqueQueuePrefix(): string {
  return `test-${randomBytes(6).toString("hex")}`;
}
