import { SEND_CONCURRENCY_PER_ACCOUNT } from "@outreach/core";
import { releaseDueSendsFor, releaseDueSendsForAccounts, scanDueCampaignPairs } from "@outreach/db";
import type { Tx } from "../tx.js";

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
export async function releaseDueSends(tx: Tx, accountId: string, now = new Date(), limit = SEND_CONCURRENCY_PER_ACCOUNT, preferCredentialId: string | null = null): Promise<ReleasedSend[]> {
  return releaseDueSendsFor(tx, accountId, now, limit, preferCredentialId, Math.max(PREFERENCE_WINDOW, limit));
}

/**
 * releaseDueSends for many accounts in one round trip (the feeder's pass):
 * each account is released on its own terms, its own lock and limit.
 */
export async function releaseDueSendsOfAccounts(tx: Tx, accountIds: string[], now = new Date(), limit = SEND_CONCURRENCY_PER_ACCOUNT): Promise<ReleasedSend[]> {
  if (accountIds.length === 0) return [];
  return releaseDueSendsForAccounts(tx, accountIds, now, limit, Math.max(PREFERENCE_WINDOW, limit));
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
  const rows = await scanDueCampaignPairs(tx, now, after, scanLimit, maxAccounts);
  const accountIds = [...new Set(rows.filter((r) => r.due).map((r) => r.accountId))];
  const last = rows[rows.length - 1];
  const stoppedEarly = rows.length >= scanLimit || rows.filter((r) => r.due).length >= maxAccounts;
  return { accountIds, next: last && stoppedEarly ? { accountId: last.accountId, campaignId: last.campaignId } : null };
}
