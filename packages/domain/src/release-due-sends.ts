import type { Tx } from "./tx.js";

/** Per-account limit on sends that are queued or being sent, across all sender replicas. */
export const SEND_CONCURRENCY_PER_ACCOUNT = 10;

export interface ReleasedSend {
  id: string;
  accountId: string;
  /** part of the job id: a send released again (after a retry) gets a new job */
  releasedAt: Date;
}

/** How many of an account's next due sends a release looks at to honour a preferred inbox. */
const PREFERENCE_WINDOW = 50;

/**
 * Moves an account's due sends from scheduled to queued, at most as many as
 * the account has free send slots (SEND_CONCURRENCY_PER_ACCOUNT minus what is
 * already queued or sending). The caller enqueues one send-email job per row
 * returned. Serialized per account with a transaction-scoped advisory lock, so
 * the feeder and the senders releasing work concurrently never exceed the limit;
 * whoever holds the lock releases for the account, the others return nothing
 * (the next send or the feeder's next tick fills any slot they would have).
 * A later step is released only after the earlier steps of its enrollment were sent.
 * `preferCredentialId` (the inbox whose send just finished) moves that inbox's
 * sends ahead among the next due ones, so its open SMTP session is reused
 * instead of another inbox's session being closed for a new one.
 * One round trip: the SQL function release_due_sends (migration
 * release_due_sends_function) takes the lock, then releases under a snapshot
 * taken after it. Runs on its own or inside a transaction.
 */
export async function releaseDueSends(
  tx: Tx,
  accountId: string,
  now = new Date(),
  limit = SEND_CONCURRENCY_PER_ACCOUNT,
  preferCredentialId: string | null = null,
): Promise<ReleasedSend[]> {
  return tx.$queryRaw<ReleasedSend[]>`
    SELECT id, "accountId", "releasedAt"
    FROM release_due_sends(${accountId}::uuid, ${now}::timestamptz, ${limit}::int, ${preferCredentialId}::uuid, ${Math.max(PREFERENCE_WINDOW, limit)}::int)`;
}

/**
 * Accounts that have sends due now on an active campaign, found with a skip
 * scan over the partial index step_sends_due_idx, so the cost does not grow
 * with the number of due rows of one big account.
 */
export async function accountsWithDueSends(tx: Tx, now = new Date(), max = 1000): Promise<string[]> {
  const rows = await tx.$queryRaw<Array<{ accountId: string }>>`
    WITH RECURSIVE accounts AS (
      (SELECT "accountId" FROM step_sends WHERE state = 'scheduled' AND "dueAt" <= ${now} ORDER BY "accountId" LIMIT 1)
      UNION ALL
      SELECT (SELECT s."accountId" FROM step_sends s
              WHERE s.state = 'scheduled' AND s."dueAt" <= ${now} AND s."accountId" > a."accountId"
              ORDER BY s."accountId" LIMIT 1)
      FROM accounts a WHERE a."accountId" IS NOT NULL)
    SELECT "accountId" FROM accounts WHERE "accountId" IS NOT NULL LIMIT ${max}`;
  return rows.map((r) => r.accountId);
}
