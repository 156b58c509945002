import { randomUUID } from "node:crypto";
import type { Tx } from "../tx.js";
import { CLAIMED_COLUMNS, toDeliveryToAttempt, type DeliveryToAttempt, type SecretCache } from "./delivery-store.js";

/*
 * Pending deliveries are rows, and PostgreSQL is their queue. A deliverer
 * process leases an account (one holder per account at a time, for a short
 * while, renewed as it works), then claims the account's due deliveries in
 * batches and makes at most 10 requests at once for it. So the per-account
 * limit holds across replicas without counting in a shared store per request,
 * and an account whose receiver hangs holds only its own lease.
 */

/**
 * Leases up to `limit` accounts that have due deliveries and no live lease
 * (not `exclude`, which this process already serves), in one statement per
 * call: the accounts are found by skipping through the pending index one
 * account at a time, so a backlog of one account costs one probe, not a
 * scan. The skip starts at a random account id and wraps around, so when
 * there are more accounts waiting than room, each gets its turn.
 */
export async function leaseDueAccounts(tx: Tx, holder: string, ttlMs: number, limit: number, exclude: string[], now = new Date(), start = randomUUID()): Promise<string[]> {
  const leased = await leaseDueAccountsFrom(tx, holder, ttlMs, limit, exclude, now, start, null);
  if (leased.length >= limit) return leased;
  return [...leased, ...(await leaseDueAccountsFrom(tx, holder, ttlMs, limit - leased.length, [...exclude, ...leased], now, FIRST_UUID, start))];
}

const FIRST_UUID = "00000000-0000-0000-0000-000000000000";

/** leaseDueAccounts over the account ids from `from` (inclusive) to `before` (exclusive; null: to the end). */
async function leaseDueAccountsFrom(tx: Tx, holder: string, ttlMs: number, limit: number, exclude: string[], now: Date, from: string, before: string | null): Promise<string[]> {
  const rows = await tx.$queryRaw<Array<{ accountId: string }>>`
    WITH RECURSIVE accounts AS (
      (SELECT "accountId" FROM webhook_deliveries WHERE state = 'pending' AND "accountId" >= ${from}::uuid ORDER BY "accountId" LIMIT 1)
      UNION ALL
      SELECT (SELECT d."accountId" FROM webhook_deliveries d WHERE d.state = 'pending' AND d."accountId" > a."accountId" ORDER BY d."accountId" LIMIT 1)
      FROM accounts a WHERE a."accountId" IS NOT NULL AND (${before}::uuid IS NULL OR a."accountId" < ${before}::uuid)
    ), due AS (
      SELECT a."accountId" FROM accounts a
      WHERE a."accountId" IS NOT NULL AND (${before}::uuid IS NULL OR a."accountId" < ${before}::uuid) AND a."accountId" <> ALL(${exclude}::uuid[])
        AND EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d."accountId" = a."accountId" AND d.state = 'pending' AND d."nextAttemptAt" <= ${now}
          AND (d."attemptingUntil" IS NULL OR d."attemptingUntil" < ${now}))
        AND NOT EXISTS (SELECT 1 FROM webhook_account_leases l WHERE l."accountId" = a."accountId" AND l."expiresAt" > ${now})
      LIMIT ${limit}
    )
    INSERT INTO webhook_account_leases ("accountId", holder, "expiresAt")
    SELECT "accountId", ${holder}, ${new Date(now.getTime() + ttlMs)} FROM due
    ON CONFLICT ("accountId") DO UPDATE SET holder = EXCLUDED.holder, "expiresAt" = EXCLUDED."expiresAt"
      WHERE webhook_account_leases."expiresAt" <= ${now} OR webhook_account_leases.holder = EXCLUDED.holder
    RETURNING "accountId"`;
  return rows.map((row) => row.accountId);
}

/**
 * Extends this holder's leases and the hold on the deliveries it has claimed
 * and not yet recorded; answers the accounts whose lease it still holds (one
 * missing was taken over after it expired: stop claiming for it).
 */
export async function renewAccountLeases(tx: Tx, holder: string, accountIds: string[], heldDeliveryIds: string[], ttlMs: number, now = new Date()): Promise<string[]> {
  const until = new Date(now.getTime() + ttlMs);
  if (heldDeliveryIds.length > 0) {
    // a row locked now is being recorded (its hold ends with that): skipped, never waited for, so this cannot deadlock with a record
    await tx.$executeRaw`
      UPDATE webhook_deliveries SET "attemptingUntil" = ${until}
      WHERE id IN (SELECT id FROM webhook_deliveries WHERE id = ANY(${heldDeliveryIds}::uuid[]) AND state = 'pending' AND "attemptingUntil" IS NOT NULL FOR UPDATE SKIP LOCKED)`;
  }
  if (accountIds.length === 0) return [];
  const rows = await tx.$queryRaw<Array<{ accountId: string }>>`
    UPDATE webhook_account_leases SET "expiresAt" = ${until}
    WHERE "accountId" = ANY(${accountIds}::uuid[]) AND holder = ${holder}
    RETURNING "accountId"`;
  return rows.map((row) => row.accountId);
}

export async function releaseAccountLeases(tx: Tx, holder: string, accountIds: string[]): Promise<void> {
  if (accountIds.length === 0) return;
  await tx.$executeRaw`DELETE FROM webhook_account_leases WHERE "accountId" = ANY(${accountIds}::uuid[]) AND holder = ${holder}`;
}

/**
 * Claims up to `limit` of an account's due deliveries, oldest due first, in
 * one statement with everything an attempt needs (the webhook's URL and
 * secrets, the event's data): each is held against other workers until
 * `holdMs` from now (renewed while it waits or runs).
 */
export async function claimDueDeliveries(tx: Tx, accountId: string, limit: number, holdMs: number, secrets: SecretCache, now = new Date()): Promise<DeliveryToAttempt[]> {
  const rows = await tx.$queryRaw<Array<Record<string, any>>>`
    WITH picked AS (
      SELECT id FROM webhook_deliveries
      WHERE "accountId" = ${accountId}::uuid AND state = 'pending' AND "nextAttemptAt" <= ${now}
        AND ("attemptingUntil" IS NULL OR "attemptingUntil" < ${now})
      ORDER BY "nextAttemptAt", "createdAt"
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    ), claimed AS (
      UPDATE webhook_deliveries d SET "attemptingUntil" = ${new Date(now.getTime() + holdMs)}
      FROM picked p, webhooks w
      WHERE d.id = p.id AND w.id = d."webhookId"
      RETURNING ${CLAIMED_COLUMNS}, d."nextAttemptAt"
    )
    SELECT c.*, e.data AS "eventData", e."createdAt" AS "eventCreatedAt"
    FROM claimed c LEFT JOIN events e ON e.id = c."eventId"
    ORDER BY c."nextAttemptAt", c."createdAt"`;
  return rows.map((row) => toDeliveryToAttempt(row, secrets, now));
}

/** Gives claimed deliveries that were not attempted back at once (instead of when their hold lapses). */
export async function releaseDeliveryHolds(tx: Tx, deliveryIds: string[]): Promise<void> {
  if (deliveryIds.length === 0) return;
  await tx.$executeRaw`
    UPDATE webhook_deliveries SET "attemptingUntil" = NULL
    WHERE id IN (SELECT id FROM webhook_deliveries WHERE id = ANY(${deliveryIds}::uuid[]) AND state = 'pending' FOR UPDATE SKIP LOCKED)`;
}
