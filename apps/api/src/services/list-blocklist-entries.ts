import type { Db } from "@outreach/db";
import { after, newestFirst, resolveCursor, rowsForPage, type PageInput } from "../pagination.js";

export interface ListBlocklistEntriesInput extends PageInput {
  kind?: "email" | "domain";
  /** exact match on the stored value (a lower-cased address, or a domain) */
  value?: string;
}

/** The account's blocklist, newest first. */
export async function listBlocklistEntries(db: Db, accountId: string, input: ListBlocklistEntriesInput) {
  const cursor = await resolveCursor(input.startingAfter, "blocklist entry", (id) => db.blocklistEntry.findFirst({ where: { id, accountId }, select: { id: true, createdAt: true } }));
  // PostgreSQL refuses NUL in text, and no stored value holds one: nothing matches
  if (input.value?.includes("\u0000")) return [];
  return db.blocklistEntry.findMany({
    where: {
      accountId,
      ...(input.kind !== undefined && { kind: input.kind }),
      ...(input.value !== undefined && { value: input.value }),
      ...(cursor && after(cursor)),
    },
    orderBy: newestFirst,
    take: rowsForPage(input.limit),
  });
}
