import type { Db, Prisma } from "@outreach/db";

/** A Prisma client or an interactive transaction: domain functions take either. */
export type Tx = Db | Prisma.TransactionClient;

/** Runs fn in a transaction of its own when given a client, or in the caller's when given a transaction. */
export async function inTransaction<T>(db: Tx, fn: (tx: Tx) => Promise<T>): Promise<T> {
  if ("$transaction" in db) return db.$transaction((tx) => fn(tx));
  return fn(db);
}
