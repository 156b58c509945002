import { listCampaignJsonPage, listCampaignPage, type CampaignSummaryRow, type Db } from "@outreach/db";
import { resolveCursor, rowsForPage, type PageInput } from "../pagination.js";

function cursorOf(db: Db, accountId: string, input: PageInput) {
  return resolveCursor(input.startingAfter, "campaign", (id) => db.campaign.findFirst({ where: { id, accountId }, select: { id: true, createdAt: true } }));
}

/** The account's campaigns, newest first, a page at a time (rows: for an MCP tool's answer). */
export async function listCampaigns(db: Db, accountId: string, input: PageInput): Promise<CampaignSummaryRow[]> {
  return listCampaignPage(db, accountId, rowsForPage(input.limit), await cursorOf(db, accountId, input));
}

/**
 * The same page, each campaign as the JSON text GET /campaigns answers with
 * (the hottest read of the API: see listCampaignJsonPage); for sendJsonRows.
 */
export async function listCampaignsJson(db: Db, accountId: string, input: PageInput): Promise<Array<{ id: string; json: string }>> {
  const cursor = input.startingAfter === undefined ? undefined : await cursorOf(db, accountId, input);
  return listCampaignJsonPage(db, accountId, rowsForPage(input.limit), cursor);
}
