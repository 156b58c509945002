import type { Db } from "@outreach/db";
import { after, newestFirst, resolveCursor, rowsForPage, type PageInput } from "../pagination.js";
import { withCampaignIds } from "./get-outreach.js";

/** The account's outreaches, newest first, each with its campaign ids. */
export async function listOutreaches(db: Db, accountId: string, input: PageInput) {
  const cursor = await resolveCursor(input.startingAfter, "outreach", (id) => db.outreach.findFirst({ where: { id, accountId }, select: { id: true, createdAt: true } }));
  return db.outreach.findMany({
    where: { accountId, ...(cursor && after(cursor)) },
    orderBy: newestFirst,
    take: rowsForPage(input.limit),
    include: withCampaignIds(accountId),
  });
}
