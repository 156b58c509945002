import type { KeySource } from "@outreach/core";
import type { MailboxAccessToken } from "@outreach/domain";
import { smtpEndpointOf, type SmtpEndpoint } from "./smtp-pool.js";

/** Access tokens of OAuth2 mailboxes (MailboxTokens, one per process). */
export interface MailboxTokenSource {
  accessTokenFor(connectionId: string, options?: { forceRefresh?: boolean }): Promise<MailboxAccessToken>;
}

/** The stored fields a credential's SMTP login is made of. */
export interface SmtpLoginFields {
  id: string;
  smtpHost: string;
  smtpPort: number;
  smtpSecure: boolean;
  smtpUsername: string;
  smtpPasswordEnc: string | null;
  oauthConnectionId: string | null;
}

/**
 * Where a credential's SMTP session goes and how it logs in: its password, or
 * (an OAuth2 mailbox) XOAUTH2 as the connection's mailbox with its access
 * token, checked here (a new one when `forceRefresh`: the server refused the last one).
 * Throws MailboxAuthRevokedError (the mailbox must be reconnected) or
 * MailboxTokenUnavailableError (the provider's token endpoint failed: later).
 */
export async function loginEndpointOf(credential: SmtpLoginFields, keys: KeySource, tokens: MailboxTokenSource, options: { forceRefresh?: boolean } = {}): Promise<SmtpEndpoint> {
  const connectionId = credential.oauthConnectionId;
  if (!connectionId) return smtpEndpointOf(credential, keys);
  const token = await tokens.accessTokenFor(connectionId, options);
  return {
    host: credential.smtpHost,
    port: credential.smtpPort,
    secure: credential.smtpSecure,
    username: token.user,
    password: "",
    // each login asks for the token (served from memory while valid): a refreshed one replaces it everywhere
    oauth: { connectionId, provide: (renew) => tokens.accessTokenFor(connectionId, { forceRefresh: renew }) },
  };
}

/** What the stored fields of a credential's login are: when they change, its endpoint is made again. */
export const loginSourceOf = (credential: SmtpLoginFields) =>
  JSON.stringify(
    credential.oauthConnectionId
      ? [credential.smtpHost, credential.smtpPort, credential.smtpSecure, "oauth2", credential.oauthConnectionId]
      : [credential.smtpHost, credential.smtpPort, credential.smtpSecure, credential.smtpUsername, credential.smtpPasswordEnc],
  );

/** The server refused the login itself (a 535 to AUTH, or nodemailer's EAUTH): for an OAuth2 mailbox, its access token. */
export function isLoginRefusal(err: unknown): boolean {
  const e = (err ?? {}) as { code?: string; command?: string; responseCode?: number };
  return e.code === "EAUTH" || (e.responseCode === 535 && (e.command ?? "").startsWith("AUTH"));
}

/**
 * After an OAuth2 mailbox's login was refused outside a step send (a test send, an answer,
 * retried by their job): a new access token for the next try. A revoked mailbox is recorded
 * by MailboxTokens; nothing else is done here.
 */
export async function renewRefusedToken(tokens: MailboxTokenSource, credential: { oauthConnectionId: string | null }, err: unknown): Promise<void> {
  if (!credential.oauthConnectionId || !isLoginRefusal(err)) return;
  await tokens.accessTokenFor(credential.oauthConnectionId, { forceRefresh: true }).catch(() => undefined);
}
