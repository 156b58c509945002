import { columns, type RowOf } from "./columns.js";
import { executor, type Queryable } from "./executor.js";

/*
 * Statements on accounts: the account row lock that orders an account's
 * writes (plan changes, quota checks and settings), and the reads of the
 * operator's views.
 */

/**
 * FOR UPDATE for plan and subscription changes; FOR NO KEY UPDATE for quota
 * checks and settings, which order concurrent creations of one account without
 * holding up the foreign-key checks of its other writes.
 */
export type AccountLockMode = "update" | "no_key_update";

/** Locks the account row until the caller's transaction ends (nothing happens when it is not there). */
export async function lockAccount(q: Queryable, accountId: string, mode: AccountLockMode = "update"): Promise<void> {
  if (mode === "update") await executor(q).rows(`SELECT 1 FROM accounts WHERE id = $1::uuid FOR UPDATE`, [accountId]);
  else await executor(q).rows(`SELECT 1 FROM accounts WHERE id = $1::uuid FOR NO KEY UPDATE`, [accountId]);
}

export const accountQuotaSettingsColumns = columns({ tier: "int4", planSlug: "text", quotaOverrides: "jsonb?" });
export type AccountQuotaSettings = RowOf<typeof accountQuotaSettingsColumns>;

/** Locks the account FOR NO KEY UPDATE (OF the account only) with its plan tier, plan slug and quota overrides: undefined when it is not there. */
export async function lockAccountQuotaSettings(q: Queryable, accountId: string): Promise<AccountQuotaSettings | undefined> {
  const [account] = await executor(q).rows<AccountQuotaSettings>(
    `
    SELECT p.tier, p.slug AS "planSlug", a."quotaOverrides"
    FROM accounts a JOIN plans p ON p.id = a."planId"
    WHERE a.id = $1::uuid
    FOR NO KEY UPDATE OF a`,
    [accountId],
  );
  return account;
}

export const scheduleAccountColumns = columns({ id: "uuid", email: "text", suspendedAt: "timestamptz?", suspendedReason: "text?" });
export type ScheduleAccountRow = RowOf<typeof scheduleAccountColumns>;

/** These accounts (those there), by id: email and suspension. */
export async function accountsForSchedule(q: Queryable, accountIds: string[]): Promise<ScheduleAccountRow[]> {
  return executor(q).rows<ScheduleAccountRow>(
    `
        SELECT id, email, "suspendedAt", "suspendedReason" FROM accounts WHERE id = ANY($1::uuid[]) ORDER BY id`,
    [accountIds],
  );
}
