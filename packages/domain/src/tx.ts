import type { Db, Prisma } from "@outreach/db";

/** A Prisma client or an interactive transaction: domain functions take either. */
export type Tx = Db | Prisma.TransactionClient;
