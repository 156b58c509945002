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
  provider: "text?",
  oauthProvider: "text?",
  pausedUntil: "timestamptz?",
});
export type PlannedCredentialRow = RowOf<typeof plannedCredentialColumns>;

/**
 * The campaign's enabled inboxes, in the order the planner takes them (creation, then id), with their limits and ramps,
 * and what tells their mail provider: the one set, and their OAuth2 connection's.
 */
export async function enabledCampaignCredentials(q: Queryable, campaignId: string): Promise<PlannedCredentialRow[]> {
  return executor(q).rows<PlannedCredentialRow>(
    `SELECT id::text AS id, "dailyLimit", "smtpHost", "smtpUsername", "rampStartPerDay", "rampIncreasePerDay", "rampStartedAt", provider,
       (SELECT o.provider FROM oauth_connections o WHERE o.id = cr."oauthConnectionId") AS "oauthProvider", "pausedUntil"
     FROM smtp_credentials cr WHERE "campaignId" = $1::uuid AND "disabledAt" IS NULL ORDER BY "createdAt", id`,
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

// The inbox's own errors, shown to the tenant on the credential (the sender's SMTP, the poller's IMAP).

/** Records the inbox's SMTP error (smtpLastError, smtpLastErrorAt). */
export async function recordSmtpCredentialError(q: Queryable, credentialId: string, reason: string, at: Date): Promise<void> {
  await executor(q).execute(`UPDATE smtp_credentials SET "smtpLastError" = $1, "smtpLastErrorAt" = $2 WHERE id = $3::uuid`, [reason, at, credentialId]);
}

/** Clears the inbox's SMTP error, when one is recorded. */
export async function clearSmtpCredentialError(q: Queryable, credentialId: string): Promise<void> {
  await executor(q).execute(`UPDATE smtp_credentials SET "smtpLastError" = NULL, "smtpLastErrorAt" = NULL WHERE id = $1::uuid AND "smtpLastError" IS NOT NULL`, [credentialId]);
}

export const healthCheckedCredentialColumns = columns({ id: "uuid", fromEmail: "text", campaignId: "uuid", accountId: "uuid", disabledAt: "timestamptz?" });
export type HealthCheckedCredential = RowOf<typeof healthCheckedCredentialColumns>;

/** Locks the credential FOR UPDATE for its health check (concurrent bounces decide once): undefined when it is gone. */
export async function lockCredentialForHealthCheck(q: Queryable, credentialId: string): Promise<HealthCheckedCredential | undefined> {
  const [credential] = await executor(q).rows<HealthCheckedCredential>(
    `
    SELECT id, "fromEmail", "campaignId", "accountId", "disabledAt" FROM smtp_credentials WHERE id = $1::uuid FOR UPDATE`,
    [credentialId],
  );
  return credential;
}

export const accountCredentialCountColumns = columns({ credentials: "int4", inboxes: "int4" });
export type AccountCredentialCount = RowOf<typeof accountCredentialCountColumns>;

/** The account's SMTP credentials, and those with IMAP settings (inboxes), across its campaigns (through campaigns, indexed by account). */
export async function countAccountCredentials(q: Queryable, accountId: string): Promise<AccountCredentialCount | undefined> {
  const [row] = await executor(q).rows<AccountCredentialCount>(
    `
      SELECT count(*)::int AS credentials, count(k."imapHost")::int AS inboxes
      FROM campaigns c JOIN smtp_credentials k ON k."campaignId" = c.id
      WHERE c."accountId" = $1::uuid`,
    [accountId],
  );
  return row;
}

/** Whether this address (lower-cased) is one of the account's sending addresses. */
export async function isAccountSendingAddress(q: Queryable, accountId: string, fromLower: string): Promise<boolean> {
  const rows = await executor(q).rows(`SELECT 1 FROM smtp_credentials WHERE "accountId" = $1::uuid AND lower("fromEmail") = $2 LIMIT 1`, [accountId, fromLower]);
  return rows.length > 0;
}

export const accountImapInboxColumns = columns({ id: "uuid", accountId: "uuid", active: "bool" });
export type AccountImapInbox = RowOf<typeof accountImapInboxColumns>;

/** The accounts' inboxes with IMAP settings and a login (a password or an OAuth2 connection; through their campaigns, by account index), and whether their campaign is active. */
export async function imapInboxesOfAccounts(q: Queryable, accountIds: string[]): Promise<AccountImapInbox[]> {
  return executor(q).rows<AccountImapInbox>(
    `
    SELECT cr.id, c."accountId", c.status = 'active' AS active
    FROM campaigns c JOIN smtp_credentials cr ON cr."campaignId" = c.id
    WHERE c."accountId" = ANY($1::uuid[]) AND cr."imapHost" IS NOT NULL AND (cr."imapPasswordEnc" IS NOT NULL OR cr."oauthConnectionId" IS NOT NULL)`,
    [accountIds],
  );
}

/** The inbox's IMAP cursor moves to this message (never back within a UIDVALIDITY). */
export async function advanceImapCursor(q: Queryable, credentialId: string, uidValidity: bigint, uid: bigint): Promise<void> {
  await executor(q).execute(
    `
    UPDATE smtp_credentials SET "imapUidValidity" = $1, "imapLastUid" = GREATEST(COALESCE("imapLastUid", 0), $2)
    WHERE id = $3::uuid`,
    [uidValidity, uid, credentialId],
  );
}

/** The cursor moves past a message passed over, and its tries are cleared; unless the mailbox was renumbered meanwhile (another UIDVALIDITY). */
export async function advanceImapCursorPastSkipped(q: Queryable, credentialId: string, uidValidity: bigint, uid: bigint): Promise<void> {
  await executor(q).execute(
    `
      UPDATE smtp_credentials SET "imapUidValidity" = $1, "imapLastUid" = GREATEST(COALESCE("imapLastUid", 0), $2), "imapPendingUid" = NULL, "imapPendingTries" = 0
      WHERE id = $3::uuid AND ("imapUidValidity" IS NULL OR "imapUidValidity" = $4)`,
    [uidValidity, uid, credentialId, uidValidity],
  );
}

export const imapMessageTryColumns = columns({ tries: "int4", startedTries: "int4?" });
export type ImapMessageTry = RowOf<typeof imapMessageTryColumns>;

/**
 * Starts a try of message `uid` (imapPendingUid, imapPendingTries), unless
 * `maxTries` were started already: the tries before, and the count after this
 * one (null when none was started). undefined when the credential is gone.
 * `again`: this try takes the place of the last one, which failed on the
 * database rather than on the message (it is not counted twice).
 */
export async function beginImapMessageTry(q: Queryable, credentialId: string, uid: bigint, maxTries: number, again = false): Promise<ImapMessageTry | undefined> {
  const [row] = await executor(q).rows<ImapMessageTry>(
    `
    WITH current AS (SELECT "imapPendingUid" = $1 AND "imapPendingTries" + $2::int > $3 AS exhausted, "imapPendingTries" AS tries FROM smtp_credentials WHERE id = $4::uuid),
    started AS (
      UPDATE smtp_credentials SET "imapPendingTries" = CASE WHEN "imapPendingUid" = $5 THEN "imapPendingTries" + $6::int ELSE 1 END, "imapPendingUid" = $7
      WHERE id = $8::uuid AND NOT COALESCE((SELECT exhausted FROM current), false)
      RETURNING "imapPendingTries")
    SELECT tries, (SELECT "imapPendingTries" FROM started) AS "startedTries" FROM current`,
    [uid, again ? 0 : 1, maxTries, credentialId, uid, again ? 0 : 1, uid, credentialId],
  );
  return row;
}

/** Records the inbox's IMAP error, unless it is the one recorded already. */
export async function recordImapErrorOnce(q: Queryable, credentialId: string, error: string, at: Date): Promise<void> {
  await executor(q).execute(`UPDATE smtp_credentials SET "imapLastError" = $1, "imapCheckedAt" = $2 WHERE id = $3::uuid AND "imapLastError" IS DISTINCT FROM $4`, [error, at, credentialId, error]);
}

/** Records the inbox's IMAP error (null: none) and when it was checked. */
export async function recordImapError(q: Queryable, credentialId: string, error: string | null, at: Date): Promise<void> {
  await executor(q).execute(`UPDATE smtp_credentials SET "imapLastError" = $1, "imapCheckedAt" = $2 WHERE id = $3::uuid`, [error, at, credentialId]);
}

/** Records the inbox as fine: when there was an error, it was never checked, or it was last checked before `checkedBefore`. */
export async function recordImapOk(q: Queryable, credentialId: string, at: Date, checkedBefore: Date): Promise<void> {
  await executor(q).execute(
    `
    UPDATE smtp_credentials SET "imapLastError" = NULL, "imapCheckedAt" = $1
    WHERE id = $2::uuid AND ("imapLastError" IS NOT NULL OR "imapCheckedAt" IS NULL OR "imapCheckedAt" < $3)`,
    [at, credentialId, checkedBefore],
  );
}

export const imapLoginFailuresColumns = columns({ imapLoginFailures: "int4" });

/** Locks the credential FOR UPDATE: its refused IMAP logins in a row, undefined when it is gone. */
export async function lockImapLoginFailures(q: Queryable, credentialId: string): Promise<number | undefined> {
  const [row] = await executor(q).rows<RowOf<typeof imapLoginFailuresColumns>>(`SELECT "imapLoginFailures" FROM smtp_credentials WHERE id = $1::uuid FOR UPDATE`, [credentialId]);
  return row?.imapLoginFailures;
}

/** A login went through: the refused logins are counted from zero again, when any were. */
export async function resetImapLoginFailures(q: Queryable, credentialId: string): Promise<void> {
  await executor(q).execute(`UPDATE smtp_credentials SET "imapLoginFailures" = 0, "imapRetryAt" = NULL WHERE id = $1::uuid AND ("imapLoginFailures" > 0 OR "imapRetryAt" IS NOT NULL)`, [credentialId]);
}
