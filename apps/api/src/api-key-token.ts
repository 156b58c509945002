import { randomToken, sha256Hex } from "@outreach/core";

export const TOKEN_PREFIX = "ak_live_";
// ak_live_ + 43 base64url characters (32 random bytes)
const TOKEN_SHAPE = /^ak_live_[A-Za-z0-9_-]{43}$/;

export interface NewToken {
  plaintext: string;
  prefix: string;
  hash: string;
}

export function generateApiKeyToken(): NewToken {
  const plaintext = TOKEN_PREFIX + randomToken(32);
  return { plaintext, prefix: plaintext.slice(0, 12), hash: sha256Hex(plaintext) };
}

export function isWellFormedToken(token: string): boolean {
  return TOKEN_SHAPE.test(token);
}
