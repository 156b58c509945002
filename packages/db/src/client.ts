import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import type { Config } from "@outreach/core";
import { PrismaClient } from "./generated/client.js";
import { startupParameters, TransactionPooledPool, type SessionSettings } from "./session-settings.js";

export type Db = PrismaClient;

export interface DbClientOptions extends SessionSettings {
  /** Connections in this process's pool. */
  poolMax?: number;
  /** The URL leads to a transaction-pooling PgBouncer: settings per transaction instead of startup parameters. */
  transactionPooling?: boolean;
}

/** The client options of an app's pool, from DATABASE_POOL_SIZE and the DATABASE_*_TIMEOUT_MS settings. */
export function dbClientOptions(config: Pick<Config, "database">): DbClientOptions {
  const { poolSize, statementTimeoutMs, lockTimeoutMs, idleInTransactionTimeoutMs, transactionPooling } = config.database;
  return { poolMax: poolSize, statementTimeoutMs, lockTimeoutMs, idleInTransactionTimeoutMs, transactionPooling };
}

/** The one way to make a Prisma client: the pg driver adapter, no Rust engine. */
export function createDbClient(databaseUrl: string, options: DbClientOptions = {}): Db {
  const poolConfig = {
    connectionString: databaseUrl,
    max: options.poolMax ?? 10,
    // also how long a statement outside a transaction waits for a free connection
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
  };
  const pool = options.transactionPooling ? new TransactionPooledPool(poolConfig, options) : new pg.Pool({ ...poolConfig, ...startupParameters(options) });
  // an idle connection that breaks is dropped by the pool; the next checkout reconnects
  pool.on("error", () => undefined);
  const client = new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
  pools.set(client, pool);
  return client;
}

const pools = new WeakMap<Db, pg.Pool>();

/**
 * The pg pool under a client made by createDbClient: the same connections
 * (DATABASE_POOL_SIZE per process), for hot and bulk statements that gain from
 * going through the driver as they are (no query compilation, no result
 * materialisation, no debug history of their arguments).
 */
export function poolOf(db: Db): pg.Pool | undefined {
  return pools.get(db);
}

export async function pingDatabase(db: Db): Promise<void> {
  await db.$queryRawUnsafe("SELECT 1");
}
