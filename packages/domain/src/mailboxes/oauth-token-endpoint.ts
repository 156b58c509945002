import { AnswerTooLargeError, readBounded } from "@outreach/core";
import type { OAuthClient } from "./oauth-providers.js";

/** The longest a token request may take, answer read included. */
export const TOKEN_REQUEST_TIMEOUT_MS = 10_000;
/** The most of a token endpoint's answer that is read: a token answer is a few KiB. */
export const TOKEN_ANSWER_BYTE_LIMIT = 64 * 1024;

/** What a token endpoint answered to a grant. */
export interface TokenAnswer {
  accessToken: string;
  expiresAt: Date;
  /** a (new) refresh token, when the answer carries one (a code grant; a refresh at a provider that rotates them) */
  refreshToken: string | null;
  /** the scopes granted, as the answer lists them */
  scopes: string | null;
  /** the OpenID Connect id_token, when the answer carries one */
  idToken: string | null;
}

/**
 * The provider refused the grant itself (HTTP 400/401 with `invalid_grant` or
 * `unauthorized_client`): the refresh token (or code) was revoked, expired or
 * already used. Asking again will not help.
 */
export class OAuthGrantRefusedError extends Error {
  constructor(
    readonly error: string,
    readonly description: string | null,
  ) {
    super(description ? `${error}: ${description}` : error);
    this.name = "OAuthGrantRefusedError";
  }
}

/** The token endpoint could not give an answer to use: unreachable, slow, 5xx, a redirect, garbage. Transient. */
export class OAuthEndpointError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "OAuthEndpointError";
  }
}

const REFUSED_GRANT_ERRORS = new Set(["invalid_grant", "unauthorized_client"]);

const text = (value: unknown): string | null => (typeof value === "string" && value.length > 0 ? value : null);

/**
 * POSTs a grant (form encoded, with the client's id and secret) to the
 * client's token URL: at most TOKEN_REQUEST_TIMEOUT_MS, answer capped, no
 * redirect followed (the client secret goes to the configured URL only).
 */
export async function requestToken(client: OAuthClient, grant: Record<string, string>, now: () => Date = () => new Date()): Promise<TokenAnswer> {
  const timeout = AbortSignal.timeout(TOKEN_REQUEST_TIMEOUT_MS);
  let status: number;
  let body: string;
  try {
    const response = await fetch(client.tokenUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: new URLSearchParams({ ...grant, client_id: client.clientId, client_secret: client.clientSecret }).toString(),
      redirect: "error",
      signal: timeout,
    });
    status = response.status;
    body = await readBounded(response, TOKEN_ANSWER_BYTE_LIMIT);
  } catch (err) {
    if (timeout.aborted) throw new OAuthEndpointError(`the token endpoint did not answer within ${TOKEN_REQUEST_TIMEOUT_MS / 1000} s`);
    if (err instanceof AnswerTooLargeError) throw new OAuthEndpointError(`the token endpoint's ${err.message}`);
    throw new OAuthEndpointError(`the token endpoint could not be reached (${(err as Error).message})`);
  }
  let answer: Record<string, unknown> | null = null;
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) answer = parsed as Record<string, unknown>;
  } catch {
    answer = null;
  }
  if (status === 400 || status === 401) {
    const error = text(answer?.error);
    if (error && REFUSED_GRANT_ERRORS.has(error)) throw new OAuthGrantRefusedError(error, text(answer?.error_description)?.slice(0, 300) ?? null);
    throw new OAuthEndpointError(`the token endpoint answered HTTP ${status}${error ? ` (${error.slice(0, 100)})` : ""}`);
  }
  if (status < 200 || status > 299) throw new OAuthEndpointError(`the token endpoint answered HTTP ${status}`);
  const accessToken = text(answer?.access_token);
  if (!answer || !accessToken) throw new OAuthEndpointError("the token endpoint's answer has no access_token");
  const expiresIn = Number(answer.expires_in);
  // no (readable) lifetime: assume an hour, the usual one; a 535 refreshes it sooner anyway
  const seconds = Number.isFinite(expiresIn) && expiresIn > 0 ? Math.min(expiresIn, 86_400 * 30) : 3600;
  return {
    accessToken,
    expiresAt: new Date(now().getTime() + seconds * 1000),
    refreshToken: text(answer.refresh_token),
    scopes: text(answer.scope),
    idToken: text(answer.id_token),
  };
}

/** A new access token for the refresh token. */
export function refreshAccessToken(client: OAuthClient, refreshToken: string, now?: () => Date): Promise<TokenAnswer> {
  return requestToken(client, { grant_type: "refresh_token", refresh_token: refreshToken }, now);
}

/** What the authorization-code grant gives for a new connection. */
export interface AuthorizedMailbox {
  refreshToken: string;
  accessToken: string;
  expiresAt: Date;
  /** the mailbox address, from the id_token */
  email: string;
  scopes: string | null;
}

/**
 * The mailbox address an id_token names: the `email` claim, or for Microsoft
 * accounts (whose id_token may carry none) `preferred_username` or `upn`.
 * The token is read without checking its signature: it came straight from
 * the provider's token endpoint over the connection the client opened, which
 * OpenID Connect Core 1.0 section 3.1.3.7 allows in place of validating it.
 */
export function emailOfIdToken(idToken: string): string | null {
  const payload = idToken.split(".")[1];
  if (!payload) return null;
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    return null;
  }
  if (!claims || typeof claims !== "object") return null;
  const record = claims as Record<string, unknown>;
  for (const claim of ["email", "preferred_username", "upn"]) {
    const value = text(record[claim]);
    if (value && /^[^\s@]+@[^\s@]+$/.test(value) && value.length <= 320) return value;
  }
  return null;
}

/** Exchanges the code the provider's callback carried (redirectUri: the one the authorize URL named). */
export async function exchangeAuthorizationCode(client: OAuthClient, code: string, redirectUri: string, now?: () => Date): Promise<AuthorizedMailbox> {
  const answer = await requestToken(client, { grant_type: "authorization_code", code, redirect_uri: redirectUri }, now);
  if (!answer.refreshToken) throw new OAuthEndpointError("the provider issued no refresh token (the consent must ask for offline access)");
  const email = answer.idToken ? emailOfIdToken(answer.idToken) : null;
  if (!email) throw new OAuthEndpointError("the provider's answer does not name the mailbox (no email in the id_token; the openid and email scopes are needed)");
  return { refreshToken: answer.refreshToken, accessToken: answer.accessToken, expiresAt: answer.expiresAt, email, scopes: answer.scopes };
}
