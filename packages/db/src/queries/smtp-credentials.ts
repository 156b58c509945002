import { columns, type RowOf } from "./columns.js";
import { executor, type Queryable } from "./executor.js";

/* Statements on smtp_credentials (inboxes) that the dispatcher runs: the moves of a disabled inbox's held sends. */

export const heldSendsMoveColumns = columns({ disabledAt: "timestamptz?", heldSendsMoveRequestedAt: "timestamptz?" });
export type HeldSendsMoveState = RowOf<typeof heldSendsMoveColumns>;

/** Whether the inbox is disabled and when a move of its held sends was asked for: undefined when it is gone. */
export async function heldSendsMoveState(q: Queryable, credentialId: string): Promise<HeldSendsMoveState | undefined> {
  const [row] = await executor(q).rows<HeldSendsMoveState>(`SELECT "disabledAt", "heldSendsMoveRequestedAt" FROM smtp_credentials WHERE id = $1::uuid`, [credentialId]);
  return row;
}

/** The move of the inbox's held sends is done (or no longer wanted). */
export async function clearHeldSendsMove(q: Queryable, credentialId: string): Promise<void> {
  await executor(q).execute(`UPDATE smtp_credentials SET "heldSendsMoveRequestedAt" = NULL WHERE id = $1::uuid`, [credentialId]);
}

export const requestedHeldSendsMoveColumns = columns({ id: "uuid", accountId: "uuid", campaignId: "uuid", requestedAt: "timestamptz!" });
export type RequestedHeldSendsMove = RowOf<typeof requestedHeldSendsMoveColumns>;

/** Inboxes with a move of their held sends asked for (at most 1,000): what the dispatcher's sweep adds jobs for. */
export async function inboxesWithHeldSendsMove(q: Queryable): Promise<RequestedHeldSendsMove[]> {
  return executor(q).rows<RequestedHeldSendsMove>(`
      SELECT id, "accountId", "campaignId", "heldSendsMoveRequestedAt" AS "requestedAt" FROM smtp_credentials WHERE "heldSendsMoveRequestedAt" IS NOT NULL LIMIT 1000`);
}

export const plannedCredentialColumns = columns({
  id: "text",
  dailyLimit: "int4",
  smtpHost: "text",
  smtpUsername: "text",
  rampStartPerDay: "int4?",
  rampIncreasePerDay: "int4?",
  rampStartedAt: "timestamptz?",
});
export type PlannedCredentialRow = RowOf<typeof plannedCredentialColumns>;

/** The campaign's enabled inboxes, in the order the planner takes them (creation, then id), with their limits and ramps. */
export async function enabledCampaignCredentials(q: Queryable, campaignId: string): Promise<PlannedCredentialRow[]> {
  return executor(q).rows<PlannedCredentialRow>(
    `SELECT id::text AS id, "dailyLimit", "smtpHost", "smtpUsername", "rampStartPerDay", "rampIncreasePerDay", "rampStartedAt"
     FROM smtp_credentials WHERE "campaignId" = $1::uuid AND "disabledAt" IS NULL ORDER BY "createdAt", id`,
    [campaignId],
  );
}

export const enabledCountColumns = columns({ n: "int4" });

/** How many inboxes of the campaign are enabled. */
export async function countEnabledCredentials(q: Queryable, campaignId: string): Promise<number> {
  const [enabled] = await executor(q).rows<RowOf<typeof enabledCountColumns>>(`SELECT count(*)::int AS n FROM smtp_credentials WHERE "campaignId" = $1::uuid AND "disabledAt" IS NULL`, [campaignId]);
  return enabled?.n ?? 0;
}

export const mailboxesSharedColumns = columns({ shared: "bool" });

/** True when another campaign of the account has an inbox on one of these mailboxes ("host username", lower-cased). */
export async function mailboxesSharedWithOtherCampaigns(q: Queryable, accountId: string, campaignId: string, mailboxes: string[]): Promise<boolean> {
  const [row] = await executor(q).rows<RowOf<typeof mailboxesSharedColumns>>(
    `SELECT EXISTS (SELECT 1 FROM smtp_credentials WHERE "accountId" = $1::uuid AND "campaignId" <> $2::uuid
       AND lower("smtpHost") || ' ' || lower("smtpUsername") = ANY($3::text[])) AS shared`,
    [accountId, campaignId, mailboxes],
  );
  return row?.shared === true;
}

/**
 * Until the transaction ends, the account's mailbox ("host username",
 * lower-cased) is this transaction's to book: planners of campaigns sharing
 * it, and answers to replies sent through it, take turns.
 */
export async function lockMailbox(q: Queryable, accountId: string, mailbox: string): Promise<void> {
  await executor(q).execute(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`mailbox ${accountId} ${mailbox}`]);
}
