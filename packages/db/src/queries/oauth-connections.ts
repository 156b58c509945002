import { columns, type RowOf } from "./columns.js";
import { executor, type Queryable } from "./executor.js";

/*
 * Statements on oauth_connections: an account's OAuth2 mailboxes (Google,
 * Microsoft) with their sealed refresh and access tokens, and the credentials
 * that log in through them.
 */

export const oauthConnectionTokenColumns = columns({
  id: "uuid",
  accountId: "uuid",
  provider: "text",
  email: "text",
  refreshTokenEnc: "text",
  accessTokenEnc: "text?",
  accessTokenExpiresAt: "timestamptz?",
  authError: "text?",
  authFailedAt: "timestamptz?",
});
export type OAuthConnectionTokenRow = RowOf<typeof oauthConnectionTokenColumns>;

const TOKEN_COLUMNS = `id, "accountId", provider, email, "refreshTokenEnc", "accessTokenEnc", "accessTokenExpiresAt", "authError", "authFailedAt"`;

/**
 * Locks the connection FOR UPDATE, for the rest of the caller's transaction:
 * processes that need a new access token at once refresh it one after the
 * other, and each after the first finds the token the first stored.
 * undefined when there is no such connection.
 */
export async function lockOAuthConnection(q: Queryable, connectionId: string): Promise<OAuthConnectionTokenRow | undefined> {
  const [row] = await executor(q).rows<OAuthConnectionTokenRow>(`SELECT ${TOKEN_COLUMNS} FROM oauth_connections WHERE id = $1::uuid FOR UPDATE`, [connectionId]);
  return row;
}

/** The account's connection for the mailbox (the address compared without case), locked FOR UPDATE; undefined when there is none. */
export async function lockOAuthConnectionOfMailbox(q: Queryable, accountId: string, provider: string, email: string): Promise<OAuthConnectionTokenRow | undefined> {
  const [row] = await executor(q).rows<OAuthConnectionTokenRow>(
    `SELECT ${TOKEN_COLUMNS} FROM oauth_connections WHERE "accountId" = $1::uuid AND provider = $2 AND lower(email) = lower($3) FOR UPDATE`,
    [accountId, provider, email],
  );
  return row;
}

export const insertedOAuthConnectionColumns = columns({ id: "uuid" });

/**
 * A new connection with the given id (its tokens are sealed for that id), unless the account
 * already has one for the mailbox (oauth_connections_mailbox_key): then nothing is written
 * and undefined comes back.
 */
export async function insertOAuthConnection(
  q: Queryable,
  c: { id: string; accountId: string; provider: string; email: string; refreshTokenEnc: string; accessTokenEnc: string | null; accessTokenExpiresAt: Date | null; scopes: string | null; now: Date },
): Promise<string | undefined> {
  const [row] = await executor(q).rows<RowOf<typeof insertedOAuthConnectionColumns>>(
    `INSERT INTO oauth_connections (id, "accountId", provider, email, "refreshTokenEnc", "accessTokenEnc", "accessTokenExpiresAt", scopes, "createdAt", "updatedAt")
     VALUES ($1::uuid, $2::uuid, $3, $4, $5, $6, $7, $8, $9, $9)
     ON CONFLICT ("accountId", provider, lower(email)) DO NOTHING
     RETURNING id`,
    [c.id, c.accountId, c.provider, c.email, c.refreshTokenEnc, c.accessTokenEnc, c.accessTokenExpiresAt, c.scopes, c.now],
  );
  return row?.id;
}

export const oauthConnectionCredentialColumns = columns({ id: "uuid", accountId: "uuid", campaignId: "uuid", fromEmail: "text" });
export type OAuthConnectionCredential = RowOf<typeof oauthConnectionCredentialColumns>;

/** The credentials (inboxes of campaigns) that log in through the connection, oldest first. */
export async function credentialsOfOAuthConnection(q: Queryable, connectionId: string): Promise<OAuthConnectionCredential[]> {
  return executor(q).rows<OAuthConnectionCredential>(`SELECT id, "accountId", "campaignId", "fromEmail" FROM smtp_credentials WHERE "oauthConnectionId" = $1::uuid ORDER BY "createdAt", id`, [
    connectionId,
  ]);
}

export const oauthConnectionUsageColumns = columns({ id: "uuid!", credentials: "int4" });

/** How many credentials use each of the connections (a connection no credential uses is absent). */
export async function countOAuthConnectionCredentials(q: Queryable, connectionIds: string[]): Promise<Map<string, number>> {
  if (connectionIds.length === 0) return new Map();
  const rows = await executor(q).rows<RowOf<typeof oauthConnectionUsageColumns>>(
    `SELECT "oauthConnectionId" AS id, count(*)::int AS credentials FROM smtp_credentials WHERE "oauthConnectionId" = ANY($1::uuid[]) GROUP BY "oauthConnectionId"`,
    [connectionIds],
  );
  return new Map(rows.map((row) => [row.id, row.credentials]));
}
