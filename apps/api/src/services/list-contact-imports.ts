import type { Db } from "@outreach/db";
import { after, newestFirst, resolveCursor, rowsForPage, type PageInput } from "../pagination.js";

/** The account's imports, newest first, without their invalid-row reports. */
export async function listContactImports(db: Db, accountId: string, input: PageInput) {
  const cursor = await resolveCursor(input.startingAfter, "contact import", (id) => db.contactImport.findFirst({ where: { id, accountId }, select: { id: true, createdAt: true } }));
  return db.contactImport.findMany({
    where: { accountId, ...(cursor && after(cursor)) },
    orderBy: newestFirst,
    take: rowsForPage(input.limit),
    omit: { invalidRows: true },
  });
}
