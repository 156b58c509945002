import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type { Request, RequestHandler, Response } from "express";
import { AppError } from "@outreach/core";

/** The cookie a browser gets for the token it brought once in `?token=`. */
export const OPERATOR_COOKIE = "outreach_operator";
/** How long that cookie lets a browser in. */
export const OPERATOR_SESSION_SECONDS = 12 * 3600;

const sha256 = (text: string) => createHash("sha256").update(text).digest();

/** Equal in constant time: both sides are hashed first, so their lengths never show either. */
function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(sha256(given), sha256(expected));
}

/** A session cookie's value: its expiry and an HMAC of it keyed with the token (the token itself is never stored in the browser). */
function sessionValue(token: string, expiresAt: number): string {
  return `${expiresAt}.${createHmac("sha256", token).update(`operator-session:${expiresAt}`).digest("hex")}`;
}

function validSession(token: string, value: string | undefined, now = Date.now()): boolean {
  const match = /^(\d{13})\.[0-9a-f]{64}$/.exec(value ?? "");
  if (!match) return false;
  const expiresAt = Number(match[1]);
  return expiresAt > now && sameSecret(value!, sessionValue(token, expiresAt));
}

function cookieOf(req: Request, name: string): string | undefined {
  for (const part of (req.get("cookie") ?? "").split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return rest.join("=");
  }
  return undefined;
}

function unauthorized(): never {
  throw new AppError(
    "unauthorized",
    "The operator views need OPERATOR_TOKEN: send Authorization: Bearer <OPERATOR_TOKEN>, or in a browser open /admin/queues?token=<OPERATOR_TOKEN> once.",
    undefined,
    { "WWW-Authenticate": 'Bearer realm="operator"' },
  );
}

/** The path and query of this request without its `token` parameter. */
function withoutToken(req: Request): string {
  const url = new URL(req.originalUrl, "http://operator.invalid");
  url.searchParams.delete("token");
  return `${url.pathname}${url.search}`;
}

/** A page that sets the session cookie and moves on: a same-site navigation, so a SameSite=Strict cookie goes with it. */
function sessionPage(res: Response, token: string, next: string): void {
  const expiresAt = Date.now() + OPERATOR_SESSION_SECONDS * 1000;
  res.setHeader("Set-Cookie", `${OPERATOR_COOKIE}=${sessionValue(token, expiresAt)}; Path=/admin; Max-Age=${OPERATOR_SESSION_SECONDS}; HttpOnly; SameSite=Strict`);
  res.setHeader("Cache-Control", "no-store");
  // the address with the token is neither sent on nor kept
  res.setHeader("Referrer-Policy", "no-referrer");
  res.setHeader("Content-Security-Policy", "default-src 'none'; img-src data:; frame-ancestors 'none'");
  const href = next.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  res
    .type("html")
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${href}"><link rel="icon" href="data:,"><title>Signed in</title></head><body><p>Signed in for ${OPERATOR_SESSION_SECONDS / 3600} hours: <a href="${href}">continue</a>.</p></body></html>`,
    );
}

/**
 * The operator views' guard: `Authorization: Bearer <OPERATOR_TOKEN>` (scripts,
 * curl), or the session cookie a browser got by opening a view once with
 * `?token=<OPERATOR_TOKEN>`: HttpOnly, SameSite=Strict, Path=/admin, for
 * OPERATOR_SESSION_SECONDS; it holds an HMAC of its expiry, never the token.
 * Every comparison is in constant time. Anything else is 401 with
 * WWW-Authenticate.
 */
export function operatorAuth(token: string): RequestHandler {
  return (req, res, next) => {
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(req.get("authorization") ?? "")?.[1];
    if (bearer !== undefined) {
      if (sameSecret(bearer, token)) return next();
      unauthorized();
    }
    const query = req.query.token;
    if (query !== undefined) {
      if (typeof query === "string" && sameSecret(query, token) && req.method === "GET") return sessionPage(res, token, withoutToken(req));
      unauthorized();
    }
    if (validSession(token, cookieOf(req, OPERATOR_COOKIE))) return next();
    unauthorized();
  };
}
