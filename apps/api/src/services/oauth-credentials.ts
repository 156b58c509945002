import { AppError, type KeySource } from "@outreach/core";
import { MAILBOX_PRESETS, saveOAuthConnection, type OAuthClients, type Tx } from "@outreach/domain";
import type { CredentialInput } from "../schemas/campaign.js";
import { notConfigured } from "./authorize-oauth-mailbox.js";

/** A credential with every field its row needs: an OAuth2 one with its provider's preset filled in. */
export type CompleteCredentialInput = CredentialInput & { smtp_host: string; smtp_port: number; smtp_username: string; daily_limit: number };

/**
 * A credential as stored: a password one as given; an OAuth2 one (auth) with
 * what it leaves out taken from its provider's preset: SMTP host, port and TLS
 * mode, smtp_username = from_email, the daily limit, and IMAP (its username
 * the SMTP one) unless imap_host is given, or null for no reply detection.
 */
export function withMailboxPreset(input: CredentialInput): CompleteCredentialInput {
  if (!input.auth) return input as CompleteCredentialInput;
  const preset = MAILBOX_PRESETS[input.auth.provider];
  const smtpUsername = input.smtp_username ?? input.from_email;
  const smtpPort = input.smtp_port ?? preset.smtpPort;
  const imap =
    input.imap_host === null
      ? { imap_host: null, imap_port: null, imap_secure: null, imap_username: null }
      : input.imap_host === undefined
        ? { imap_host: preset.imapHost, imap_port: preset.imapPort, imap_secure: preset.imapSecure, imap_username: smtpUsername }
        : { imap_host: input.imap_host, imap_port: input.imap_port ?? preset.imapPort, imap_secure: input.imap_secure ?? null, imap_username: input.imap_username ?? smtpUsername };
  return {
    ...input,
    smtp_host: input.smtp_host ?? preset.smtpHost,
    smtp_port: smtpPort,
    smtp_secure: input.smtp_secure ?? (input.smtp_port === undefined ? preset.smtpSecure : smtpPort === 465),
    smtp_username: smtpUsername,
    daily_limit: input.daily_limit ?? preset.dailyLimit,
    ...imap,
    imap_password: null,
  };
}

/** 409 oauth_not_configured when a credential names a provider this deployment has no OAuth client for. */
export function checkOAuthProvidersConfigured(credentials: CredentialInput[], clients: OAuthClients): void {
  for (const credential of credentials) if (credential.auth && !clients[credential.auth.provider]) throw notConfigured(credential.auth.provider);
}

/**
 * The connection each credential logs in through (null for a password one),
 * inside the caller's transaction: a refresh_token creates (or renews) the
 * account's connection for its provider and smtp_username; a connection_id
 * must be one of the account's (404 oauth_connection_not_found) of the same
 * provider (422 naming auth.provider).
 */
export async function resolveOAuthConnections(tx: Tx, keys: KeySource, accountId: string, credentials: CompleteCredentialInput[], fieldPrefix: string): Promise<Array<string | null>> {
  const ids: Array<string | null> = [];
  for (const [index, credential] of credentials.entries()) {
    const auth = credential.auth;
    if (!auth) {
      ids.push(null);
    } else if (auth.refresh_token !== undefined) {
      const saved = await saveOAuthConnection(tx, keys, { accountId, provider: auth.provider, email: credential.smtp_username, refreshToken: auth.refresh_token });
      ids.push(saved.id);
    } else {
      const connection = await tx.oAuthConnection.findFirst({ where: { id: auth.connection_id!, accountId }, select: { id: true, provider: true } });
      if (!connection) throw new AppError("oauth_connection_not_found", `OAuth connection ${auth.connection_id} not found (${fieldPrefix}smtp_credentials[${index}].auth.connection_id).`);
      if (connection.provider !== auth.provider) {
        const field = `${fieldPrefix}smtp_credentials[${index}].auth.provider`;
        const message = `${field} must be ${connection.provider}, the provider of the connection`;
        throw new AppError("validation_failed", message, { errors: [{ field, message }] });
      }
      ids.push(connection.id);
    }
  }
  return ids;
}
