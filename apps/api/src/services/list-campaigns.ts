import { queryRows, type CampaignStatus, type Db } from "@outreach/db";
import { resolveCursor, rowsForPage, type PageInput } from "../pagination.js";

export interface CampaignSummaryRow {
  id: string;
  name: string;
  status: CampaignStatus;
  createdAt: Date;
}

/**
 * The account's campaigns, newest first, a page at a time. The hottest read of
 * the API, so it is one prepared statement on campaigns_accountId_createdAt_idx
 * through the driver rather than a query the client has to compile on every call.
 */
export async function listCampaigns(db: Db, accountId: string, input: PageInput): Promise<CampaignSummaryRow[]> {
  const cursor = await resolveCursor(input.startingAfter, "campaign", (id) =>
    db.campaign.findFirst({ where: { id, accountId }, select: { id: true, createdAt: true } }),
  );
  if (!cursor) {
    return queryRows<CampaignSummaryRow>(
      db,
      `SELECT id, name, status::text AS status, "createdAt" FROM campaigns
       WHERE "accountId" = $1::uuid
       ORDER BY "createdAt" DESC, id DESC LIMIT $2`,
      [accountId, rowsForPage(input.limit)],
      "list_campaigns",
    );
  }
  return queryRows<CampaignSummaryRow>(
    db,
    `SELECT id, name, status::text AS status, "createdAt" FROM campaigns
     WHERE "accountId" = $1::uuid AND ("createdAt", id) < ($2::timestamptz, $3::uuid)
     ORDER BY "createdAt" DESC, id DESC LIMIT $4`,
    [accountId, cursor.createdAt, cursor.id, rowsForPage(input.limit)],
    "list_campaigns_after",
  );
}
