import { createHash, randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";

export interface MigrationLog {
  info(message: string): void;
}

const silent: MigrationLog = { info: () => undefined };

/** Creates the database named in the URL if it does not exist (connects to "postgres" to do it). */
export async function ensureDatabase(databaseUrl: string, log: MigrationLog = silent): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.replace(/^\//, ""));
  if (!name) throw new Error("DATABASE_URL names no database");
  const admin = new URL(databaseUrl);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (!rowCount) {
      try {
        await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
        log.info(`created database ${name}`);
      } catch (err) {
        // another process created it between our check and our create
        if ((err as { code?: string }).code !== "42P04") throw err;
      }
    }
  } finally {
    await client.end();
  }
}

const MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

// Any fixed 64-bit number; held for the whole run so concurrent deploys apply in turn.
const MIGRATION_LOCK_ID = 7_204_311_902;

export interface MigrationResult {
  applied: string[];
  alreadyApplied: string[];
}

export function listMigrations(migrationsDir: string): Array<{ name: string; sql: string; checksum: string }> {
  return readdirSync(migrationsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(migrationsDir, entry.name, "migration.sql")))
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(join(migrationsDir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

/**
 * Applies prisma/migrations in order, each in its own transaction, recorded in
 * Prisma's own `_prisma_migrations` table (same columns and checksums as
 * `prisma migrate deploy`, so either tool sees the same history). Works offline:
 * no schema engine is involved.
 */
export async function applyMigrations(databaseUrl: string, migrationsDir: string, log: MigrationLog = silent): Promise<MigrationResult> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const result: MigrationResult = { applied: [], alreadyApplied: [] };
  try {
    await client.query("SET client_min_messages TO warning");
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_ID]);
    await client.query(MIGRATIONS_TABLE);
    const { rows } = await client.query<{ migration_name: string; checksum: string; finished_at: Date | null; rolled_back_at: Date | null }>(
      `SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations"`,
    );
    const done = new Map(rows.filter((r) => r.finished_at && !r.rolled_back_at).map((r) => [r.migration_name, r.checksum]));
    const failed = rows.filter((r) => !r.finished_at && !r.rolled_back_at).map((r) => r.migration_name);
    if (failed.length) throw new Error(`migration ${failed[0]} failed earlier and was not rolled back; fix it by hand, then mark it rolled back`);

    for (const migration of listMigrations(migrationsDir)) {
      const recorded = done.get(migration.name);
      if (recorded) {
        if (recorded !== migration.checksum) log.info(`warning: migration ${migration.name} was edited after it was applied`);
        result.alreadyApplied.push(migration.name);
        continue;
      }
      const id = randomUUID();
      await client.query("BEGIN");
      try {
        await client.query(migration.sql);
        await client.query(`INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count) VALUES ($1, $2, $3, now(), now(), 1)`, [
          id,
          migration.checksum,
          migration.name,
        ]);
        await client.query("COMMIT");
      } catch (err) {
        await client.query("ROLLBACK");
        throw new Error(`migration ${migration.name} failed: ${(err as Error).message}`);
      }
      result.applied.push(migration.name);
      log.info(`applied migration ${migration.name}`);
    }
  } finally {
    // a session lock: it goes with the connection, which is closed next
    await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_ID]).catch(() => undefined);
    await client.end();
  }
  return result;
}

/**
 * The migrations of `migrationsDir` that the database has not applied yet, in order (all of them
 * when the database or the migrations table does not exist yet). Applied means recorded as
 * finished and not rolled back in `_prisma_migrations`, as applyMigrations records it. Read-only:
 * it takes no lock and creates nothing.
 */
export async function pendingMigrations(databaseUrl: string, migrationsDir: string): Promise<string[]> {
  const names = listMigrations(migrationsDir).map((m) => m.name);
  const client = new pg.Client({ connectionString: databaseUrl });
  try {
    await client.connect();
  } catch (err) {
    // 3D000: the database does not exist yet (nothing is applied)
    if ((err as { code?: string }).code === "3D000") return names;
    throw err;
  }
  try {
    const { rows: exists } = await client.query<{ table: string | null }>(`SELECT to_regclass('"_prisma_migrations"')::text AS table`);
    if (!exists[0]?.table) return names;
    const { rows } = await client.query<{ migration_name: string }>(`SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`);
    const applied = new Set(rows.map((r) => r.migration_name));
    return names.filter((name) => !applied.has(name));
  } finally {
    await client.end();
  }
}
