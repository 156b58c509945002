import { decryptSecret, secretAad, SecretUnreadableError, type KeySource, type Logger } from "@outreach/core";
import { credentialsOfOAuthConnection, lockOAuthConnection, setLockTimeout, type Db, type OAuthConnectionTokenRow } from "@outreach/db";
import { recordCredentialError } from "../sending/credential-error.js";
import type { Tx } from "../tx.js";
import { recordEvent } from "../webhooks/record-event.js";
import { sealConnectionToken } from "./oauth-connections.js";
import { isOAuthProvider, MAILBOX_PRESETS, type OAuthClients, type OAuthProvider } from "./oauth-providers.js";
import { OAuthEndpointError, OAuthGrantRefusedError, refreshAccessToken, type TokenAnswer } from "./oauth-token-endpoint.js";

/** An access token is used only while it has at least this long left; otherwise a new one is obtained first. */
export const ACCESS_TOKEN_MARGIN_MS = 2 * 60_000;

/**
 * How long a process waits for another one refreshing the same connection
 * (which holds its row while it asks the provider, at most 10 s), above the
 * pool's usual lock timeout.
 */
const REFRESH_LOCK_TIMEOUT_MS = 15_000;
/** The refresh transaction's own bound (Prisma's default, 5 s, is shorter than a slow token endpoint). */
const REFRESH_TRANSACTION_TIMEOUT_MS = 30_000;

/** The refresh token was revoked or expired (the provider answered invalid_grant): the mailbox must be reconnected. */
export class MailboxAuthRevokedError extends Error {
  constructor(
    readonly connectionId: string,
    readonly reason: string,
  ) {
    super(reason);
    this.name = "MailboxAuthRevokedError";
  }
}

/** Transient: token endpoint down, timeout, 5xx, garbage. The caller retries later. */
export class MailboxTokenUnavailableError extends Error {
  constructor(
    readonly connectionId: string,
    message: string,
  ) {
    super(message);
    this.name = "MailboxTokenUnavailableError";
  }
}

/** What a mailbox logs in with (XOAUTH2): the address and a valid access token. */
export interface MailboxAccessToken {
  user: string;
  accessToken: string;
  expiresAt: Date;
}

type RefreshOutcome = { ok: MailboxAccessToken } | { revoked: string };

/** The readable error of a refused refresh token, shown on the connection and its credentials. */
export function refusedRefreshTokenReason(provider: OAuthProvider, refused: OAuthGrantRefusedError): string {
  const detail = refused.description ? `: ${refused.description}` : "";
  return `${MAILBOX_PRESETS[provider].label} refused the refresh token (${refused.error}${detail}): reconnect the mailbox`.slice(0, 1000);
}

/**
 * Access tokens of OAuth2 mailboxes (one instance per process). A token is
 * served from memory until 2 minutes before it expires; otherwise, in a short
 * transaction holding the connection's row (so replicas refresh it once), the
 * stored token is used if still valid, or a new one is obtained from the
 * provider's token endpoint with the refresh token and stored sealed (with
 * the new refresh token when the provider rotates it, as Microsoft does).
 *
 * When the provider refuses the refresh token (invalid_grant), the
 * connection is marked failed with a readable error, the error is recorded
 * on each credential using it, and each gets a credential.auth_failed event,
 * all in that transaction and only on the transition; from then on
 * MailboxAuthRevokedError is thrown without asking the provider, until the
 * mailbox is reconnected (saveOAuthConnection).
 */
export class MailboxTokens {
  private readonly db: Db;
  private readonly keys: KeySource;
  private readonly clients: OAuthClients;
  private readonly logger: Logger | undefined;
  private readonly now: () => Date;
  private readonly cache = new Map<string, MailboxAccessToken>();
  /** one lookup per connection at a time in this process: concurrent callers share it */
  private readonly pending = new Map<string, Promise<MailboxAccessToken>>();

  constructor(options: { db: Db; keys: KeySource; clients: OAuthClients; logger?: Logger; now?: () => Date }) {
    this.db = options.db;
    this.keys = options.keys;
    this.clients = options.clients;
    this.logger = options.logger;
    this.now = options.now ?? (() => new Date());
  }

  /**
   * A valid access token (at least 2 minutes left) for the connection,
   * refreshed when needed, or when forceRefresh (after the server refused the
   * token: a 535 or AUTHENTICATIONFAILED): then the token this process served
   * is not served again, and a token another process stored since is used
   * instead of refreshing once more.
   */
  async accessTokenFor(connectionId: string, options: { forceRefresh?: boolean } = {}): Promise<MailboxAccessToken> {
    const cached = this.cache.get(connectionId);
    const refused = options.forceRefresh ? cached?.accessToken : undefined;
    if (options.forceRefresh) this.cache.delete(connectionId);
    else if (cached && this.usable(cached.expiresAt)) return cached;
    const key = `${connectionId}:${refused ?? ""}:${options.forceRefresh ? "force" : ""}`;
    let lookup = this.pending.get(key);
    if (!lookup) {
      lookup = this.lookUp(connectionId, options.forceRefresh === true, refused).finally(() => this.pending.delete(key));
      this.pending.set(key, lookup);
    }
    return lookup;
  }

  /** Forgets what this process holds for the connection (e.g. it was deleted or reconnected). */
  forget(connectionId: string): void {
    this.cache.delete(connectionId);
  }

  private usable(expiresAt: Date): boolean {
    return expiresAt.getTime() - this.now().getTime() >= ACCESS_TOKEN_MARGIN_MS;
  }

