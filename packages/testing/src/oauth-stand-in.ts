import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { randomBytes } from "node:crypto";
import { listenOnLoopback } from "./free-port.js";

/** A request the stand-in's token endpoint received (client_id from the body or HTTP Basic). */
export interface OAuthTokenRequest {
  grant_type: string;
  client_id?: string;
  code?: string;
  refresh_token?: string;
}

export interface OAuthStandInOptions {
  /** lifetime of the access tokens it issues (3600 unless told) */
  accessTokenTtlSeconds: number;
  /** whether a refresh_token grant answers a new refresh token too (as Microsoft does) */
  rotateRefreshTokens: boolean;
}

export interface OAuthStandIn {
  /** http://127.0.0.1:<port> */
  url: string;
  authorizeUrl: string;
  tokenUrl: string;
  /** what Dovecot's oauth2 passdb asks (GET with `Authorization: Bearer <token>`) */
  introspectionUrl: string;
  /** the only client the stand-in accepts */
  clientId: string;
  clientSecret: string;
  /** Plays the user consenting: given the authorization URL the service built, answers the callback URL (redirect_uri?code=...&state=...) for that mailbox. */
  consent(authorizationUrl: string, email: string): string;
  /** A refresh token for the mailbox as if obtained elsewhere. */
  issueRefreshToken(email: string): string;
  /** An access token for the mailbox, as a refresh would answer (e.g. for a test's own IMAP login). */
  issueAccessToken(email: string): string;
  /** The refresh token stops working: a refresh with it answers 400 {"error":"invalid_grant"}. */
  revokeRefreshToken(refreshToken: string): void;
  /** Revokes every refresh and access token of the mailbox (the user removed the app's access). */
  revokeMailbox(email: string): void;
  /** Every access token issued so far becomes invalid (as if expired). */
  expireAccessTokens(): void;
  /** The mailbox an access token belongs to, or null when unknown, expired or revoked. */
  userOfAccessToken(token: string): string | null;
  /** The next `count` token requests fail with `status` (500 unless told) without doing anything. */
  failNextTokenRequests(count: number, status?: number): void;
  /** every token request received, in order */
  tokenRequests: OAuthTokenRequest[];
  /** how many introspection requests were answered */
  introspections: number;
  /** mutable: changes apply to the next tokens issued */
  options: OAuthStandInOptions;
  close(): Promise<void>;
}

interface PendingCode {
  email: string;
  redirectUri: string;
  scope: string;
  used: boolean;
}

interface AccessToken {
  email: string;
  expiresAt: number;
  revoked: boolean;
}

interface RefreshToken {
  email: string;
  scope: string;
  revoked: boolean;
}

const DEFAULT_SCOPE = "https://mail.google.com/ openid email";
const MAX_BODY_BYTES = 64 * 1024;

