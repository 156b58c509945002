import type { Db } from "@outreach/db";
import { after, newestFirst, resolveCursor, rowsForPage, type PageInput } from "../pagination.js";

export interface ListContactsInput extends PageInput {
  /** Exact match on the stored (trimmed, lower-cased) address. */
  email?: string;
}

/** The account's contacts, newest first. */
export async function listContacts(db: Db, accountId: string, input: ListContactsInput) {
  const cursor = await resolveCursor(input.startingAfter, "contact", (id) => db.contact.findFirst({ where: { id, accountId }, select: { id: true, createdAt: true } }));
  return db.contact.findMany({
    where: { accountId, ...(input.email !== undefined && { email: input.email }), ...(cursor && after(cursor)) },
    orderBy: newestFirst,
    take: rowsForPage(input.limit),
  });
}
