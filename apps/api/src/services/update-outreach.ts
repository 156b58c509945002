import { AppError } from "@outreach/core";
import type { Db } from "@outreach/db";
import { isUuid } from "../validation.js";
import { getOutreach } from "./get-outreach.js";

export interface UpdateOutreachInput {
  name?: string;
  uniqueContacts?: boolean;
}

/** Renames an outreach and/or switches unique_contacts (which governs enrollments made from now on). */
export async function updateOutreach(db: Db, accountId: string, id: string, input: UpdateOutreachInput) {
  if (!isUuid(id)) throw new AppError("outreach_not_found");
  return db.$transaction(async (tx) => {
    const { count } = await tx.outreach.updateMany({ where: { id, accountId }, data: { name: input.name, uniqueContacts: input.uniqueContacts } });
    if (count === 0) throw new AppError("outreach_not_found");
    return getOutreach(tx, accountId, id);
  });
}
