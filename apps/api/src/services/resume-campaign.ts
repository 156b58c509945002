import { AppError, type TypedQueue } from "@outreach/core";
import { countHeldStep1Sends, resumeWithReplan, type Db } from "@outreach/db";
import { rescheduleHeldSends, resumeReplanJobId, type MxVerifier } from "@outreach/domain";
import { heldRecipientProviders } from "./held-recipient-providers.js";
import { lockCampaign } from "./lock-campaign.js";
import type { CampaignStateResult } from "./pause-campaign.js";

export interface ResumeResult extends CampaignStateResult {
  /** enrollments whose held step 1 (and later steps) were, or are being, planned again from now */
  rescheduled: number;
  /** true when the re-plan was handed to a job: the campaign's sends are released once it is done */
  resuming: boolean;
}

/**
 * paused -> active (whatever paused it), otherwise 422 campaign_not_paused. The
 * sends held while it was paused (step 1 still scheduled) are planned again from
 * now, so a long pause does not release a burst of overdue sends. Up to one
 * chunk (DISPATCH_CHUNK_SIZE step rows) is planned in this request's
 * transaction, under the campaign row lock. A bigger backlog is handed to the
 * replan-held-sends job: the campaign is active at once, and
 * campaigns.resumeReplanBefore, kept until the job's last chunk, holds back the
 * release of the campaign's sends (release_due_sends skips it: see
 * packages/db/sql/functions/release_due_sends.sql), so none goes out
 * at its stale time. A resume after a pause during a re-plan keeps the re-plan
 * that is still running.
 */
export async function resumeCampaign(db: Db, queue: TypedQueue<"replan-held-sends">, chunkSize: number, accountId: string, campaignId: string, mx?: MxVerifier): Promise<ResumeResult> {
  // match_recipient_provider: the providers of the recipients a re-plan here would take, looked up before the transaction
  const recipientProviders = await heldRecipientProviders(db, mx, accountId, campaignId, chunkSize);
  const result = await db.$transaction(
    async (tx): Promise<ResumeResult & { replanBefore: Date | null }> => {
      const campaign = await lockCampaign(tx, accountId, campaignId, "update");
      if (campaign.status !== "paused") throw new AppError("campaign_not_paused", undefined, { status: campaign.status });
      const { resumeReplanBefore } = await tx.campaign.findUniqueOrThrow({ where: { id: campaign.id }, select: { resumeReplanBefore: true } });
      if (resumeReplanBefore) {
        await tx.campaign.update({ where: { id: campaign.id }, data: { status: "active", pausedReason: null } });
        const left = await countHeldStep1Sends(tx, campaign.id, resumeReplanBefore);
        return { id: campaign.id, status: "active", pausedReason: null, rescheduled: left, resuming: true, replanBefore: resumeReplanBefore };
      }

      const held = await countHeldStep1Sends(tx, campaign.id);
      const steps = Math.max(1, await tx.sequenceStep.count({ where: { campaignId: campaign.id } }));
      if (held * steps <= chunkSize) {
        await tx.campaign.update({ where: { id: campaign.id }, data: { status: "active", pausedReason: null } });
        const { scheduled } = await rescheduleHeldSends(tx, campaign.id, { recipientProviders });
        return { id: campaign.id, status: "active", pausedReason: null, rescheduled: scheduled, resuming: false, replanBefore: null };
      }
      const replanBefore = await resumeWithReplan(tx, campaign.id);
      return { id: campaign.id, status: "active", pausedReason: null, rescheduled: held, resuming: true, replanBefore };
    },
    { maxWait: 10_000, timeout: 30_000 },
  );
  // after the commit; should this add be lost, the dispatcher's sweep adds the same job
  if (result.replanBefore) {
    await queue.add({ accountId, campaignId: result.id, reason: "resume" }, { jobId: resumeReplanJobId(result.id, result.replanBefore) });
  }
  const { replanBefore: _, ...answer } = result;
  return answer;
}
