import type { Db } from "@outreach/db";
import { after, newestFirst, resolveCursor } from "../pagination.js";

export interface ListContactImportsInput {
  limit: number;
  startingAfter?: string;
}

/** The account's imports, newest first, without their invalid-row reports. */
export async function listContactImports(db: Db, accountId: string, input: ListContactImportsInput) {
  const cursor = await resolveCursor(input.startingAfter, "contact import", (id) =>
    db.contactImport.findFirst({ where: { id, accountId }, select: { id: true, createdAt: true } }),
  );
  return db.contactImport.findMany({
    where: { accountId, ...(cursor && after(cursor)) },
    orderBy: newestFirst,
    take: input.limit,
    omit: { invalidRows: true },
  });
}
