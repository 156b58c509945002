import { AppError, decryptSecret, encryptSecret, secretAad } from "@outreach/core";
import { deleteAbandonedIdempotencyClaim, insertIdempotencyClaim, refreshIdempotencyHeartbeat } from "@outreach/db";
import type { ApiContext } from "./context.js";

/** A stored response opens only for its own account and key (the row's primary key). */
const responseBodyAad = (accountId: string, key: string) => secretAad("idempotency_records", "responseBody", `${accountId}/${key}`);

const REPLAY_WINDOW_MS = 24 * 3600_000;
const WAIT_FOR_FIRST_MS = 10_000;
// While its handler runs, a claim's heartbeat is refreshed this often...
const HEARTBEAT_EVERY_MS = 5_000;
// ...so a claim whose heartbeat is older than this has no handler running any more
// (its process died, or lost the database): another request may take the key over.
const ABANDONED_AFTER_SECONDS = 30;
// A handler that has not answered after this long is given up on: its claim stops beating.
const LONGEST_HANDLER_MS = 10 * 60_000;
// Storing the answer is tried this many times, this far apart (a database restart or failover takes seconds).
const STORE_ATTEMPTS = 120;
const STORE_RETRY_MS = 500;

/** One use of an Idempotency-Key: what the request was (its hash covers method, path and body). */
export interface IdempotentRequest {
  accountId: string;
  key: string;
  method: string;
  path: string;
  requestHash: string;
}

/** An answer kept for replays. */
export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * The key is ours: do the work, then release() with the answer to keep (or
 * null to give the key back, so a retry runs again).
 */
export interface Claimed {
  kind: "claimed";
  release(answer: StoredAnswer | null): Promise<void>;
}

export type ClaimOutcome = Claimed | ({ kind: "replay" } & StoredAnswer);

/**
 * Claims an Idempotency-Key (per account, 24 h) with an INSERT, so two
 * concurrent requests never both do the work: the second waits for the first
 * (up to 10 s) and gets its answer to replay. The same key with a different
 * request is 409 idempotency_conflict. The claim lasts as long as the work,
 * whoever is still listening: its heartbeat is refreshed until release(), and
 * a claim whose heartbeat stopped (its process died) is taken over. Stored
 * bodies are encrypted, since some answers show a secret once (API keys,
 * webhook secrets); expired records are deleted by the retention purge and
 * never replayed.
 */
export async function claimIdempotencyKey(ctx: ApiContext, request: IdempotentRequest): Promise<ClaimOutcome> {
  const { accountId, key } = request;
  const deadline = Date.now() + WAIT_FOR_FIRST_MS;
  for (;;) {
    const claimed = await insertIdempotencyClaim(ctx.db, {
      accountId,
      key,
      method: request.method,
      path: request.path,
      requestHash: request.requestHash,
      expiresAt: new Date(Date.now() + REPLAY_WINDOW_MS),
    });
    if (claimed === 1) break;

    const record = await ctx.db.idempotencyRecord.findUnique({ where: { accountId_key: { accountId, key } } });
    if (!record) continue; // removed in between; claim again
    if (record.expiresAt.getTime() < Date.now()) {
      await ctx.db.idempotencyRecord.deleteMany({ where: { accountId, key, createdAt: record.createdAt } });
      continue;
    }
    // the heartbeat is compared on the database's clock, the one that wrote it
    const abandoned = record.responseStatus === null && (await deleteAbandonedIdempotencyClaim(ctx.db, accountId, key, record.createdAt, ABANDONED_AFTER_SECONDS)) === 1;
    if (abandoned) continue;
    if (record.requestHash !== request.requestHash) {
      throw new AppError("idempotency_conflict", undefined, { idempotency_key: key });
    }
    if (record.responseStatus !== null) {
      return {
        kind: "replay",
        status: record.responseStatus,
        headers: (record.responseHeaders ?? {}) as Record<string, string>,
        body: record.responseBody ? decryptSecret(record.responseBody, ctx.keyring, responseBodyAad(accountId, key)) : "",
      };
    }
    if (Date.now() > deadline) {
      throw new AppError("idempotency_conflict", "A request with this Idempotency-Key is still being processed; retry later.", { idempotency_key: key });
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }

  // We hold the key until the work answers: keep the claim beating meanwhile.
  const heartbeat = setInterval(() => {
    void refreshIdempotencyHeartbeat(ctx.db, accountId, key).catch((err) => ctx.logger.warn("could not refresh an idempotency claim", { error: (err as Error).message }));
  }, HEARTBEAT_EVERY_MS);
  heartbeat.unref();
  const giveUp = setTimeout(() => clearInterval(heartbeat), LONGEST_HANDLER_MS);
  giveUp.unref();

  const store = async (answer: StoredAnswer | null) => {
    if (answer === null) {
      await ctx.db.idempotencyRecord.deleteMany({ where: { accountId, key, responseStatus: null } });
      return;
    }
    await ctx.db.idempotencyRecord.updateMany({
      where: { accountId, key, responseStatus: null },
      data: { responseStatus: answer.status, responseHeaders: answer.headers, responseBody: encryptSecret(answer.body, ctx.keyring, responseBodyAad(accountId, key)) },
    });
  };
  return {
    kind: "claimed",
    async release(answer) {
      clearTimeout(giveUp);
      // The work is done: its answer must be stored, or a retry would do it again once the claim looks
      // abandoned. While the database is away the claim keeps beating and the store is tried again.
      try {
        for (let attempt = 1; ; attempt++) {
          try {
            return await store(answer);
          } catch (err) {
            if (attempt >= STORE_ATTEMPTS) throw err;
            ctx.logger.warn("could not store an idempotent response yet; trying again", { error: (err as Error).message });
            await new Promise((resolve) => setTimeout(resolve, STORE_RETRY_MS));
          }
        }
      } finally {
        clearInterval(heartbeat);
      }
    },
  };
}
