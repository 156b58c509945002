import { AppError, type TypedQueue } from "@outreach/core";
import type { Campaign, CampaignStatus, Db } from "@outreach/db";
import { allCredentialsAtDailyLimit, getPlanUsage, type Tx } from "@outreach/domain";
import { lockCampaign } from "./lock-campaign.js";

/** Why a dispatch was accepted but nothing was enqueued (SPEC dispatch rule 4). */
export type DispatchHeldReason = "campaign_paused" | "no_enabled_credentials" | "no_steps" | "daily_limit_reached";

export interface DispatchResult {
  campaignId: string;
  batchNumber: number;
  status: CampaignStatus;
  /** pending enrollments of the batch not dispatched yet */
  pending: number;
  queued: boolean;
  reason: DispatchHeldReason | null;
}

/** What a dispatch of this campaign would do now: the batch, its pending enrollments, and why it would be held (null: queued). */
export interface DispatchPlan {
  batchNumber: number;
  pending: number;
  heldReason: DispatchHeldReason | null;
}

/**
 * The checks of a dispatch, in order: 402 plan_limit_reached; the batch (the
 * given one, or the lowest with pending enrollments not dispatched yet nor
 * stopped) must have such enrollments, else 422 no_pending_enrollments; then
 * the cases where nothing is enqueued. Changes nothing.
 */
export async function planDispatch(tx: Tx, accountId: string, campaign: Pick<Campaign, "id" | "status">, requestedBatch: number | null): Promise<DispatchPlan> {
  const usage = await getPlanUsage(tx, accountId);
  if (usage.limitReached) {
    throw new AppError("plan_limit_reached", undefined, {
      current_period_sends: usage.currentPeriodSends,
      monthly_limit: usage.monthlyLimit,
      plan_slug: usage.planSlug,
    });
  }

  // a stopped enrollment (blocklisted, a colleague replied) is never dispatched, so it is not pending work
  const undispatched = { campaignId: campaign.id, status: "pending" as const, dispatchedAt: null, stoppedAt: null };
  let batchNumber = requestedBatch;
  if (batchNumber === null) {
    const next = await tx.enrollment.aggregate({ where: undispatched, _min: { batchNumber: true } });
    batchNumber = next._min.batchNumber;
  }
  const pending = batchNumber === null ? 0 : await tx.enrollment.count({ where: { ...undispatched, batchNumber } });
  if (batchNumber === null || pending === 0) {
    throw new AppError(
      "no_pending_enrollments",
      requestedBatch === null ? undefined : `Batch ${requestedBatch} has no pending enrollments to dispatch.`,
      requestedBatch === null ? undefined : { batch_number: requestedBatch },
    );
  }

  const plan = (heldReason: DispatchHeldReason | null): DispatchPlan => ({ batchNumber: batchNumber!, pending, heldReason });
  if (campaign.status === "paused") return plan("campaign_paused");
  if ((await tx.smtpCredential.count({ where: { campaignId: campaign.id, disabledAt: null } })) === 0) return plan("no_enabled_credentials");
  if ((await tx.sequenceStep.count({ where: { campaignId: campaign.id } })) === 0) return plan("no_steps");
  if (await allCredentialsAtDailyLimit(tx, campaign.id)) return plan("daily_limit_reached");
  return plan(null);
}

/**
 * Hands a batch to the dispatcher: 404 campaign_not_found, then planDispatch's
 * checks under the campaign row lock. A held dispatch is answered with queued:
 * false and the reason (SPEC dispatch rule 4). Otherwise a pending campaign
 * becomes active and, after the commit, one campaign-dispatch job is added;
 * the dispatcher turns the batch into scheduled sends.
 */
export async function dispatchCampaign(db: Db, queue: TypedQueue<"campaign-dispatch">, accountId: string, campaignId: string, requestedBatch: number | null): Promise<DispatchResult> {
  const result = await db.$transaction(async (tx): Promise<DispatchResult> => {
    const campaign = await lockCampaign(tx, accountId, campaignId, "update");
    const plan = await planDispatch(tx, accountId, campaign, requestedBatch);
    const answer = { campaignId: campaign.id, batchNumber: plan.batchNumber, pending: plan.pending };
    if (plan.heldReason !== null) return { ...answer, status: campaign.status, queued: false, reason: plan.heldReason };

    let status = campaign.status;
    if (status === "pending") {
      await tx.campaign.update({ where: { id: campaign.id }, data: { status: "active", pausedReason: null } });
      status = "active";
    }
    return { ...answer, status, queued: true, reason: null };
  });

  if (result.queued) await queue.add({ accountId, campaignId: result.campaignId, batchNumber: result.batchNumber });
  return result;
}
