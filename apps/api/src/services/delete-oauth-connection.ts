import { AppError } from "@outreach/core";
import type { Db } from "@outreach/db";
import { isUuid } from "../validation.js";

/**
 * Deletes one of the account's connections (its tokens go with it; the
 * provider's grant stays until the mailbox's owner removes the app there).
 * 409 oauth_connection_in_use while credentials log in through it; 404
 * oauth_connection_not_found for a malformed, unknown or another account's id.
 */
export async function deleteOAuthConnection(db: Db, accountId: string, id: string): Promise<void> {
  if (!isUuid(id)) throw new AppError("oauth_connection_not_found");
  try {
    await deleteUnused(db, accountId, id);
  } catch (err) {
    // a credential made meanwhile refers to it (smtp_credentials_oauthConnectionId_fkey, on delete restrict)
    if ((err as { code?: unknown }).code === "P2003") throw new AppError("oauth_connection_in_use");
    throw err;
  }
}

async function deleteUnused(db: Db, accountId: string, id: string): Promise<void> {
  await db.$transaction(async (tx) => {
    const connection = await tx.oAuthConnection.findFirst({ where: { id, accountId }, select: { id: true } });
    if (!connection) throw new AppError("oauth_connection_not_found");
    const used = await tx.smtpCredential.count({ where: { oauthConnectionId: id } });
    if (used > 0) {
      throw new AppError("oauth_connection_in_use", `${used} credential${used === 1 ? "" : "s"} still log in through this connection: delete their campaigns first.`, { credentials_count: used });
    }
    await tx.oAuthConnection.delete({ where: { id } });
  });
}
