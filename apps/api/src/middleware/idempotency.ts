import type { RequestHandler } from "express";
import { AppError, decryptSecret, encryptSecret, sha256Hex } from "@outreach/core";
import type { ApiContext } from "../context.js";
import { authOf } from "../auth.js";

const KEY_SHAPE = /^[\x21-\x7e]{1,255}$/;
const REPLAY_WINDOW_MS = 24 * 3600_000;
const WAIT_FOR_FIRST_MS = 10_000;
// A request that has held its key this long without finishing is presumed dead (crashed replica).
const ABANDONED_AFTER_MS = 60_000;
const REPLAYED_HEADERS = ["content-type", "location"];

function requestHash(method: string, path: string, body: unknown): string {
  return sha256Hex(`${method} ${path}\n${JSON.stringify(body ?? null)}`);
}

/**
 * Idempotency-Key (per account, 24 h): the first request with a key executes and
 * its response is stored; a repeat with the same body gets that response verbatim
 * with Idempotent-Replay: true; a different body gets 409 idempotency_conflict.
 * The key is claimed with an INSERT before the handler runs, so two concurrent
 * requests never both execute: the second waits for the first and replays it.
 * 5xx responses are not stored, so the client can retry them. Stored bodies are
 * encrypted, since some responses show a secret once (API keys, webhook secrets).
 */
export function idempotent(ctx: ApiContext): RequestHandler {
  return async (req, res, next) => {
    const key = req.get("idempotency-key");
    if (key === undefined) return next();
    if (!KEY_SHAPE.test(key)) throw new AppError("bad_request", "Idempotency-Key must be 1 to 255 printable ASCII characters.");
    const { accountId } = authOf(res);
    const path = req.originalUrl.split("?")[0]!;
    const hash = requestHash(req.method, path, req.body);

    const deadline = Date.now() + WAIT_FOR_FIRST_MS;
    for (;;) {
      const claimed = await ctx.db.$executeRaw`
        INSERT INTO idempotency_records ("accountId", key, method, path, "requestHash", "expiresAt")
        VALUES (${accountId}::uuid, ${key}, ${req.method}, ${path}, ${hash}, ${new Date(Date.now() + REPLAY_WINDOW_MS)})
        ON CONFLICT ("accountId", key) DO NOTHING`;
      if (claimed === 1) break;

      const record = await ctx.db.idempotencyRecord.findUnique({ where: { accountId_key: { accountId, key } } });
      if (!record) continue; // removed in between; claim again
      const abandoned = record.responseStatus === null && Date.now() - record.createdAt.getTime() > ABANDONED_AFTER_MS;
      if (record.expiresAt.getTime() < Date.now() || abandoned) {
        await ctx.db.idempotencyRecord.deleteMany({ where: { accountId, key, createdAt: record.createdAt } });
        continue;
      }
      if (record.requestHash !== hash) {
        throw new AppError("idempotency_conflict", undefined, { idempotency_key: key });
      }
      if (record.responseStatus !== null) {
        for (const [name, value] of Object.entries((record.responseHeaders ?? {}) as Record<string, string>)) res.setHeader(name, value);
        res.setHeader("Idempotent-Replay", "true");
        res.status(record.responseStatus).send(record.responseBody ? decryptSecret(record.responseBody, ctx.keyring) : "");
        return;
      }
      if (Date.now() > deadline) {
        throw new AppError("idempotency_conflict", "A request with this Idempotency-Key is still being processed; retry later.", { idempotency_key: key });
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }

    // We hold the key: capture what is sent, store it once the response is finished.
    let sentBody: string | undefined;
    const send = res.send.bind(res);
    res.send = (body?: unknown) => {
      sentBody ??= typeof body === "string" ? body : Buffer.isBuffer(body) ? body.toString("utf8") : body === undefined ? "" : JSON.stringify(body);
      return send(body as never);
    };
    const release = async () => {
      if (res.statusCode >= 500 || sentBody === undefined) {
        await ctx.db.idempotencyRecord.deleteMany({ where: { accountId, key, responseStatus: null } });
        return;
      }
      const headers: Record<string, string> = {};
      for (const name of REPLAYED_HEADERS) {
        const value = res.getHeader(name);
        if (value !== undefined) headers[name] = String(value);
      }
      await ctx.db.idempotencyRecord.update({
        where: { accountId_key: { accountId, key } },
        // encrypted: responses can carry secrets shown once (API keys, webhook secrets)
        data: { responseStatus: res.statusCode, responseHeaders: headers, responseBody: encryptSecret(sentBody, ctx.keyring) },
      });
    };
    res.once("finish", () => void release().catch((err) => ctx.logger.error("could not store idempotent response", { error: (err as Error).message })));
    res.once("close", () => {
      if (!res.writableFinished) void release().catch(() => undefined);
    });
    next();
  };
}
