import { AppError } from "@outreach/core";
import { keyShareLockOutreach, type Prisma } from "@outreach/db";
import { isUuid } from "../validation.js";

/**
 * Checks, inside the caller's transaction, that an outreach belongs to the
 * account, and key-share-locks it so it cannot be deleted before the campaign
 * that refers to it is written. Unknown, malformed or another account's: 404.
 */
export async function lockOutreach(tx: Prisma.TransactionClient, accountId: string, outreachId: string): Promise<void> {
  const locked = isUuid(outreachId) && (await keyShareLockOutreach(tx, accountId, outreachId));
  if (!locked) throw new AppError("outreach_not_found");
}
