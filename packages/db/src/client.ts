import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/client.js";

export type Db = PrismaClient;

export interface DbClientOptions {
  /** Connections in this process's pool. */
  poolMax?: number;
}

/** The one way to make a Prisma client: the pg driver adapter, no Rust engine. */
export function createDbClient(databaseUrl: string, options: DbClientOptions = {}): Db {
  const adapter = new PrismaPg({
    connectionString: databaseUrl,
    max: options.poolMax ?? 10,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
  });
  return new PrismaClient({ adapter });
}

export async function pingDatabase(db: Db): Promise<void> {
  await db.$queryRawUnsafe("SELECT 1");
}
