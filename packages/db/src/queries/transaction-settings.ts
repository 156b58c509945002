import { executor, type Queryable } from "./executor.js";

/* Settings for the rest of the caller's transaction (SET LOCAL: they end with it, also through a transaction-pooling PgBouncer). */

/**
 * For the rest of this transaction, plan with the cost of a random page read
 * of cached data or an SSD. A chunk touches a few thousand rows by key in
 * tables of millions; with the default cost (4, a spinning disk) PostgreSQL
 * picks a whole-table scan (or hash join) for each chunk's key lists, so every
 * chunk reads the table again (measured at 250k enrollments: 374 ms against
 * 43 ms per 5,000-row chunk).
 */
export async function preferIndexScans(q: Queryable): Promise<void> {
  await executor(q).execute(`SET LOCAL random_page_cost = 1.1`);
}

/**
 * For the rest of this transaction, no bitmap scans: rows freshly written
 * (without statistics yet) are then read in key order through the primary key,
 * a chunk at a time, instead of being sorted whole for each chunk.
 */
export async function disableBitmapScans(q: Queryable): Promise<void> {
  await executor(q).execute(`SET LOCAL enable_bitmapscan = off`);
}

/** For the rest of this transaction, wait up to `ms` for a row lock (instead of the pool's DATABASE_LOCK_TIMEOUT_MS). */
export async function setLockTimeout(q: Queryable, ms: number): Promise<void> {
  await executor(q).execute(`SELECT set_config('lock_timeout', $1, true)`, [`${Math.max(1, Math.round(ms))}ms`]);
}
