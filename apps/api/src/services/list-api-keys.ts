import type { Db } from "@outreach/db";
import { after, newestFirst, resolveCursor, rowsForPage, type PageInput } from "../pagination.js";

/**
 * The account's active keys, newest first, a page at a time. starting_after may
 * name a key revoked since the previous page: it still marks the place.
 */
export async function listApiKeys(db: Db, accountId: string, input: PageInput) {
  const cursor = await resolveCursor(input.startingAfter, "API key", (id) => db.apiKey.findFirst({ where: { id, accountId }, select: { id: true, createdAt: true } }));
  return db.apiKey.findMany({ where: { accountId, revokedAt: null, ...(cursor && after(cursor)) }, orderBy: newestFirst, take: rowsForPage(input.limit) });
}
