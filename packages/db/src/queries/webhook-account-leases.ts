import { columns, type RowOf } from "./columns.js";
import { executor, type Queryable } from "./executor.js";

/*
 * Statements on webhook_account_leases: one deliverer process at a time
 * serves an account's deliveries, for a short while, renewed as it works.
 */

export const leasedAccountColumns = columns({ accountId: "uuid" });

/**
 * Leases to `holder` until `until` up to `limit` accounts with due deliveries
 * and no live lease (not `exclude`), over the account ids from `from`
 * (inclusive) to `before` (exclusive; null: to the end), skipping through the
 * pending deliveries one account at a time: the accounts leased.
 */
export async function leaseAccountsWithDueDeliveries(
  q: Queryable,
  lease: { holder: string; until: Date; limit: number; exclude: string[]; from: string; before: string | null },
  now: Date,
): Promise<string[]> {
  const { holder, until, limit, exclude, from, before } = lease;
  const rows = await executor(q).rows<RowOf<typeof leasedAccountColumns>>(
    `
    WITH RECURSIVE accounts AS (
      (SELECT "accountId" FROM webhook_deliveries WHERE state = 'pending' AND "accountId" >= $1::uuid ORDER BY "accountId" LIMIT 1)
      UNION ALL
      SELECT (SELECT d."accountId" FROM webhook_deliveries d WHERE d.state = 'pending' AND d."accountId" > a."accountId" ORDER BY d."accountId" LIMIT 1)
      FROM accounts a WHERE a."accountId" IS NOT NULL AND ($2::uuid IS NULL OR a."accountId" < $3::uuid)
    ), due AS (
      SELECT a."accountId" FROM accounts a
      WHERE a."accountId" IS NOT NULL AND ($4::uuid IS NULL OR a."accountId" < $5::uuid) AND a."accountId" <> ALL($6::uuid[])
        AND EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d."accountId" = a."accountId" AND d.state = 'pending' AND d."nextAttemptAt" <= $7
          AND (d."attemptingUntil" IS NULL OR d."attemptingUntil" < $8))
        AND NOT EXISTS (SELECT 1 FROM webhook_account_leases l WHERE l."accountId" = a."accountId" AND l."expiresAt" > $9)
      LIMIT $10
    )
    INSERT INTO webhook_account_leases ("accountId", holder, "expiresAt")
    SELECT "accountId", $11, $12 FROM due
    ON CONFLICT ("accountId") DO UPDATE SET holder = EXCLUDED.holder, "expiresAt" = EXCLUDED."expiresAt"
      WHERE webhook_account_leases."expiresAt" <= $13 OR webhook_account_leases.holder = EXCLUDED.holder
    RETURNING "accountId"`,
    [from, before, before, before, before, exclude, now, now, now, limit, holder, until, now],
  );
  return rows.map((row) => row.accountId);
}

/** Extends the holder's leases of these accounts until `until`: the accounts it still holds. */
export async function extendAccountLeases(q: Queryable, holder: string, accountIds: string[], until: Date): Promise<string[]> {
  const rows = await executor(q).rows<RowOf<typeof leasedAccountColumns>>(
    `
    UPDATE webhook_account_leases SET "expiresAt" = $1
    WHERE "accountId" = ANY($2::uuid[]) AND holder = $3
    RETURNING "accountId"`,
    [until, accountIds, holder],
  );
  return rows.map((row) => row.accountId);
}

/** Gives up the holder's leases of these accounts. */
export async function deleteAccountLeases(q: Queryable, holder: string, accountIds: string[]): Promise<number> {
  return executor(q).execute(`DELETE FROM webhook_account_leases WHERE "accountId" = ANY($1::uuid[]) AND holder = $2`, [accountIds, holder]);
}
