import { AppError } from "@outreach/core";
import { lockCampaign as lockCampaignRow, type CampaignLockMode, type LockedCampaign, type Prisma } from "@outreach/db";
import { isUuid } from "../validation.js";

export type { CampaignLockMode, LockedCampaign };

/**
 * Locks one of the account's campaigns inside the caller's transaction, so
 * concurrent workflow actions on it run one after the other and each sees the
 * state the previous one left. Malformed, missing and foreign ids: 404 campaign_not_found.
 * FOR UPDATE for state changes; FOR NO KEY UPDATE for enrollments (see CampaignLockMode).
 */
export async function lockCampaign(tx: Prisma.TransactionClient, accountId: string, id: string, mode: CampaignLockMode = "update"): Promise<LockedCampaign> {
  if (!isUuid(id)) throw new AppError("campaign_not_found");
  const campaign = await lockCampaignRow(tx, accountId, id, mode);
  if (!campaign) throw new AppError("campaign_not_found");
  return campaign;
}
