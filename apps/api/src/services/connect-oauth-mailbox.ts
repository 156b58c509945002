import { AppError, redisKeys, type Config, type KeySource, type RedisClient } from "@outreach/core";
import type { Db, OAuthConnection } from "@outreach/db";
import { exchangeAuthorizationCode, OAuthEndpointError, OAuthGrantRefusedError, readOAuthState, saveOAuthConnection } from "@outreach/domain";
import { oauthClientFor, oauthRedirectUri } from "./authorize-oauth-mailbox.js";

export interface OAuthCallbackInput {
  code?: string;
  state?: string;
  error?: string;
  error_description?: string;
}

const invalidState = () => new AppError("invalid_oauth_state");

/**
 * The provider's redirect after the mailbox's owner consented (GET
 * /oauth/:provider/callback): the state must be one this deployment signed
 * for this provider, unexpired and not used before (its nonce is claimed in
 * Redis); only then is the code exchanged (the refresh token, an access token
 * and the address from the id_token) and the account's connection for that
 * mailbox stored, healthy again if it existed. Nothing is exchanged for a bad
 * state or an error the provider reports.
 */
export async function connectOAuthMailbox(
  deps: { db: Db; redis: RedisClient; config: Pick<Config, "oauth" | "publicBaseUrl" | "queuePrefix">; keyring: KeySource },
  providerName: string,
  input: OAuthCallbackInput,
  now = new Date(),
): Promise<OAuthConnection> {
  const { provider, client } = oauthClientFor(deps.config, providerName);
  if (input.error !== undefined) {
    const detail = input.error_description ? `: ${input.error_description.slice(0, 300)}` : "";
    const refusal = input.error === "access_denied" ? "The mailbox's owner did not grant access" : `The provider reported ${JSON.stringify(input.error.slice(0, 100))}`;
    throw new AppError("oauth_access_denied", `${refusal}${detail}; nothing was connected. Start again with POST /oauth/${provider}/authorize.`);
  }
  const state = readOAuthState(deps.keyring, input.state, provider, now);
  if (!state) throw invalidState();
  if (!input.code) throw new AppError("validation_failed", "code is required", { errors: [{ field: "code", message: "code is required" }] });
  const account = await deps.db.account.findUnique({ where: { id: state.accountId }, select: { id: true } });
  if (!account) throw invalidState();
  // each state connects once: a replayed callback URL exchanges nothing
  const ttlMs = Math.max(1, state.expiresAt.getTime() - now.getTime());
  const claimed = await deps.redis.set(redisKeys.oauthStateNonce(deps.config, state.nonce), "1", "PX", ttlMs, "NX");
  if (claimed !== "OK") throw invalidState();

  let mailbox;
  try {
    mailbox = await exchangeAuthorizationCode(client, input.code, oauthRedirectUri(deps.config, provider));
  } catch (err) {
    if (err instanceof OAuthGrantRefusedError)
      throw new AppError("oauth_code_refused", `The provider refused the authorization code (${err.message}); start again with POST /oauth/${provider}/authorize.`);
    if (err instanceof OAuthEndpointError) throw new AppError("oauth_provider_unavailable", `The provider's token endpoint: ${err.message}.`);
    throw err;
  }
  const saved = await saveOAuthConnection(
    deps.db,
    deps.keyring,
    {
      accountId: state.accountId,
      provider,
      email: mailbox.email,
      refreshToken: mailbox.refreshToken,
      accessToken: mailbox.accessToken,
      accessTokenExpiresAt: mailbox.expiresAt,
      scopes: mailbox.scopes,
    },
    now,
  );
  return deps.db.oAuthConnection.findUniqueOrThrow({ where: { id: saved.id } });
}
