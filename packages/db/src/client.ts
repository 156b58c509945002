import { PrismaPg } from "@prisma/adapter-pg";
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
  const adapter = options.transactionPooling
    ? new PrismaPg(new TransactionPooledPool(poolConfig, options), { disposeExternalPool: true })
    : new PrismaPg({ ...poolConfig, ...startupParameters(options) });
  return new PrismaClient({ adapter });
}

export async function pingDatabase(db: Db): Promise<void> {
  await db.$queryRawUnsafe("SELECT 1");
}
