import { randomUUID } from "node:crypto";
import { encryptSecret, secretAad, type KeySource } from "@outreach/core";
import { insertOAuthConnection, lockOAuthConnectionOfMailbox } from "@outreach/db";
import type { Tx } from "../tx.js";
import { inTransaction } from "../tx.js";
import type { OAuthProvider } from "./oauth-providers.js";

/** Seals a token for its column of the connection's row (see secretAad). */
export function sealConnectionToken(token: string, keys: KeySource, column: "refreshTokenEnc" | "accessTokenEnc", connectionId: string): string {
  return encryptSecret(token, keys, secretAad("oauth_connections", column, connectionId));
}

/** A mailbox the account connected (the OAuth callback) or whose refresh token it gave (a credential's auth.refresh_token). */
export interface MailboxGrant {
  accountId: string;
  provider: OAuthProvider;
  email: string;
  refreshToken: string;
  /** the access token obtained with it, if any (the code exchange gives one) */
  accessToken?: string | null;
  accessTokenExpiresAt?: Date | null;
  scopes?: string | null;
}

/**
 * Stores the account's connection for the mailbox (one per account, provider
 * and address, compared without case): a new one, or the existing one with
 * the new tokens. Either way the connection is healthy again: its auth error
 * is cleared, and so are the errors recorded on the credentials using it (and
 * their refused IMAP logins, so the poller tries them again).
 */
export async function saveOAuthConnection(db: Tx, keys: KeySource, grant: MailboxGrant, now = new Date()): Promise<{ id: string; created: boolean }> {
  return inTransaction(db, async (tx) => {
    for (let attempt = 0; attempt < 2; attempt++) {
      const existing = await lockOAuthConnectionOfMailbox(tx, grant.accountId, grant.provider, grant.email);
      if (existing) {
        await tx.oAuthConnection.update({
          where: { id: existing.id },
          data: {
            refreshTokenEnc: sealConnectionToken(grant.refreshToken, keys, "refreshTokenEnc", existing.id),
            accessTokenEnc: grant.accessToken ? sealConnectionToken(grant.accessToken, keys, "accessTokenEnc", existing.id) : null,
            accessTokenExpiresAt: grant.accessToken ? (grant.accessTokenExpiresAt ?? null) : null,
            ...(grant.scopes ? { scopes: grant.scopes } : {}),
            authError: null,
            authFailedAt: null,
            updatedAt: now,
          },
        });
        await clearConnectionCredentialErrors(tx, existing.id);
        return { id: existing.id, created: false };
      }
      const id = randomUUID();
      const inserted = await insertOAuthConnection(tx, {
        id,
        accountId: grant.accountId,
        provider: grant.provider,
        email: grant.email,
        refreshTokenEnc: sealConnectionToken(grant.refreshToken, keys, "refreshTokenEnc", id),
        accessTokenEnc: grant.accessToken ? sealConnectionToken(grant.accessToken, keys, "accessTokenEnc", id) : null,
        accessTokenExpiresAt: grant.accessToken ? (grant.accessTokenExpiresAt ?? null) : null,
        scopes: grant.scopes ?? null,
        now,
      });
      if (inserted) return { id: inserted, created: true };
      // another request created it meanwhile: update that one
    }
    throw new Error("the OAuth connection could not be stored");
  });
}

/** The errors recorded on the connection's credentials (SMTP and IMAP, refused logins included) are cleared. */
export async function clearConnectionCredentialErrors(tx: Tx, connectionId: string): Promise<void> {
  await tx.smtpCredential.updateMany({
    where: { oauthConnectionId: connectionId },
    data: { smtpLastError: null, smtpLastErrorAt: null, imapLastError: null, imapLoginFailures: 0, imapRetryAt: null, imapStoppedAt: null },
  });
}
