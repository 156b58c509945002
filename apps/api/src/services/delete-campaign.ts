import { AppError } from "@outreach/core";
import type { Db } from "@outreach/db";
import { keepDeliveredLinks } from "@outreach/domain";
import { isUuid } from "../validation.js";

/**
 * Deletes a campaign; the database cascades to its sequence steps, SMTP
 * credentials, enrollments, enrollment skips and step sends. The links of
 * emails already delivered are kept first, so their unsubscribe links keep
 * working. Send jobs already queued find no step_send row and return early.
 */
export async function deleteCampaign(db: Db, accountId: string, id: string): Promise<void> {
  if (!isUuid(id)) throw new AppError("campaign_not_found");
  const count = await db.$transaction(
    async (tx) => {
      await keepDeliveredLinks(tx, accountId, id);
      const deleted = await tx.campaign.deleteMany({ where: { id, accountId } });
      return deleted.count;
    },
    { timeout: 120_000 },
  );
  if (count === 0) throw new AppError("campaign_not_found");
}
