import { AppError } from "@outreach/core";
import type { Db } from "@outreach/db";
import { rescheduleHeldSends } from "@outreach/domain";
import { lockCampaign } from "./lock-campaign.js";
import type { CampaignStateResult } from "./pause-campaign.js";

export interface ResumeResult extends CampaignStateResult {
  /** enrollments whose held step 1 (and later steps) were planned again from now */
  rescheduled: number;
}

/**
 * paused -> active (whatever paused it), otherwise 422 campaign_not_paused. In
 * the same transaction, under the campaign row lock, the sends held while it
 * was paused (step 1 still scheduled) are planned again from now, so a long
 * pause does not release a burst of overdue sends.
 */
export async function resumeCampaign(db: Db, accountId: string, campaignId: string): Promise<ResumeResult> {
  return db.$transaction(
    async (tx) => {
      const campaign = await lockCampaign(tx, accountId, campaignId, "update");
      if (campaign.status !== "paused") throw new AppError("campaign_not_paused", undefined, { status: campaign.status });
      await tx.campaign.update({ where: { id: campaign.id }, data: { status: "active", pausedReason: null } });
      const { scheduled } = await rescheduleHeldSends(tx, campaign.id);
      return { id: campaign.id, status: "active" as const, pausedReason: null, rescheduled: scheduled };
    },
    { maxWait: 10_000, timeout: 120_000 },
  );
}
