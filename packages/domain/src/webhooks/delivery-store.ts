import { decryptSecret, secretAad, type KeySource } from "@outreach/core";
import { countWebhookFailure, eventPayload, holdDeliveryForAttempt, isDeliveryAttemptBusy, markDeliverySkipped, recordAttempts, type Db } from "@outreach/db";
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
  const row = await holdDeliveryForAttempt(tx, deliveryId, attempt, new Date(now.getTime() + holdMs), now);
  if (!row) {
    return (await isDeliveryAttemptBusy(tx, deliveryId, attempt, now)) ? "busy" : null;
  }
  let event: { data: unknown; createdAt: Date } | undefined;
  if (row.eventId) {
    event = await eventPayload(tx, row.eventId);
    if (!event) return null;
  }
  return toDeliveryToAttempt({ ...row, eventData: event?.data ?? null, eventCreatedAt: event?.createdAt ?? null }, keys, now);
}

/** Decrypted secrets by ciphertext: a deliverer signs many deliveries with the same few. */
export class SecretCache {
  private readonly plain = new Map<string, string>();
  constructor(
    private readonly keys: KeySource,
    private readonly max = 10_000,
  ) {}

  decrypt(ciphertext: string, aad: string): string {
    // keyed by where the value was read too: a value that opened in one row never opens from the cache in another
    const cacheKey = `${aad}\n${ciphertext}`;
    let secret = this.plain.get(cacheKey);
    if (secret === undefined) {
      secret = decryptSecret(ciphertext, this.keys, aad);
      if (this.plain.size >= this.max) this.plain.clear();
      this.plain.set(cacheKey, secret);
    }
    return secret;
  }
}

export function toDeliveryToAttempt(row: Record<string, any>, keys: KeySource | SecretCache, now: Date): DeliveryToAttempt {
  // the previous secret is the row's former secretEnc, moved as sealed by a rotation: both open as secretEnc of this webhook
  const aad = secretAad("webhooks", "secretEnc", row.webhookId);
  const decrypt = (ciphertext: string) => (keys instanceof SecretCache ? keys.decrypt(ciphertext, aad) : decryptSecret(ciphertext, keys, aad));
  const secrets = [decrypt(row.secretEnc)];
  if (row.previousSecretEnc && row.previousSecretUntil && row.previousSecretUntil > now) secrets.push(decrypt(row.previousSecretEnc));
  const createdAt: Date = row.eventCreatedAt ?? row.createdAt;
  return {
    id: row.id,
    accountId: row.accountId,
    webhookId: row.webhookId,
    url: row.url,
    state: row.state,
    attempts: row.attempts,
    maxAttempts: row.maxAttempts,
    webhookDisabled: row.disabledAt !== null,
    body: buildEnvelope({ deliveryId: row.id, accountId: row.accountId, webhookId: row.webhookId, eventType: row.eventType, createdAt, data: row.eventData ?? null }),
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

export type AttemptedDelivery = Pick<DeliveryToAttempt, "id" | "webhookId" | "attempts" | "maxAttempts" | "isTest">;

/** One attempt to record: the delivery as claimed and what the POST came to. */
export interface AttemptOutcome {
  delivery: AttemptedDelivery;
  result: AttemptResult;
  /** when the attempt ended */
  at: Date;
}

/**
 * Records attempts and what follows from each, in one statement however many
 * there are (and one more per delivery that ended failed, in a transaction): the attempt rows; each delivery
 * succeeded, scheduled again (polynomial backoff, or a longer Retry-After) or
 * failed; and, for deliveries that ended, their webhooks' consecutive_failures
 * (0 after a 2xx, +1 after a failure, disabled at 5). Test pings never touch
 * a webhook's counters. Answers one RecordedAttempt per outcome, in order.
 */
export async function recordDeliveryAttempts(db: Db, outcomes: AttemptOutcome[], retryBaseMs: number): Promise<RecordedAttempt[]> {
  if (outcomes.length === 0) return [];
  const rows = outcomes.map(({ delivery, result, at }) => {
    const number = delivery.attempts + 1;
    let verdict = judgeAttempt(result);
    if (verdict === "retry" && number >= delivery.maxAttempts) verdict = "failed";
    const nextAttemptAt = verdict === "retry" ? new Date(at.getTime() + retryDelayMs(number, retryBaseMs, result.retryAfterMs)) : null;
    return { delivery, result, at, number, verdict, nextAttemptAt, error: result.error?.slice(0, 1000) ?? null };
  });
  const column = <T>(pick: (row: (typeof rows)[number]) => T) => rows.map(pick);
  const ids = column((r) => r.delivery.id);
  const ats = column((r) => r.at.toISOString());
  const counted = rows.filter((r) => !r.delivery.isTest && r.verdict !== "retry");
  const succeeded = [...new Set(counted.filter((r) => r.verdict === "succeeded").map((r) => r.delivery.webhookId))];
  // a failure before a 2xx of the same webhook in this batch was reset by it
  const lastSuccess = new Map(counted.map((r, i) => [r.delivery.webhookId, r.verdict === "succeeded" ? i : -1] as const).filter(([, i]) => i >= 0));
  const failed = counted.filter((r, i) => r.verdict === "failed" && i > (lastSuccess.get(r.delivery.webhookId) ?? -1));
  // the attempts, the deliveries and the counters reset by a 2xx: one statement
  const recordAll = (tx: Tx) =>
    recordAttempts(tx, {
      deliveryIds: ids,
      numbers: column((r) => r.number),
      statusCodes: column((r) => r.result.statusCode),
      errors: column((r) => r.error),
      responseExcerpts: column((r) => r.result.responseExcerpt),
      durationsMs: column((r) => r.result.durationMs),
      ats,
      states: column((r) => (r.verdict === "retry" ? "pending" : r.verdict)),
      nextAttemptAts: column((r) => r.nextAttemptAt?.toISOString() ?? null),
      succeededWebhookIds: succeeded,
    });
  if (failed.length === 0) {
    await recordAll(db);
    return rows.map((r) => ({ verdict: r.verdict, nextAttemptAt: r.nextAttemptAt, webhookDisabled: false }));
  }
  return db.$transaction(async (tx) => {
    await recordAll(tx);
    // failures are rare: one statement each, in order, so the 5th in a row disables
    const disabled = new Set<(typeof rows)[number]>();
    for (const row of failed) {
      if (await countWebhookFailure(tx, row.delivery.webhookId, row.at, DISABLE_AFTER_FAILED_DELIVERIES)) disabled.add(row);
    }
    return rows.map((r) => ({ verdict: r.verdict, nextAttemptAt: r.nextAttemptAt, webhookDisabled: disabled.has(r) }));
  });
}

/** Records one attempt (see recordDeliveryAttempts). */
export async function recordDeliveryAttempt(db: Db, delivery: AttemptedDelivery, result: AttemptResult, retryBaseMs: number, now = new Date()): Promise<RecordedAttempt> {
  const [recorded] = await recordDeliveryAttempts(db, [{ delivery, result, at: now }], retryBaseMs);
  return recorded!;
}

/** A pending delivery of a webhook that was disabled meanwhile: it is skipped, not attempted. */
export async function skipDelivery(tx: Tx, deliveryId: string, reason: string, now = new Date()): Promise<void> {
  await markDeliverySkipped(tx, deliveryId, reason, now);
}
