import type pg from "pg";
import { poolOf, type Db } from "../client.js";
import { TransactionPooledPool } from "../session-settings.js";

/**
 * Where a statement runs. Every query module takes one, so a statement is
 * written once and runs the same whichever way the caller holds its
 * connection: a Prisma client or interactive transaction (fromPrisma), a pg
 * connection inside inRawTransaction or a pg pool (fromPg), or the app
 * client's own pool as queryRows does (fromDb). The text and parameters go
 * through unchanged: one statement on the wire per call, in the caller's
 * connection and transaction.
 *
 * Results: both drivers map text, uuid, int2/int4, boolean, timestamptz and
 * jsonb alike; they differ on int8, numeric and date (Prisma: bigint, Decimal,
 * Date; pg: strings, and date as a local Date), so a statement meant for both
 * casts those (count(*)::int, day::text).
 */
export interface Executor {
  /** The rows the statement returns. `name`: a prepared statement, where the executor can keep one (fromDb). */
  rows<T>(text: string, params?: readonly unknown[], options?: { name?: string }): Promise<T[]>;
  /**
   * The first column of each row, without an object per row (a pg
   * connection reads them with rowMode "array"): for long lists of ids.
   */
  values<T>(text: string, params?: readonly unknown[]): Promise<T[]>;
  /** Runs the statement: the number of rows it inserted, updated or deleted (its command count). */
  execute(text: string, params?: readonly unknown[]): Promise<number>;
}

const firstValue = (row: Record<string, unknown>): unknown => {
  for (const key in row) return row[key];
  return undefined;
};

/** A Prisma client or an interactive transaction. */
export type PrismaQueryable = Pick<Db, "$queryRawUnsafe" | "$executeRawUnsafe">;

/** A pg connection (a pool's, e.g. inside inRawTransaction) or a pg pool. */
export type PgQueryable = { query: pg.ClientBase["query"] } | { query: pg.Pool["query"] };

/** What a query function accepts: an executor, or anything one is made from (see executor). */
export type Queryable = Executor | PrismaQueryable | PgQueryable;

/** $queryRawUnsafe / $executeRawUnsafe: what a tagged $queryRaw`...` sends too (the same text with $1.., the same values). */
export function fromPrisma(tx: PrismaQueryable): Executor {
  return {
    rows: <T>(text: string, params: readonly unknown[] = []) => tx.$queryRawUnsafe<T[]>(text, ...params),
    values: async <T>(text: string, params: readonly unknown[] = []) => (await tx.$queryRawUnsafe<Array<Record<string, unknown>>>(text, ...params)).map(firstValue) as T[],
    execute: (text, params = []) => tx.$executeRawUnsafe(text, ...params),
  };
}

/**
 * query(text, values): unnamed. On a connection it runs in the caller's
 * transaction; on a TransactionPooledPool (behind a transaction-pooling
 * PgBouncer) each statement gets a transaction of its own with the session
 * settings, as through fromDb. values() goes as query({ text, values,
 * rowMode: "array" }).
 */
export function fromPg(client: PgQueryable): Executor {
  const query = client.query.bind(client) as {
    (text: string, values: unknown[]): Promise<pg.QueryResult>;
    (config: pg.QueryArrayConfig): Promise<pg.QueryArrayResult>;
  };
  return {
    rows: async <T>(text: string, params: readonly unknown[] = []) => (await query(text, params as unknown[])).rows as T[],
    values: async <T>(text: string, params: readonly unknown[] = []) => (await query({ text, values: params as unknown[], rowMode: "array" })).rows.map((row) => row[0]) as T[],
    execute: async (text, params = []) => (await query(text, params as unknown[])).rowCount ?? 0,
  };
}

/**
 * The app client's own pg pool, bypassing the ORM (the hottest statements):
 * query(config), so through a transaction-pooling PgBouncer each statement
 * gets its own transaction with the session settings; with `name`, a prepared
 * statement parsed and planned once per connection, except through such a
 * pooler, where a connection's prepared statements are not its own. A client
 * without a pool of its own (made otherwise, or a transaction) goes through
 * Prisma.
 */
export function fromDb(db: PrismaQueryable): Executor {
  const pool = poolOf(db as Db);
  if (!pool) return fromPrisma(db);
  return {
    rows: async <T>(text: string, params: readonly unknown[] = [], options: { name?: string } = {}) => {
      const prepared = options.name && !(pool instanceof TransactionPooledPool) ? { name: options.name } : {};
      return (await pool.query({ text, values: params as unknown[], ...prepared })).rows as T[];
    },
    values: async <T>(text: string, params: readonly unknown[] = []) => (await pool.query({ text, values: params as unknown[], rowMode: "array" })).rows.map((row: unknown[]) => row[0]) as T[],
    execute: async (text, params = []) => (await pool.query({ text, values: params as unknown[] })).rowCount ?? 0,
  };
}

/** An executor as it is; a Prisma client or transaction through fromPrisma; a pg connection or pool through fromPg. */
export function executor(source: Queryable): Executor {
  if ("$queryRawUnsafe" in source) return fromPrisma(source);
  if ("query" in source && typeof source.query === "function") return fromPg(source as PgQueryable);
  return source as Executor;
}
