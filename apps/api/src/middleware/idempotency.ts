import type { Request, RequestHandler } from "express";
import { AppError, sha256Hex, errorFields } from "@outreach/core";
import type { ApiContext } from "../context.js";
import { authOf } from "../auth.js";
import { claimIdempotencyKey, type StoredAnswer } from "../idempotency-claims.js";

const KEY_SHAPE = /^[\x21-\x7e]{1,255}$/;

/** An Idempotency-Key header as sent, or 400 bad_request when it is not 1 to 255 printable ASCII characters. */
export function checkIdempotencyKey(key: string): string {
  if (!KEY_SHAPE.test(key)) throw new AppError("bad_request", "Idempotency-Key must be 1 to 255 printable ASCII characters.");
  return key;
}
const REPLAYED_HEADERS = ["content-type", "location"];

/** What a request's hash starts with; the body as compact JSON follows (a route that streams its body hashes it while reading). */
export function requestHashPrefix(req: Request): string {
  return `${req.method} ${req.originalUrl.split("?")[0]!}\n`;
}

/** Marks a route handler that honours Idempotency-Key (the middleware below, or a handler that claims the key itself). */
const HONOURS_IDEMPOTENCY_KEY = Symbol("honoursIdempotencyKey");

export function markIdempotent<T extends RequestHandler>(handler: T): T {
  (handler as unknown as Record<symbol, boolean>)[HONOURS_IDEMPOTENCY_KEY] = true;
  return handler;
}

/** True for a handler made by idempotent() or marked by markIdempotent(). */
export function honoursIdempotencyKey(handler: unknown): boolean {
  return typeof handler === "function" && (handler as unknown as Record<symbol, boolean>)[HONOURS_IDEMPOTENCY_KEY] === true;
}

/**
 * Answers that are not stored, so a retry with the same key runs again: 5xx (the
 * request may not have done its work) and 429 (it was refused for now, not for good).
 */
export function isRetryableStatus(status: number): boolean {
  return status >= 500 || status === 429;
}

function requestHash(req: Request): string {
  return sha256Hex(`${requestHashPrefix(req)}${JSON.stringify(req.body ?? null)}`);
}

/**
 * Idempotency-Key (per account, 24 h; see claimIdempotencyKey): the first
 * request with a key executes and its response is stored; a repeat with the
 * same body gets that response verbatim with Idempotent-Replay: true; a
 * different body gets 409 idempotency_conflict; a concurrent repeat waits for
 * the first. The response is stored when the handler answers, whether or not
 * the client is still connected, so a retry after a disconnect replays it.
 * Every 2xx and 4xx answer is stored, validation errors included; 5xx and 429
 * answers are not (isRetryableStatus), so the client can retry them.
 */
export function idempotent(ctx: ApiContext): RequestHandler {
  return markIdempotent(async (req, res, next) => {
    const key = req.get("idempotency-key");
    if (key === undefined) return next();
    checkIdempotencyKey(key);
    const { accountId } = authOf(res);
    // routes that stream their body (contact imports) leave its hash in res.locals.requestHash
    const hash = typeof res.locals.requestHash === "string" ? res.locals.requestHash : requestHash(req);
    const claim = await claimIdempotencyKey(ctx, { accountId, key, method: req.method, path: req.originalUrl.split("?")[0]!, requestHash: hash });
    if (claim.kind === "replay") {
      for (const [name, value] of Object.entries(claim.headers)) res.setHeader(name, value);
      res.setHeader("Idempotent-Replay", "true");
      res.status(claim.status).send(claim.body);
      return;
    }

    let sentBody: string | undefined;
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      void claim.release(storedAnswer()).catch((err) => ctx.logger.error("could not store idempotent response", { ...errorFields(err) }));
    };
    const send = res.send.bind(res);
    res.send = (body?: unknown) => {
      sentBody ??= typeof body === "string" ? body : Buffer.isBuffer(body) ? body.toString("utf8") : body === undefined ? "" : JSON.stringify(body);
      const result = send(body as never);
      // the handler has answered (status and headers are final), even if nobody is listening any more
      finish();
      return result;
    };
    const storedAnswer = (): StoredAnswer | null => {
      if (isRetryableStatus(res.statusCode) || sentBody === undefined) return null;
      const headers: Record<string, string> = {};
      for (const name of REPLAYED_HEADERS) {
        const value = res.getHeader(name);
        if (value !== undefined) headers[name] = String(value);
      }
      return { status: res.statusCode, headers, body: sentBody };
    };
    // a response ended without res.send (no body to replay) gives the key back
    res.once("finish", finish);
    next();
  });
}
