import type { Request, RequestHandler } from "express";
import { AppError, decryptSecret, encryptSecret, secretAad, sha256Hex } from "@outreach/core";
import type { ApiContext } from "../context.js";
import { authOf } from "../auth.js";

/** A stored response opens only for its own account and key (the row's primary key). */
const responseBodyAad = (accountId: string, key: string) => secretAad("idempotency_records", "responseBody", `${accountId}/${key}`);

const KEY_SHAPE = /^[\x21-\x7e]{1,255}$/;
const REPLAY_WINDOW_MS = 24 * 3600_000;
const WAIT_FOR_FIRST_MS = 10_000;
// While its handler runs, a claim's heartbeat is refreshed this often...
const HEARTBEAT_EVERY_MS = 5_000;
// ...so a claim whose heartbeat is older than this has no handler running any more
// (its process died, or lost the database): another request may take the key over.
const ABANDONED_AFTER_SECONDS = 30;
// A handler that has not answered after this long is given up on: its claim stops beating.
const LONGEST_HANDLER_MS = 10 * 60_000;
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
 * Idempotency-Key (per account, 24 h): the first request with a key executes and
 * its response is stored; a repeat with the same body gets that response verbatim
 * with Idempotent-Replay: true; a different body gets 409 idempotency_conflict.
 * The key is claimed with an INSERT before the handler runs, so two concurrent
 * requests never both execute: the second waits for the first and replays it.
 * The claim lasts as long as the handler runs, whether or not the client is
 * still connected: the response is stored when the handler answers, and a
 * retry after a disconnect replays it. A claim is taken over only when its
 * heartbeat (refreshed while the handler runs) has stopped.
 * Every 2xx and 4xx answer is stored, validation errors included; 5xx and 429
 * answers are not (isRetryableStatus), so the client can retry them. Stored bodies are
 * encrypted, since some responses show a secret once (API keys, webhook secrets);
 * expired records are deleted by the retention purge (purgeOldRows) and never replayed.
 */
export function idempotent(ctx: ApiContext): RequestHandler {
  return markIdempotent(async (req, res, next) => {
    const key = req.get("idempotency-key");
    if (key === undefined) return next();
    if (!KEY_SHAPE.test(key)) throw new AppError("bad_request", "Idempotency-Key must be 1 to 255 printable ASCII characters.");
    const { accountId } = authOf(res);
    const path = req.originalUrl.split("?")[0]!;
    // routes that stream their body (contact imports) leave its hash in res.locals.requestHash
    const hash = typeof res.locals.requestHash === "string" ? res.locals.requestHash : requestHash(req);

    const deadline = Date.now() + WAIT_FOR_FIRST_MS;
    for (;;) {
      const claimed = await ctx.db.$executeRaw`
        INSERT INTO idempotency_records ("accountId", key, method, path, "requestHash", "expiresAt")
        VALUES (${accountId}::uuid, ${key}, ${req.method}, ${path}, ${hash}, ${new Date(Date.now() + REPLAY_WINDOW_MS)})
        ON CONFLICT ("accountId", key) DO NOTHING`;
      if (claimed === 1) break;

      const record = await ctx.db.idempotencyRecord.findUnique({ where: { accountId_key: { accountId, key } } });
      if (!record) continue; // removed in between; claim again
      if (record.expiresAt.getTime() < Date.now()) {
        await ctx.db.idempotencyRecord.deleteMany({ where: { accountId, key, createdAt: record.createdAt } });
        continue;
      }
      // the heartbeat is compared on the database's clock, the one that wrote it
      const abandoned = record.responseStatus === null && (await ctx.db.$executeRaw`
        DELETE FROM idempotency_records WHERE "accountId" = ${accountId}::uuid AND key = ${key} AND "createdAt" = ${record.createdAt}
          AND "responseStatus" IS NULL AND "heartbeatAt" < now() - make_interval(secs => ${ABANDONED_AFTER_SECONDS})`) === 1;
      if (abandoned) continue;
      if (record.requestHash !== hash) {
        throw new AppError("idempotency_conflict", undefined, { idempotency_key: key });
      }
      if (record.responseStatus !== null) {
        for (const [name, value] of Object.entries((record.responseHeaders ?? {}) as Record<string, string>)) res.setHeader(name, value);
        res.setHeader("Idempotent-Replay", "true");
        res.status(record.responseStatus).send(record.responseBody ? decryptSecret(record.responseBody, ctx.keyring, responseBodyAad(accountId, key)) : "");
        return;
      }
      if (Date.now() > deadline) {
        throw new AppError("idempotency_conflict", "A request with this Idempotency-Key is still being processed; retry later.", { idempotency_key: key });
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }

    // We hold the key until the handler answers, connected client or not: keep the claim beating meanwhile.
    const heartbeat = setInterval(() => {
      void ctx.db.$executeRaw`UPDATE idempotency_records SET "heartbeatAt" = now() WHERE "accountId" = ${accountId}::uuid AND key = ${key} AND "responseStatus" IS NULL`.catch(
        (err) => ctx.logger.warn("could not refresh an idempotency claim", { error: (err as Error).message }),
      );
    }, HEARTBEAT_EVERY_MS);
    heartbeat.unref();
    const giveUp = setTimeout(() => clearInterval(heartbeat), LONGEST_HANDLER_MS);
    giveUp.unref();

    let sentBody: string | undefined;
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      clearInterval(heartbeat);
      clearTimeout(giveUp);
      void release().catch((err) => ctx.logger.error("could not store idempotent response", { error: (err as Error).message }));
    };
    const send = res.send.bind(res);
    res.send = (body?: unknown) => {
      sentBody ??= typeof body === "string" ? body : Buffer.isBuffer(body) ? body.toString("utf8") : body === undefined ? "" : JSON.stringify(body);
      const result = send(body as never);
      // the handler has answered (status and headers are final), even if nobody is listening any more
      finish();
      return result;
    };
    const release = async () => {
      if (isRetryableStatus(res.statusCode) || sentBody === undefined) {
        await ctx.db.idempotencyRecord.deleteMany({ where: { accountId, key, responseStatus: null } });
        return;
      }
      const headers: Record<string, string> = {};
      for (const name of REPLAYED_HEADERS) {
        const value = res.getHeader(name);
        if (value !== undefined) headers[name] = String(value);
      }
      await ctx.db.idempotencyRecord.updateMany({
        where: { accountId, key, responseStatus: null },
        // encrypted: responses can carry secrets shown once (API keys, webhook secrets)
        data: { responseStatus: res.statusCode, responseHeaders: headers, responseBody: encryptSecret(sentBody, ctx.keyring, responseBodyAad(accountId, key)) },
      });
    };
    // a response ended without res.send (no body to replay) gives the key back
    res.once("finish", finish);
    next();
  });
}
