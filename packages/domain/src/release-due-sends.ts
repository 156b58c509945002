import { SEND_CONCURRENCY_PER_ACCOUNT } from "@outreach/core";
import { queryRows } from "@outreach/db";
import type { Tx } from "./tx.js";

export interface ReleasedSend {
  id: string;
  accountId: string;
  /** part of the job id: a send released again (after a retry) gets a new job */
  releasedAt: Date;
  /** the inbox it is planned on: its job goes to the sender holding that inbox's sessions (SendRouter) */
  credentialId?: string | null;
  /** the account had no send queued or being sent before this release */
  accountWasIdle?: boolean;
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
 * One round trip: the SQL function release_due_sends (its current definition:
 * packages/db/sql/functions/release_due_sends.sql) takes the lock, then
 * releases under a snapshot taken after it. Runs on its own or inside a transaction.
 */
export async function releaseDueSends(
  tx: Tx,
  accountId: string,
  now = new Date(),
  limit = SEND_CONCURRENCY_PER_ACCOUNT,
  preferCredentialId: string | null = null,
): Promise<ReleasedSend[]> {
  return queryRows<ReleasedSend>(
    tx,
    `SELECT id, "accountId", "releasedAt", "credentialId", "accountWasIdle"
     FROM release_due_sends($1::uuid, $2::timestamptz, $3::int, $4::uuid, $5::int)`,
    [accountId, now, limit, preferCredentialId, Math.max(PREFERENCE_WINDOW, limit)],
    "release_due_sends",
  );
}

/**
 * releaseDueSends for many accounts in one round trip (the feeder's pass):
 * each account is released on its own terms, its own lock and limit.
 */
export async function releaseDueSendsOfAccounts(tx: Tx, accountIds: string[], now = new Date(), limit = SEND_CONCURRENCY_PER_ACCOUNT): Promise<ReleasedSend[]> {
  if (accountIds.length === 0) return [];
  return queryRows<ReleasedSend>(
    tx,
    `SELECT r.id, r."accountId", r."releasedAt", r."credentialId", r."accountWasIdle"
     FROM unnest($1::uuid[]) AS a(id)
     CROSS JOIN LATERAL release_due_sends(a.id, $2::timestamptz, $3::int, NULL::uuid, $4::int) AS r`,
    [accountIds, now, limit, Math.max(PREFERENCE_WINDOW, limit)],
    "release_due_sends_of_accounts",
  );
}

/** Where a pass over the accounts with due sends stopped: the last (account, campaign) pair it looked at. */
export interface DueCursor {
  accountId: string;
  campaignId: string;
}

export interface DueAccountsPage {
  /** accounts with sends due now on an active campaign, in id order from the cursor */
  accountIds: string[];
  /** where the next pass goes on; null when this one reached the end (the next starts over) */
  next: DueCursor | null;
}

export interface DueAccountsOptions {
  after?: DueCursor | null;
  /** at most this many (account, active campaign) pairs with due sends per pass */
  maxAccounts?: number;
  /** at most this many (account, campaign) pairs looked at per pass, due or not */
  scanLimit?: number;
}

const START: DueCursor = { accountId: "00000000-0000-0000-0000-000000000000", campaignId: "00000000-0000-0000-0000-000000000000" };

/**
 * One bounded pass of a skip scan over the distinct (account, campaign) pairs
 * with scheduled sends (index step_sends_due_campaign_idx,
 * packages/db/sql/indexes/step_sends.sql), from `after` on:
 * one index probe per pair, whose first entry is its earliest due send. Pairs
 * of campaigns that are not active are stepped over with that one probe, so a
 * paused campaign's backlog is never read; pairs with nothing due yet likewise,
 * and the pairs of a suspended account (pnpm ops suspend), whose sends are held.
 * The campaign's status and the account's suspension are looked up by primary key per pair (not as a hashed
 * subplan, which would read every active campaign on every pass).
 * The caller keeps `next` and passes it back, so every account is reached in
 * turn however many there are (the pass wraps around at the end).
 */
export async function accountsWithDueSends(tx: Tx, now = new Date(), options: DueAccountsOptions = {}): Promise<DueAccountsPage> {
  const after = options.after ?? START;
  const maxAccounts = options.maxAccounts ?? 1000;
  const scanLimit = options.scanLimit ?? maxAccounts * 5;
  const rows = await tx.$queryRaw<Array<{ accountId: string; campaignId: string; due: boolean }>>`
    WITH RECURSIVE pairs AS (
      SELECT f."accountId", f."campaignId", f.due, 1 AS n, f.due::int AS found
      FROM (SELECT s."accountId", s."campaignId",
                   (s."dueAt" <= ${now} AND (SELECT c.status FROM campaigns c WHERE c.id = s."campaignId") = 'active'
                    AND (SELECT a."suspendedAt" FROM accounts a WHERE a.id = s."accountId") IS NULL) AS due
            FROM step_sends s
            WHERE s.state = 'scheduled' AND (s."accountId", s."campaignId") > (${after.accountId}::uuid, ${after.campaignId}::uuid)
            ORDER BY s."accountId", s."campaignId", s."dueAt" LIMIT 1) f
      UNION ALL
      SELECT nxt."accountId", nxt."campaignId", nxt.due, p.n + 1, p.found + nxt.due::int
      FROM pairs p CROSS JOIN LATERAL (
        SELECT s."accountId", s."campaignId",
               (s."dueAt" <= ${now} AND (SELECT c.status FROM campaigns c WHERE c.id = s."campaignId") = 'active'
                AND (SELECT a."suspendedAt" FROM accounts a WHERE a.id = s."accountId") IS NULL) AS due
        FROM step_sends s
        WHERE s.state = 'scheduled' AND (s."accountId", s."campaignId") > (p."accountId", p."campaignId")
        ORDER BY s."accountId", s."campaignId", s."dueAt" LIMIT 1) nxt
      WHERE p.n < ${scanLimit}::int AND p.found < ${maxAccounts}::int)
    SELECT "accountId", "campaignId", due FROM pairs`;
  const accountIds = [...new Set(rows.filter((r) => r.due).map((r) => r.accountId))];
  const last = rows[rows.length - 1];
  const stoppedEarly = rows.length >= scanLimit || rows.filter((r) => r.due).length >= maxAccounts;
  return { accountIds, next: last && stoppedEarly ? { accountId: last.accountId, campaignId: last.campaignId } : null };
}
