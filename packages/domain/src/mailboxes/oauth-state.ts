import { hkdfSync, randomBytes } from "node:crypto";
import { hmacSha256Hex, keyringOf, safeEqual, type KeySource } from "@outreach/core";
import { isOAuthProvider, type OAuthProvider } from "./oauth-providers.js";

/**
 * The `state` of an authorize URL: which account asked to connect a mailbox
 * of which provider, a nonce (used once: the API remembers it until the state
 * expires) and when it expires (10 minutes). base64url(JSON) "." the first 16
 * bytes of HMAC-SHA256 over it, keyed with a key derived from ENCRYPTION_KEY
 * for this purpose alone, so it cannot be forged, altered or taken for a
 * tracking token; made with the current key, accepted under any configured one.
 */
export const OAUTH_STATE_TTL_MS = 10 * 60_000;

const HKDF_INFO = "outreach oauth state v1";
const MAC_HEX = 32;
const STATE_PATTERN = /^[A-Za-z0-9_-]{10,400}\.[A-Za-z0-9_-]{22}$/;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const derivedKeys = new WeakMap<Buffer, Buffer>();

function stateKey(key: Buffer): Buffer {
  let derived = derivedKeys.get(key);
  if (!derived) {
    derived = Buffer.from(hkdfSync("sha256", key, Buffer.alloc(0), HKDF_INFO, 32));
    derivedKeys.set(key, derived);
  }
  return derived;
}

const mac = (body: string, key: Buffer) => hmacSha256Hex(stateKey(key), body).slice(0, MAC_HEX);

export interface OAuthState {
  accountId: string;
  provider: OAuthProvider;
  /** random, single-use */
  nonce: string;
  expiresAt: Date;
}

/** A new signed state for the account's authorization at the provider. */
export function createOAuthState(keys: KeySource, accountId: string, provider: OAuthProvider, now = new Date()): { state: string } & OAuthState {
  const nonce = randomBytes(16).toString("base64url");
  const expiresAt = new Date(now.getTime() + OAUTH_STATE_TTL_MS);
  const body = Buffer.from(JSON.stringify({ a: accountId, p: provider, n: nonce, e: expiresAt.getTime() })).toString("base64url");
  const key = Buffer.isBuffer(keys) ? keys : keys.current;
  const state = `${body}.${Buffer.from(mac(body, key), "hex").toString("base64url")}`;
  return { state, accountId, provider, nonce, expiresAt };
}

/**
 * What a state says, or null when it is malformed, forged, altered, expired,
 * or made for another provider. (That its nonce was not used before is the
 * caller's to check.)
 */
export function readOAuthState(keys: KeySource, state: unknown, provider: string, now = new Date()): OAuthState | null {
  if (typeof state !== "string" || !STATE_PATTERN.test(state)) return null;
  const [body, given] = state.split(".") as [string, string];
  const givenHex = Buffer.from(given, "base64url").toString("hex");
  const candidates = Buffer.isBuffer(keys) ? [keys] : keyringOf(keys).all;
  if (!candidates.some((key) => safeEqual(givenHex, mac(body, key)))) return null;
  let claims: { a?: unknown; p?: unknown; n?: unknown; e?: unknown };
  try {
    claims = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
  } catch {
    return null;
  }
  if (typeof claims.a !== "string" || !UUID_PATTERN.test(claims.a) || !isOAuthProvider(claims.p) || typeof claims.n !== "string" || typeof claims.e !== "number") return null;
  if (claims.p !== provider || claims.e <= now.getTime()) return null;
  return { accountId: claims.a, provider: claims.p, nonce: claims.n, expiresAt: new Date(claims.e) };
}
