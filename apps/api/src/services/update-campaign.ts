import { AppError, type TypedQueue } from "@outreach/core";
import { lockCampaignWaitRange, type Db } from "@outreach/db";
import { resumeReplanJobId, type MxVerifier } from "@outreach/domain";
import { waitRangeMessage, type UpdateCampaignInput } from "../schemas/campaign.js";
import { isUuid } from "../validation.js";
import { checkFollowOnTargets } from "./follow-on-settings.js";
import { lockOutreach } from "./lock-outreach.js";
import { heldRecipientProviders } from "./held-recipient-providers.js";
import { replanAfterSettingsChange } from "./replan-after-settings-change.js";
import { campaignSettingsData } from "./campaign-settings-data.js";

export interface UpdateCampaignOptions {
  replanQueue: TypedQueue<"replan-held-sends">;
  chunkSize: number;
  /** "campaign." when the fields came wrapped, "" at the top level: names the field in errors */
  fieldPrefix: string;
  /** MX look-ups for the recipients' providers of a re-plan (match_recipient_provider) */
  mx?: MxVerifier;
}

/** Settings the plan of the held sends depends on: changing one plans them again. */
const PLAN_FIELDS = ["min_wait_seconds", "max_wait_seconds", "jitter_scope", "schedule", "daily_limit"] as const;

/**
 * Updates the given settings. The row is locked first, so the wait range is
 * checked against the stored bounds that the update actually replaces (two
 * concurrent PATCHes of min and max cannot leave max < min). An active
 * campaign's held sends are planned again when a setting their plan depends on
 * is in the update (a paused one's are planned again by its resume).
 */
export async function updateCampaign(db: Db, accountId: string, id: string, input: UpdateCampaignInput, options: UpdateCampaignOptions): Promise<void> {
  if (!isUuid(id)) throw new AppError("campaign_not_found");
  const prefix = options.fieldPrefix;
  // DNS before the transaction, only when the update may plan the held sends again
  const providers = PLAN_FIELDS.some((field) => input[field] !== undefined) ? await heldRecipientProviders(db, options.mx, accountId, id, options.chunkSize) : undefined;
  const replanBefore = await db.$transaction(
    async (tx) => {
      const campaign = await lockCampaignWaitRange(tx, accountId, id);
      if (!campaign) throw new AppError("campaign_not_found");

      const message = waitRangeMessage(input.min_wait_seconds ?? campaign.minWaitSeconds, input.max_wait_seconds ?? campaign.maxWaitSeconds, prefix);
      if (message) {
        const field = `${prefix}${input.max_wait_seconds !== undefined ? "max_wait_seconds" : "min_wait_seconds"}`;
        throw new AppError("validation_failed", message, { errors: [{ field, message }] });
      }
      if (input.outreach_id != null) await lockOutreach(tx, accountId, input.outreach_id);
      await checkFollowOnTargets(tx, accountId, campaign.id, input, prefix);

      await tx.campaign.update({
        where: { id: campaign.id },
        data: campaignSettingsData(input),
      });
      const replan = campaign.status === "active" && PLAN_FIELDS.some((field) => input[field] !== undefined);
      return replan ? replanAfterSettingsChange(tx, campaign.id, options.chunkSize, providers) : null;
    },
    { maxWait: 10_000, timeout: 30_000 },
  );
  // after the commit; should this add be lost, the dispatcher's sweep adds the same job (as a resume re-plan)
  if (replanBefore) {
    await options.replanQueue.add({ accountId, campaignId: id, reason: "schedule_changed" }, { jobId: resumeReplanJobId(id, replanBefore) });
  }
}
