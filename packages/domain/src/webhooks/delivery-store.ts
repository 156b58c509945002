import { decryptSecret, type KeySource } from "@outreach/core";
import type { Tx } from "../tx.js";
import { DISABLE_AFTER_FAILED_DELIVERIES, judgeAttempt, retryDelayMs, type AttemptResult, type AttemptVerdict } from "./delivery-policy.js";
import { buildEnvelope, WEBHOOK_TEST_EVENT } from "./webhook-envelope.js";

/** Everything one attempt needs: where to, what, and which secrets sign it. */
export interface DeliveryToAttempt {
  id: string;
  accountId: string;
  webhookId: string;
  url: string;
  state: string;
  attempts: number;
  maxAttempts: number;
  webhookDisabled: boolean;
  body: string;
  /** the current secret first; the previous one too while its rotation grace lasts */
  secrets: string[];
  isTest: boolean;
}

/**
 * Claims the given attempt of a pending delivery: only when it is the next
 * one (attempts = attempt - 1) and no other worker is in the middle of an
 * attempt (attemptingUntil passed). null when there is nothing to do now.
 */
export async function claimDeliveryAttempt(tx: Tx, deliveryId: string, attempt: number, holdMs: number, keys: KeySource, now = new Date()): Promise<DeliveryToAttempt | "busy" | null> {
  const rows = await tx.$queryRaw<Array<Record<string, any>>>`
    UPDATE webhook_deliveries d SET "attemptingUntil" = ${new Date(now.getTime() + holdMs)}
    FROM webhooks w
    WHERE d.id = ${deliveryId}::uuid AND w.id = d."webhookId" AND d.state = 'pending' AND d.attempts = ${attempt - 1}
      AND (d."attemptingUntil" IS NULL OR d."attemptingUntil" < ${now})
    RETURNING d.id, d."accountId", d."webhookId", d."eventId", d."eventType", d.state::text AS state, d.attempts, d."maxAttempts", d."createdAt",
      w.url, w."secretEnc", w."previousSecretEnc", w."previousSecretUntil", w."disabledAt"`;
  const row = rows[0];
  if (!row) {
    const [current] = await tx.$queryRaw<Array<{ busy: boolean }>>`
      SELECT state = 'pending' AND attempts = ${attempt - 1} AND "attemptingUntil" >= ${now} AS busy FROM webhook_deliveries WHERE id = ${deliveryId}::uuid`;
    return current?.busy ? "busy" : null;
  }
  let createdAt: Date = row.createdAt;
  let data: unknown = null;
  if (row.eventId) {
    const [event] = await tx.$queryRaw<Array<{ data: unknown; createdAt: Date }>>`SELECT data, "createdAt" FROM events WHERE id = ${row.eventId}::uuid`;
    if (!event) return null;
    data = event.data;
    createdAt = event.createdAt;
  }
  const secrets = [decryptSecret(row.secretEnc, keys)];
  if (row.previousSecretEnc && row.previousSecretUntil && row.previousSecretUntil > now) secrets.push(decryptSecret(row.previousSecretEnc, keys));
  return {
    id: row.id,
    accountId: row.accountId,
    webhookId: row.webhookId,
    url: row.url,
    state: row.state,
    attempts: row.attempts,
    maxAttempts: row.maxAttempts,
    webhookDisabled: row.disabledAt !== null,
    body: buildEnvelope({ deliveryId: row.id, accountId: row.accountId, webhookId: row.webhookId, eventType: row.eventType, createdAt, data }),
    secrets,
    isTest: row.eventType === WEBHOOK_TEST_EVENT,
  };
}

export interface RecordedAttempt {
  verdict: AttemptVerdict;
  /** set when the delivery is to be attempted again */
  nextAttemptAt: Date | null;
  /** the webhook was disabled by this outcome */
  webhookDisabled: boolean;
}

/**
 * Records an attempt and what follows from it, in one transaction: the
 * attempt row; the delivery succeeded, scheduled again (polynomial backoff,
 * or a longer Retry-After) or failed; and for a delivery that ended, the
 * webhook's consecutive_failures (0 after a 2xx, +1 after a failure,
 * disabled at 5). Test pings never touch the webhook's counters.
 */
