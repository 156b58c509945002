import { AppError } from "@outreach/core";
import type { Db } from "@outreach/db";
import { lockCampaign } from "./lock-campaign.js";

export interface CampaignStateResult {
  id: string;
  status: "active" | "paused";
  pausedReason: string | null;
}

/**
 * active -> paused (paused_reason "manual"), under the campaign row lock so a
 * concurrent resume or dispatch sees the outcome; otherwise 422
 * campaign_not_active. Scheduled sends stay as they are: the sender finds the
 * campaign paused and leaves them, and resume plans them again.
 */
export async function pauseCampaign(db: Db, accountId: string, campaignId: string): Promise<CampaignStateResult> {
  return db.$transaction(async (tx) => {
    const campaign = await lockCampaign(tx, accountId, campaignId, "update");
    if (campaign.status !== "active") throw new AppError("campaign_not_active", undefined, { status: campaign.status });
    const updated = await tx.campaign.update({ where: { id: campaign.id }, data: { status: "paused", pausedReason: "manual" } });
    return { id: updated.id, status: "paused", pausedReason: updated.pausedReason };
  });
}
