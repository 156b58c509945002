import { pendingMigrations, type MigrationLog } from "./migrate.js";

export interface WaitForSchemaOptions {
  /** Give up after this long (ms). */
  timeoutMs: number;
  /** Time between two checks (ms). */
  intervalMs?: number;
  log?: MigrationLog;
}

export type WaitForSchemaResult = { ok: true; checks: number } | { ok: false; checks: number; reason: string };

/**
 * Polls until every migration of `migrationsDir` is applied to the database (see
 * pendingMigrations), logging which migration it waits for. An unreachable database is
 * waited for too (it may still be starting). Never applies anything itself.
 */
export async function waitForSchema(databaseUrl: string, migrationsDir: string, options: WaitForSchemaOptions): Promise<WaitForSchemaResult> {
  const { timeoutMs, intervalMs = 2_000, log } = options;
  const deadline = Date.now() + timeoutMs;
  let checks = 0;
  let last = "";
  for (;;) {
    checks += 1;
    let state: string;
    try {
      const pending = await pendingMigrations(databaseUrl, migrationsDir);
      if (pending.length === 0) {
        log?.info(`schema is up to date (${checks} check${checks === 1 ? "" : "s"})`);
        return { ok: true, checks };
      }
      state = `waiting for migration ${pending[0]} (${pending.length} pending)`;
    } catch (err) {
      state = `waiting for the database: ${(err as Error).message || (err as { code?: string }).code || String(err)}`;
    }
    // a line per check while it changes, then one every ~30 s, so a long wait does not flood the log
    if (state !== last || checks % Math.max(1, Math.round(30_000 / intervalMs)) === 0) log?.info(state);
    last = state;
    const left = deadline - Date.now();
    if (left <= 0) return { ok: false, checks, reason: state };
    await new Promise((resolve) => setTimeout(resolve, Math.min(intervalMs, left)));
  }
}
