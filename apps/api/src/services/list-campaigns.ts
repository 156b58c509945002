import type { Db } from "@outreach/db";
import { after, newestFirst, resolveCursor, type PageInput } from "../pagination.js";

/** The account's campaigns, newest first, a page at a time. */
export async function listCampaigns(db: Db, accountId: string, input: PageInput) {
  const cursor = await resolveCursor(input.startingAfter, "campaign", (id) =>
    db.campaign.findFirst({ where: { id, accountId }, select: { id: true, createdAt: true } }),
  );
  return db.campaign.findMany({
    where: { accountId, ...(cursor && after(cursor)) },
    orderBy: newestFirst,
    take: input.limit,
    select: { id: true, name: true, status: true, createdAt: true },
  });
}
