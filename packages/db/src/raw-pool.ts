import pg from "pg";
import { startupParameters, TransactionPooledPool } from "./session-settings.js";
export { inRawTransaction } from "./raw-transaction.js";
import { poolOf, type Db, type DbClientOptions } from "./client.js";
import { fromDb } from "./queries/executor.js";

export type RawPool = pg.Pool;
export type RawClient = pg.PoolClient;

/**
 * A small pg pool beside the Prisma client, for bulk statements (big key and
 * value arrays, thousands of rows): they go through the driver as they are,
 * without the client's result materialisation or its debug history (which
 * keeps the arguments of its last calls). Same session settings as the app's
 * pool; idle connections close soon and never keep the process alive.
 */
export function createRawPool(databaseUrl: string, options: DbClientOptions = {}): RawPool {
  const config: pg.PoolConfig = {
    connectionString: databaseUrl,
    max: options.poolMax ?? 2,
    connectionTimeoutMillis: 30_000,
    idleTimeoutMillis: 5_000,
    allowExitOnIdle: true,
  };
  return options.transactionPooling ? new TransactionPooledPool(config, options) : new pg.Pool({ ...config, ...startupParameters(options) });
}

const poolsByClient = new WeakMap<object, RawPool>();

/**
 * The pg pool that goes with an app's Prisma client: the client's own pool
 * (poolOf: the same DATABASE_POOL_SIZE connections), or for a client made
 * otherwise a small one of two connections, made on first use with the same
 * settings, for the planners' bulk transactions.
 */
export function rawPoolFor(db: Db, databaseUrl: string, options: DbClientOptions, onError: (err: Error) => void): RawPool {
  const own = poolOf(db);
  if (own) return own;
  let pool = poolsByClient.get(db);
  if (!pool) {
    pool = createRawPool(databaseUrl, { ...options, poolMax: 2 });
    // an idle connection that breaks is dropped by the pool; the next checkout reconnects
    pool.on("error", onError);
    poolsByClient.set(db, pool);
  }
  return pool;
}

/**
 * A read on the client's own pg pool, bypassing the ORM (for the hottest
 * statements): with `name`, a prepared statement parsed and planned once per
 * connection, except through a transaction-pooling PgBouncer, where a
 * connection's prepared statements are not its own. Without a pool of its own
 * (a client made otherwise, or a transaction) it goes through the client.
 */
export async function queryRows<T>(db: Pick<Db, "$queryRawUnsafe">, text: string, values: unknown[], name?: string): Promise<T[]> {
  return fromDb(db as Db).rows<T>(text, values, { name });
}
