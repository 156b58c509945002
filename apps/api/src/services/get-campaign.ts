import type { Db } from "@outreach/db";
import { findCampaignWithRelations } from "./find-campaign.js";
import { getCampaignStats } from "./get-campaign-stats.js";

/** A campaign with its steps, credentials and statistics: what GET /campaigns/:id shows. */
export async function getCampaign(db: Db, accountId: string, id: string) {
  const campaign = await findCampaignWithRelations(db, accountId, id);
  return { campaign, stats: await getCampaignStats(db, campaign) };
}
