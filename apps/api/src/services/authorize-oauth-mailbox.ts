import { AppError, type Config, type KeySource } from "@outreach/core";
import { createOAuthState, isOAuthProvider, MAILBOX_PRESETS, oauthClientsFromConfig, type OAuthClient, type OAuthProvider } from "@outreach/domain";

/** The provider named in the path, and the deployment's client for it: 404 oauth_provider_not_found for an unknown one, 409 oauth_not_configured when its client id and secret are unset. */
export function oauthClientFor(config: Pick<Config, "oauth">, provider: string): { provider: OAuthProvider; client: OAuthClient } {
  if (!isOAuthProvider(provider)) throw new AppError("oauth_provider_not_found", `Unknown OAuth provider ${JSON.stringify(provider.slice(0, 40))}: google or microsoft.`);
  const client = oauthClientsFromConfig(config)[provider];
  if (!client) throw notConfigured(provider);
  return { provider, client };
}

export function notConfigured(provider: OAuthProvider): AppError {
  const prefix = provider.toUpperCase();
  return new AppError(
    "oauth_not_configured",
    `${MAILBOX_PRESETS[provider].label} OAuth2 mailboxes are not configured on this deployment: its operator sets ${prefix}_OAUTH_CLIENT_ID and ${prefix}_OAUTH_CLIENT_SECRET.`,
  );
}

/** Where the provider sends the browser back: PUBLIC_BASE_URL/oauth/:provider/callback (registered as the OAuth app's redirect URI). */
export function oauthRedirectUri(config: Pick<Config, "publicBaseUrl">, provider: OAuthProvider): string {
  return `${config.publicBaseUrl}/oauth/${provider}/callback`;
}

/**
 * The provider's authorization URL for the account to connect a mailbox: the
 * deployment's client, the callback as redirect_uri, the provider's scopes
 * and a signed state (account, provider, single-use nonce, 10 minutes).
 */
export function authorizeOAuthMailbox(config: Pick<Config, "oauth" | "publicBaseUrl">, keys: KeySource, accountId: string, providerName: string, loginHint?: string, now = new Date()) {
  const { provider, client } = oauthClientFor(config, providerName);
  const preset = MAILBOX_PRESETS[provider];
  const made = createOAuthState(keys, accountId, provider, now);
  const url = new URL(client.authorizeUrl);
  const params: Record<string, string> = {
    response_type: "code",
    client_id: client.clientId,
    redirect_uri: oauthRedirectUri(config, provider),
    scope: preset.scopes,
    state: made.state,
    ...preset.authorizeParams,
    ...(loginHint ? { login_hint: loginHint } : {}),
  };
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return { authorization_url: url.toString(), state: made.state, expires_at: made.expiresAt };
}
