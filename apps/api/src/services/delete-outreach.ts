import { AppError } from "@outreach/core";
import { lockOutreachForUpdate, type Db } from "@outreach/db";
import { isUuid } from "../validation.js";
import { getOutreach } from "./get-outreach.js";

/**
 * Deletes an outreach. Its campaigns stay, detached (outreach_id becomes null through
 * the foreign key's ON DELETE SET NULL). Returns the outreach as it was, so
 * campaign_ids names the campaigns that were detached: the row is locked first, so
 * a campaign being attached concurrently (which key-share-locks the outreach) is
 * either committed and listed, or waits and then finds the outreach gone.
 */
export async function deleteOutreach(db: Db, accountId: string, id: string) {
  if (!isUuid(id)) throw new AppError("outreach_not_found");
  return db.$transaction(async (tx) => {
    if (!(await lockOutreachForUpdate(tx, accountId, id))) throw new AppError("outreach_not_found");
    const outreach = await getOutreach(tx, accountId, id);
    await tx.outreach.delete({ where: { id } });
    return outreach;
  });
}
