import { AppError } from "@outreach/core";
import type { Db } from "@outreach/db";
import { waitRangeMessage, type UpdateCampaignInput } from "../schemas/campaign.js";
import { isUuid } from "../validation.js";
import { lockOutreach } from "./lock-outreach.js";

interface LockedCampaign {
  id: string;
  minWaitSeconds: number;
  maxWaitSeconds: number;
}

/**
 * Updates the given settings. The row is locked first, so the wait range is
 * checked against the stored bounds that the update actually replaces (two
 * concurrent PATCHes of min and max cannot leave max < min).
 */
export async function updateCampaign(db: Db, accountId: string, id: string, input: UpdateCampaignInput): Promise<void> {
  if (!isUuid(id)) throw new AppError("campaign_not_found");
  await db.$transaction(async (tx) => {
    const [campaign] = await tx.$queryRaw<LockedCampaign[]>`
      SELECT id, "minWaitSeconds", "maxWaitSeconds" FROM campaigns
      WHERE id = ${id}::uuid AND "accountId" = ${accountId}::uuid FOR UPDATE`;
    if (!campaign) throw new AppError("campaign_not_found");

    const message = waitRangeMessage(input.min_wait_seconds ?? campaign.minWaitSeconds, input.max_wait_seconds ?? campaign.maxWaitSeconds);
    if (message) {
      const field = input.max_wait_seconds !== undefined ? "campaign.max_wait_seconds" : "campaign.min_wait_seconds";
      throw new AppError("validation_failed", message, { errors: [{ field, message }] });
    }
    if (input.outreach_id != null) await lockOutreach(tx, accountId, input.outreach_id);

    await tx.campaign.update({
      where: { id: campaign.id },
      data: {
        name: input.name,
        outreachId: input.outreach_id,
        minWaitSeconds: input.min_wait_seconds,
        maxWaitSeconds: input.max_wait_seconds,
        verifyEmailMx: input.verify_email_mx,
        bounceRateThreshold: input.bounce_rate_threshold,
      },
    });
  });
}
