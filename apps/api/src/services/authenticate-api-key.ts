import { AppError, sha256Hex } from "@outreach/core";
import type { Db } from "@outreach/db";
import type { ApiKeyCache } from "../api-key-cache.js";
import { isWellFormedToken } from "../api-key-token.js";
import type { AuthContext } from "../auth.js";

/**
 * Called before a key is looked up in the database, with whether the key
 * resolved recently on this replica; it may throw to refuse the lookup.
 */
export type BeforeKeyLookup = (wasValid: boolean) => Promise<void>;

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** The SHA-256 of a well-formed "Bearer <token>", or null (no header, or not one of our keys in shape). */
export function tokenHashOf(authorization: string | undefined): string | null {
  const token = BEARER.exec(authorization ?? "")?.[1];
  return token && isWellFormedToken(token) ? sha256Hex(token) : null;
}

/**
 * The caller of a key the cache holds as fresh, without waiting for anything
 * (the path of nearly every request); undefined means "use authenticateApiKey".
 */
export function cachedApiKey(cache: ApiKeyCache, authorization: string | undefined): AuthContext | undefined {
  const tokenHash = tokenHashOf(authorization);
  return tokenHash ? cache.get(tokenHash) : undefined;
}

/**
 * Resolves "Bearer <token>" to its account; 401 unauthorized for anything missing,
 * malformed or revoked. Known keys, and unknown or revoked ones, are answered from
 * the cache; only a key the cache has no answer for costs a query.
 */
export async function authenticateApiKey(db: Db, cache: ApiKeyCache, authorization: string | undefined, beforeLookup?: BeforeKeyLookup): Promise<AuthContext> {
  const tokenHash = tokenHashOf(authorization);
  if (!tokenHash) throw new AppError("unauthorized");
  const cached = cache.get(tokenHash);
  if (cached) return cached;
  if (cache.isInvalid(tokenHash)) throw new AppError("unauthorized");
  await beforeLookup?.(cache.wasValid(tokenHash));
  const key = await db.apiKey.findUnique({
    where: { tokenHash },
    select: { id: true, accountId: true, clientKind: true, revokedAt: true, account: { select: { suspendedAt: true } } },
  });
  if (!key || key.revokedAt) {
    cache.setInvalid(tokenHash);
    throw new AppError("unauthorized");
  }
  // a suspended account's key is still its key: cached as such, refused by authenticate()
  const auth: AuthContext = { accountId: key.accountId, apiKeyId: key.id, clientKind: key.clientKind, suspendedAt: key.account.suspendedAt };
  cache.set(tokenHash, auth);
  return auth;
}
