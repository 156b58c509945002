import { listCampaignPage, type CampaignSummaryRow, type Db } from "@outreach/db";
import { resolveCursor, rowsForPage, type PageInput } from "../pagination.js";

/**
 * The account's campaigns, newest first, a page at a time. The hottest read of
 * the API, so it is one prepared statement on campaigns_accountId_createdAt_idx
 * through the driver rather than a query the client has to compile on every call.
 */
export async function listCampaigns(db: Db, accountId: string, input: PageInput): Promise<CampaignSummaryRow[]> {
  const cursor = await resolveCursor(input.startingAfter, "campaign", (id) => db.campaign.findFirst({ where: { id, accountId }, select: { id: true, createdAt: true } }));
  return listCampaignPage(db, accountId, rowsForPage(input.limit), cursor);
}
