import { AppError } from "@outreach/core";
import { Prisma, type CampaignStatus } from "@outreach/db";
import { isUuid } from "../validation.js";

export interface LockedCampaign {
  id: string;
  accountId: string;
  outreachId: string | null;
  name: string;
  status: CampaignStatus;
  pausedReason: string | null;
}

/**
 * FOR UPDATE for state changes (dispatch, pause, resume); FOR NO KEY UPDATE for
 * enrollments, which must exclude those and each other but not the foreign-key
 * checks of rows written meanwhile by the workers (step sends, skips).
 */
export type CampaignLockMode = "update" | "no_key_update";

/**
 * Locks one of the account's campaigns inside the caller's transaction, so
 * concurrent workflow actions on it run one after the other and each sees the
 * state the previous one left. Malformed, missing and foreign ids: 404 campaign_not_found.
 */
export async function lockCampaign(tx: Prisma.TransactionClient, accountId: string, id: string, mode: CampaignLockMode = "update"): Promise<LockedCampaign> {
  if (!isUuid(id)) throw new AppError("campaign_not_found");
  const lock = mode === "update" ? Prisma.sql`FOR UPDATE` : Prisma.sql`FOR NO KEY UPDATE`;
  const [campaign] = await tx.$queryRaw<LockedCampaign[]>`
    SELECT id, "accountId", "outreachId", name, status::text AS status, "pausedReason" FROM campaigns
    WHERE id = ${id}::uuid AND "accountId" = ${accountId}::uuid ${lock}`;
  if (!campaign) throw new AppError("campaign_not_found");
  return campaign;
}
