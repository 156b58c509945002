import { AppError } from "@outreach/core";
import type { Db } from "@outreach/db";
import { isUuid } from "../validation.js";

/**
 * Deletes a campaign; the database cascades to its sequence steps, SMTP
 * credentials, enrollments, enrollment skips and step sends. Send jobs already
 * queued find no step_send row and return early.
 */
export async function deleteCampaign(db: Db, accountId: string, id: string): Promise<void> {
  const { count } = isUuid(id) ? await db.campaign.deleteMany({ where: { id, accountId } }) : { count: 0 };
  if (count === 0) throw new AppError("campaign_not_found");
}