  private async lookUp(connectionId: string, forceRefresh: boolean, refused: string | undefined): Promise<MailboxAccessToken> {
    let outcome: RefreshOutcome;
    try {
      outcome = await this.db.$transaction((tx) => this.refreshInTransaction(tx, connectionId, forceRefresh, refused), {
        timeout: REFRESH_TRANSACTION_TIMEOUT_MS,
        maxWait: REFRESH_LOCK_TIMEOUT_MS,
      });
    } catch (err) {
      if (err instanceof MailboxAuthRevokedError || err instanceof MailboxTokenUnavailableError) throw err;
      if (isLockTimeout(err)) throw new MailboxTokenUnavailableError(connectionId, "another process is refreshing the mailbox's access token; try again");
      throw err;
    }
    if ("revoked" in outcome) {
      this.cache.delete(connectionId);
      throw new MailboxAuthRevokedError(connectionId, outcome.revoked);
    }
    this.cache.set(connectionId, outcome.ok);
    return outcome.ok;
  }

  private async refreshInTransaction(tx: Tx, connectionId: string, forceRefresh: boolean, refused: string | undefined): Promise<RefreshOutcome> {
    await setLockTimeout(tx, REFRESH_LOCK_TIMEOUT_MS);
    const row = await lockOAuthConnection(tx, connectionId);
    if (!row) throw new MailboxAuthRevokedError(connectionId, "the mailbox's OAuth connection no longer exists: connect the mailbox again");
    if (row.authFailedAt) return { revoked: row.authError ?? "the provider refused the refresh token: reconnect the mailbox" };
    if (!isOAuthProvider(row.provider)) throw new MailboxAuthRevokedError(connectionId, `unknown OAuth provider ${JSON.stringify(row.provider)}`);

    const stored = this.storedAccessToken(row);
    // a valid stored token serves, unless it is the one the caller saw refused
    // (with forceRefresh and nothing known of what was refused: a new one)
    if (stored && this.usable(stored.expiresAt) && (!forceRefresh || (refused !== undefined && stored.accessToken !== refused))) return { ok: stored };

    const client = this.clients[row.provider];
    if (!client) throw new MailboxTokenUnavailableError(connectionId, `${MAILBOX_PRESETS[row.provider].label} OAuth is not configured on this deployment (its client id and secret)`);
    let refreshToken: string;
    try {
      refreshToken = decryptSecret(row.refreshTokenEnc, this.keys, secretAad("oauth_connections", "refreshTokenEnc", row.id));
    } catch (err) {
      if (!(err instanceof SecretUnreadableError)) throw err;
      throw new MailboxAuthRevokedError(connectionId, "the stored refresh token cannot be decrypted: reconnect the mailbox");
    }

    let answer: TokenAnswer;
    try {
      answer = await refreshAccessToken(client, refreshToken, this.now);
    } catch (err) {
      if (err instanceof OAuthGrantRefusedError) {
        const reason = refusedRefreshTokenReason(row.provider, err);
        await this.markRevoked(tx, row, row.provider, reason);
        this.logger?.warn("oauth refresh token refused", { connectionId, provider: row.provider, error: err.error });
        return { revoked: reason };
      }
      if (err instanceof OAuthEndpointError) {
        this.logger?.warn("oauth token endpoint unavailable", { connectionId, provider: row.provider, reason: err.message });
        throw new MailboxTokenUnavailableError(connectionId, `${MAILBOX_PRESETS[row.provider].label}'s token endpoint: ${err.message}`);
      }
      throw err;
    }
    await tx.oAuthConnection.update({
      where: { id: row.id },
      data: {
        accessTokenEnc: sealConnectionToken(answer.accessToken, this.keys, "accessTokenEnc", row.id),
        accessTokenExpiresAt: answer.expiresAt,
        ...(answer.refreshToken && answer.refreshToken !== refreshToken ? { refreshTokenEnc: sealConnectionToken(answer.refreshToken, this.keys, "refreshTokenEnc", row.id) } : {}),
        ...(answer.scopes ? { scopes: answer.scopes } : {}),
        updatedAt: this.now(),
      },
    });
    return { ok: { user: row.email, accessToken: answer.accessToken, expiresAt: answer.expiresAt } };
  }

  private storedAccessToken(row: OAuthConnectionTokenRow): MailboxAccessToken | null {
    if (!row.accessTokenEnc || !row.accessTokenExpiresAt) return null;
    try {
      return { user: row.email, accessToken: decryptSecret(row.accessTokenEnc, this.keys, secretAad("oauth_connections", "accessTokenEnc", row.id)), expiresAt: row.accessTokenExpiresAt };
    } catch (err) {
      if (err instanceof SecretUnreadableError) return null; // obtain a new one
      throw err;
    }
  }

  /** The connection failed for good: its error, each credential's error and one credential.auth_failed per credential. */
  private async markRevoked(tx: Tx, row: OAuthConnectionTokenRow, provider: OAuthProvider, reason: string): Promise<void> {
    const now = this.now();
    await tx.oAuthConnection.update({ where: { id: row.id }, data: { authError: reason, authFailedAt: now, accessTokenEnc: null, accessTokenExpiresAt: null, updatedAt: now } });
    for (const credential of await credentialsOfOAuthConnection(tx, row.id)) {
      await recordCredentialError(tx, credential.id, reason, now);
      await recordEvent(tx, credential.accountId, "credential.auth_failed", {
        credential_id: credential.id,
        campaign_id: credential.campaignId,
        from_email: credential.fromEmail,
        provider,
        reason,
      });
    }
  }
}

/** PostgreSQL's lock_not_available (55P03), however Prisma wraps it. */
function isLockTimeout(err: unknown): boolean {
  const text = err instanceof Error ? `${err.message} ${String((err as { code?: unknown }).code ?? "")}` : "";
  return /55P03|lock timeout|lock_not_available/i.test(text);
}
