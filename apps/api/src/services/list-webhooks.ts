import type { Db } from "@outreach/db";
import { after, newestFirst, resolveCursor, rowsForPage, type PageInput } from "../pagination.js";

/** The account's webhooks, newest first, a page at a time. */
export async function listWebhooks(db: Db, accountId: string, input: PageInput) {
  const cursor = await resolveCursor(input.startingAfter, "webhook", (id) => db.webhook.findFirst({ where: { id, accountId }, select: { id: true, createdAt: true } }));
  return db.webhook.findMany({ where: { accountId, ...(cursor && after(cursor)) }, orderBy: newestFirst, take: rowsForPage(input.limit) });
}
