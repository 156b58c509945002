import type { ClientKind, Db } from "@outreach/db";
import { reserveQuota } from "@outreach/domain";
import { issueApiKey } from "./issue-api-key.js";

/** POST /api_keys: a further key of the account, within its api_keys quota (422 quota_exceeded). */
export async function createApiKey(db: Db, accountId: string, label: string, clientKind: ClientKind) {
  return db.$transaction(async (tx) => {
    await reserveQuota(tx, accountId, { api_keys: 1 });
    return issueApiKey(tx, accountId, label, clientKind);
  });
}
