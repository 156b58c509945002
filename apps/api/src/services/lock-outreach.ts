import { AppError } from "@outreach/core";
import type { Prisma } from "@outreach/db";
import { isUuid } from "../validation.js";

/**
 * Checks, inside the caller's transaction, that an outreach belongs to the
 * account, and key-share-locks it so it cannot be deleted before the campaign
 * that refers to it is written. Unknown, malformed or another account's: 404.
 */
export async function lockOutreach(tx: Prisma.TransactionClient, accountId: string, outreachId: string): Promise<void> {
  const rows = isUuid(outreachId)
    ? await tx.$queryRaw<Array<{ id: string }>>`
        SELECT id FROM outreaches WHERE id = ${outreachId}::uuid AND "accountId" = ${accountId}::uuid FOR KEY SHARE`
    : [];
  if (rows.length === 0) throw new AppError("outreach_not_found");
}
