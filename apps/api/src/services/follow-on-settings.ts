import { AppError } from "@outreach/core";
import { Prisma } from "@outreach/db";
import type { UpdateCampaignInput } from "../schemas/campaign.js";
import { isUuid } from "../validation.js";

type ReplyActionsInput = NonNullable<UpdateCampaignInput["reply_actions"]>;
type OnCompletionInput = UpdateCampaignInput["on_completion"];

/** reply_actions as stored in campaigns.replyActions: [{category, moveToCampaignId}]. */
export function replyActionsJson(actions: ReplyActionsInput): Prisma.InputJsonValue {
  return actions.map((action) => ({ category: action.category, moveToCampaignId: action.move_to_campaign_id }));
}

/** on_completion as stored in campaigns.onCompletion: {moveToCampaignId, waitDays}, or SQL NULL (never). */
export function onCompletionJson(onCompletion: NonNullable<OnCompletionInput> | null): Prisma.InputJsonValue | typeof Prisma.DbNull {
  if (onCompletion === null) return Prisma.DbNull;
  return { moveToCampaignId: onCompletion.move_to_campaign_id, waitDays: onCompletion.wait_days! };
}

/**
 * The follow-on campaigns named by reply_actions and on_completion must be
 * other campaigns of the account: an unknown id (or another account's) is 404
 * campaign_not_found, the campaign itself 422 validation_failed (a move to
 * itself would do nothing). `selfId` is null for a campaign being created.
 */
export async function checkFollowOnTargets(
  tx: Prisma.TransactionClient,
  accountId: string,
  selfId: string | null,
  input: Pick<UpdateCampaignInput, "reply_actions" | "on_completion">,
  prefix: string,
): Promise<void> {
  const named: Array<{ field: string; id: string }> = [
    ...(input.reply_actions ?? []).map((action, index) => ({ field: `${prefix}reply_actions[${index}].move_to_campaign_id`, id: action.move_to_campaign_id })),
    ...(input.on_completion ? [{ field: `${prefix}on_completion.move_to_campaign_id`, id: input.on_completion.move_to_campaign_id }] : []),
  ];
  const self = named.filter((target) => target.id === selfId);
  if (self.length > 0) {
    const errors = self.map(({ field }) => ({ field, message: `${field} must name another campaign: a campaign cannot move contacts into itself` }));
    throw new AppError("validation_failed", errors.map((e) => e.message).join(", "), { errors });
  }
  const ids = [...new Set(named.map((target) => target.id))];
  if (ids.length === 0) return;
  if (!ids.every(isUuid)) throw new AppError("campaign_not_found");
  const found = await tx.campaign.count({ where: { id: { in: ids }, accountId } });
  if (found !== ids.length) throw new AppError("campaign_not_found");
}