export async function recordDeliveryAttempt(
  tx: Tx,
  delivery: Pick<DeliveryToAttempt, "id" | "webhookId" | "attempts" | "maxAttempts" | "isTest">,
  result: AttemptResult,
  retryBaseMs: number,
  now = new Date(),
): Promise<RecordedAttempt> {
  const number = delivery.attempts + 1;
  let verdict = judgeAttempt(result);
  if (verdict === "retry" && number >= delivery.maxAttempts) verdict = "failed";
  const nextAttemptAt = verdict === "retry" ? new Date(now.getTime() + retryDelayMs(number, retryBaseMs, result.retryAfterMs)) : null;
  await tx.webhookAttempt.create({
    data: {
      deliveryId: delivery.id,
      number,
      statusCode: result.statusCode,
      error: result.error?.slice(0, 1000) ?? null,
      responseExcerpt: result.responseExcerpt,
      durationMs: result.durationMs,
      createdAt: now,
    },
  });
  const state = verdict === "retry" ? "pending" : verdict;
  await tx.$executeRaw`
    UPDATE webhook_deliveries SET attempts = ${number}, state = ${state}::"DeliveryState", "nextAttemptAt" = ${nextAttemptAt},
      "attemptingUntil" = NULL, "lastStatusCode" = ${result.statusCode}, "lastError" = ${result.error?.slice(0, 1000) ?? null},
      "completedAt" = ${verdict === "retry" ? null : now}
    WHERE id = ${delivery.id}::uuid`;
  let webhookDisabled = false;
  if (!delivery.isTest && verdict === "succeeded") {
    await tx.$executeRaw`UPDATE webhooks SET "consecutiveFailures" = 0 WHERE id = ${delivery.webhookId}::uuid AND "consecutiveFailures" <> 0`;
  } else if (!delivery.isTest && verdict === "failed") {
    const [row] = await tx.$queryRaw<Array<{ disabled: boolean }>>`
      UPDATE webhooks SET "consecutiveFailures" = "consecutiveFailures" + 1,
        "disabledAt" = CASE WHEN "disabledAt" IS NULL AND "consecutiveFailures" + 1 >= ${DISABLE_AFTER_FAILED_DELIVERIES} THEN ${now} ELSE "disabledAt" END,
        "updatedAt" = ${now}
      WHERE id = ${delivery.webhookId}::uuid
      RETURNING "disabledAt" = ${now} AS disabled`;
    webhookDisabled = row?.disabled ?? false;
  }
  return { verdict, nextAttemptAt, webhookDisabled };
}

/** A pending delivery of a webhook that was disabled meanwhile: it is skipped, not attempted. */
export async function skipDelivery(tx: Tx, deliveryId: string, reason: string, now = new Date()): Promise<void> {
  await tx.$executeRaw`
    UPDATE webhook_deliveries SET state = 'skipped', "attemptingUntil" = NULL, "lastError" = ${reason}, "completedAt" = ${now}, "nextAttemptAt" = NULL
    WHERE id = ${deliveryId}::uuid AND state = 'pending'`;
}

export interface DueDelivery {
  id: string;
  accountId: string;
  attempt: number;
}

/** Pending deliveries whose next attempt was due at least `lateMs` ago: their job may have been lost (Redis away). */
export async function findOverdueDeliveries(tx: Tx, lateMs: number, limit = 500, now = new Date()): Promise<DueDelivery[]> {
  return tx.$queryRaw<DueDelivery[]>`
    SELECT id, "accountId", attempts + 1 AS attempt FROM webhook_deliveries
    WHERE state = 'pending' AND "nextAttemptAt" <= ${new Date(now.getTime() - lateMs)}
      AND ("attemptingUntil" IS NULL OR "attemptingUntil" < ${now})
    ORDER BY "nextAttemptAt"
    LIMIT ${limit}`;
}