const token = (prefix: string) => `${prefix}-${randomBytes(18).toString("base64url")}`;
const sameMailbox = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" }).end(JSON.stringify(body));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error("body too large"));
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/** The client credentials of a token request: HTTP Basic (client_secret_basic) or the form's (client_secret_post). */
function clientOf(req: IncomingMessage, form: URLSearchParams): { id?: string; secret?: string } {
  const header = req.headers.authorization ?? "";
  if (header.startsWith("Basic ")) {
    const decoded = Buffer.from(header.slice(6), "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon > 0) return { id: decodeURIComponent(decoded.slice(0, colon)), secret: decodeURIComponent(decoded.slice(colon + 1)) };
  }
  return { id: form.get("client_id") ?? undefined, secret: form.get("client_secret") ?? undefined };
}

/**
 * A local stand-in of an OAuth2 authorization server (Google's or Microsoft's, which
 * cannot be reached from here): the authorization code and refresh token grants of
 * its token endpoint, an unsigned id_token naming the mailbox, and an introspection
 * endpoint Dovecot's oauth2 passdb and the XOAUTH2-only SMTP test server check
 * access tokens against. Tests play the user with `consent()` and the provider's
 * side with revocation, expiry and injected failures.
 */
export async function startOAuthStandIn(options: Partial<OAuthStandInOptions> = {}): Promise<OAuthStandIn> {
  const clientId = "stand-in-client-id.apps.example.test";
  const clientSecret = token("secret");
  const codes = new Map<string, PendingCode>();
  const accessTokens = new Map<string, AccessToken>();
  const refreshTokens = new Map<string, RefreshToken>();
  const failures = { count: 0, status: 500 };
  let base = "";

  function issueAccessToken(email: string): { accessToken: string; expiresIn: number } {
    const expiresIn = standIn.options.accessTokenTtlSeconds;
    const accessToken = token("access");
    accessTokens.set(accessToken, { email, expiresAt: Date.now() + expiresIn * 1000, revoked: false });
    return { accessToken, expiresIn };
  }

  function idToken(email: string): string {
    const now = Math.floor(Date.now() / 1000);
    const payload = { iss: base, aud: clientId, sub: `sub-${email.toLowerCase()}`, email, email_verified: true, preferred_username: email, iat: now, exp: now + 3600 };
    return `${base64url({ alg: "none", typ: "JWT" })}.${base64url(payload)}.`;
  }

  function tokenAnswer(email: string, scope: string, refreshToken: string | undefined) {
    const { accessToken, expiresIn } = issueAccessToken(email);
    return {
      access_token: accessToken,
      token_type: "Bearer",
      expires_in: expiresIn,
      ...(refreshToken ? { refresh_token: refreshToken } : {}),
      scope,
      id_token: idToken(email),
    };
  }

  function newRefreshToken(email: string, scope: string): string {
    const refreshToken = token("refresh");
    refreshTokens.set(refreshToken, { email, scope, revoked: false });
    return refreshToken;
  }

  async function handleToken(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== "POST") return json(res, 405, { error: "invalid_request", error_description: "POST only" });
    const form = new URLSearchParams(await readBody(req));
    const client = clientOf(req, form);
    const grantType = form.get("grant_type") ?? "";
    standIn.tokenRequests.push({
      grant_type: grantType,
      ...(client.id !== undefined ? { client_id: client.id } : {}),
      ...(form.has("code") ? { code: form.get("code")! } : {}),
      ...(form.has("refresh_token") ? { refresh_token: form.get("refresh_token")! } : {}),
    });
    if (failures.count > 0) {
      failures.count -= 1;
      return json(res, failures.status, { error: "server_error", error_description: "stand-in failure" });
    }
    if (!String(req.headers["content-type"] ?? "").startsWith("application/x-www-form-urlencoded")) {
      return json(res, 400, { error: "invalid_request", error_description: "form-encoded body expected" });
    }
    if (client.id !== clientId || client.secret !== clientSecret) return json(res, 401, { error: "invalid_client", error_description: "The OAuth client was not found." });
    if (grantType === "authorization_code") {
      const code = codes.get(form.get("code") ?? "");
      if (!code || code.used) return json(res, 400, { error: "invalid_grant", error_description: "Malformed auth code." });
      if (form.get("redirect_uri") !== code.redirectUri) return json(res, 400, { error: "redirect_uri_mismatch", error_description: "Bad Request" });
      code.used = true;
      return json(res, 200, tokenAnswer(code.email, code.scope, newRefreshToken(code.email, code.scope)));
    }
    if (grantType === "refresh_token") {
      const presented = form.get("refresh_token") ?? "";
      const known = refreshTokens.get(presented);
      if (!known || known.revoked) return json(res, 400, { error: "invalid_grant", error_description: "Token has been expired or revoked." });
      const rotated = standIn.options.rotateRefreshTokens ? newRefreshToken(known.email, known.scope) : undefined;
      return json(res, 200, tokenAnswer(known.email, known.scope, rotated));
    }
    return json(res, 400, { error: "unsupported_grant_type", error_description: `grant_type ${grantType || "(none)"}` });
  }

  async function handleIntrospect(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const header = req.headers.authorization ?? "";
    let presented = header.startsWith("Bearer ") ? header.slice(7).trim() : "";
    if (!presented && req.method === "POST") presented = new URLSearchParams(await readBody(req)).get("token") ?? "";
    standIn.introspections += 1;
    const user = standIn.userOfAccessToken(presented);
    // Dovecot reads the body only, whatever the status: always 200.
    json(res, 200, user ? { active: true, username: user } : { active: false });
  }

  /** A browser following the authorization URL: consent as the login_hint's mailbox at once. */
  function handleAuthorize(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? "/", base);
    const email = url.searchParams.get("login_hint");
    if (!email) return json(res, 400, { error: "invalid_request", error_description: "the stand-in needs login_hint to know who consents" });
    try {
      res.writeHead(302, { location: standIn.consent(url.toString(), email) }).end();
    } catch (error) {
      json(res, 400, { error: "invalid_request", error_description: (error as Error).message });
    }
  }

  const server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://stand-in").pathname;
    const handled =
      path === "/token"
        ? handleToken(req, res)
        : path === "/introspect"
          ? handleIntrospect(req, res)
          : path === "/authorize"
            ? Promise.resolve(handleAuthorize(req, res))
            : Promise.resolve(json(res, 404, { error: "not_found" }));
    handled.catch((error: Error) => {
      if (!res.headersSent) json(res, 400, { error: "invalid_request", error_description: error.message });
    });
  });

  const standIn: Omit<OAuthStandIn, "url" | "authorizeUrl" | "tokenUrl" | "introspectionUrl" | "close"> = {
    clientId,
    clientSecret,
    tokenRequests: [],
    introspections: 0,
    options: { accessTokenTtlSeconds: options.accessTokenTtlSeconds ?? 3600, rotateRefreshTokens: options.rotateRefreshTokens ?? false },
    consent(authorizationUrl, email) {
      const url = new URL(authorizationUrl);
      const params = url.searchParams;
      if (`${url.origin}${url.pathname}` !== `${base}/authorize`) throw new Error(`not this stand-in's authorization URL: ${url.origin}${url.pathname}`);
      if (params.get("client_id") !== clientId) throw new Error(`unknown client_id ${params.get("client_id")}`);
      if (params.get("response_type") !== "code") throw new Error(`response_type must be code, not ${params.get("response_type")}`);
      const redirectUri = params.get("redirect_uri");
      if (!redirectUri) throw new Error("redirect_uri missing");
      const code = token("code");
      codes.set(code, { email, redirectUri, scope: params.get("scope") ?? DEFAULT_SCOPE, used: false });
      const callback = new URL(redirectUri);
      callback.searchParams.set("code", code);
      const state = params.get("state");
      if (state !== null) callback.searchParams.set("state", state);
      return callback.toString();
    },
    issueRefreshToken(email) {
      return newRefreshToken(email, DEFAULT_SCOPE);
    },
    issueAccessToken(email) {
      return issueAccessToken(email).accessToken;
    },
    revokeRefreshToken(refreshToken) {
      const known = refreshTokens.get(refreshToken);
      if (known) known.revoked = true;
    },
    revokeMailbox(email) {
      for (const known of refreshTokens.values()) if (sameMailbox(known.email, email)) known.revoked = true;
      for (const known of accessTokens.values()) if (sameMailbox(known.email, email)) known.revoked = true;
    },
    expireAccessTokens() {
      const now = Date.now();
      for (const known of accessTokens.values()) known.expiresAt = Math.min(known.expiresAt, now - 1);
    },
    userOfAccessToken(presented) {
      const known = accessTokens.get(presented);
      return known && !known.revoked && known.expiresAt > Date.now() ? known.email : null;
    },
    failNextTokenRequests(count, status = 500) {
      failures.count = count;
      failures.status = status;
    },
  };

  const port = await listenOnLoopback(server);
  base = `http://127.0.0.1:${port}`;
  return Object.assign(standIn, {
    url: base,
    authorizeUrl: `${base}/authorize`,
    tokenUrl: `${base}/token`,
    introspectionUrl: `${base}/introspect`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}
