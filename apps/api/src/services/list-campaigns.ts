import type { CampaignStatus, Db } from "@outreach/db";
import { resolveCursor, type PageInput } from "../pagination.js";

export interface CampaignSummaryRow {
  id: string;
  name: string;
  status: CampaignStatus;
  createdAt: Date;
}

/**
 * The account's campaigns, newest first, a page at a time. The hottest read of
 * the API, so it is one plain statement on campaigns_accountId_createdAt_idx
 * rather than a query the client has to compile on every call.
 */
export async function listCampaigns(db: Db, accountId: string, input: PageInput): Promise<CampaignSummaryRow[]> {
  const cursor = await resolveCursor(input.startingAfter, "campaign", (id) =>
    db.campaign.findFirst({ where: { id, accountId }, select: { id: true, createdAt: true } }),
  );
  if (!cursor) {
    return db.$queryRaw<CampaignSummaryRow[]>`
      SELECT id, name, status::text AS status, "createdAt" FROM campaigns
      WHERE "accountId" = ${accountId}::uuid
      ORDER BY "createdAt" DESC, id DESC LIMIT ${input.limit}`;
  }
  return db.$queryRaw<CampaignSummaryRow[]>`
    SELECT id, name, status::text AS status, "createdAt" FROM campaigns
    WHERE "accountId" = ${accountId}::uuid AND ("createdAt", id) < (${cursor.createdAt}::timestamptz, ${cursor.id}::uuid)
    ORDER BY "createdAt" DESC, id DESC LIMIT ${input.limit}`;
}
