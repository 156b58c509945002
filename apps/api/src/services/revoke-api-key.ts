import { AppError } from "@outreach/core";
import { lockAccount, type Db } from "@outreach/db";
import type { ApiKeyCache } from "../api-key-cache.js";

/**
 * Revokes a key unless it is the account's last active one. The account row is
 * locked first, so two concurrent revocations cannot each leave the other as
 * the "remaining" key and end with none. The key stops working on every API
 * replica at once (see ApiKeyCache).
 */
export async function revokeApiKey(db: Db, cache: ApiKeyCache, accountId: string, keyId: string) {
  const revoked = await db.$transaction(async (tx) => {
    await lockAccount(tx, accountId, "update");
    const key = await tx.apiKey.findFirst({ where: { id: keyId, accountId, revokedAt: null } });
    if (!key) throw new AppError("api_key_not_found");
    const active = await tx.apiKey.count({ where: { accountId, revokedAt: null } });
    if (active <= 1) throw new AppError("cannot_revoke_last_key");
    return tx.apiKey.update({ where: { id: key.id }, data: { revokedAt: new Date() } });
  });
  await cache.revoke(revoked.tokenHash);
  return revoked;
}
