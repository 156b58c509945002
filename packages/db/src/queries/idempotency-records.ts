import { executor, type Queryable } from "./executor.js";

/* Statements on idempotency_records. */

/** Retention: deletes at most `batch` idempotency records that expire before `before` (taken with SKIP LOCKED): how many. */
export async function deleteExpiredIdempotencyRecords(q: Queryable, before: Date, batch: number): Promise<number> {
  return executor(q).execute(
    `
    DELETE FROM idempotency_records WHERE ("accountId", key) IN (
      SELECT "accountId", key FROM idempotency_records WHERE "expiresAt" < $1 LIMIT $2 FOR UPDATE SKIP LOCKED)`,
    [before, batch],
  );
}

/**
 * Claims an Idempotency-Key for the account with a record of the request,
 * kept until `expiresAt`, unless the key has a record already: 1 when claimed, else 0.
 */
export async function insertIdempotencyClaim(q: Queryable, claim: { accountId: string; key: string; method: string; path: string; requestHash: string; expiresAt: Date }): Promise<number> {
  return executor(q).execute(
    `
      INSERT INTO idempotency_records ("accountId", key, method, path, "requestHash", "expiresAt")
      VALUES ($1::uuid, $2, $3, $4, $5, $6)
      ON CONFLICT ("accountId", key) DO NOTHING`,
    [claim.accountId, claim.key, claim.method, claim.path, claim.requestHash, claim.expiresAt],
  );
}

/**
 * Deletes the claim made at `createdAt` when it is still unanswered and its
 * heartbeat (on the database's clock) is older than `abandonedAfterSeconds`: 1 when deleted, else 0.
 */
export async function deleteAbandonedIdempotencyClaim(q: Queryable, accountId: string, key: string, createdAt: Date, abandonedAfterSeconds: number): Promise<number> {
  return executor(q).execute(
    `
      DELETE FROM idempotency_records WHERE "accountId" = $1::uuid AND key = $2 AND "createdAt" = $3
        AND "responseStatus" IS NULL AND "heartbeatAt" < now() - make_interval(secs => $4)`,
    [accountId, key, createdAt, abandonedAfterSeconds],
  );
}

/** The claim's handler still runs: its heartbeat becomes now() (while it is unanswered). */
export async function refreshIdempotencyHeartbeat(q: Queryable, accountId: string, key: string): Promise<void> {
  await executor(q).execute(`UPDATE idempotency_records SET "heartbeatAt" = now() WHERE "accountId" = $1::uuid AND key = $2 AND "responseStatus" IS NULL`, [accountId, key]);
}
