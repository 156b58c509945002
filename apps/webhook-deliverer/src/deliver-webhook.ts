import { randomUUID } from "node:crypto";
import { DelayedError, type Job } from "bullmq";
import { redisKey, signPayloadWithSecrets, type Config, type Keyring, type Logger, type RedisSemaphore, type TypedQueue } from "@outreach/core";
import type { Db } from "@outreach/db";
import { claimDeliveryAttempt, recordDeliveryAttempt, skipDelivery, type WebhookHttpClient } from "@outreach/domain";
import { enqueueDeliveryAttempts } from "./delivery-jobs.js";

export interface DelivererContext {
  config: Config;
  logger: Logger;
  db: Db;
  keyring: Keyring;
  http: WebhookHttpClient;
  /** at most 10 deliveries in flight per account, all replicas together */
  slots: RedisSemaphore;
  queue: TypedQueue<"webhook-delivery">;
}

/** A job that finds its account's slots full tries again this soon (with jitter). */
const SLOT_RETRY_MS = 150;

/**
 * One attempt of one delivery: take one of the account's 10 slots (or come
 * back shortly: another account's work is not held up), claim the attempt in
 * the database (a job run twice acts once), POST the signed envelope, and
 * record the outcome with what follows (retry at its time, end, disable).
 */
export async function deliverWebhook(ctx: DelivererContext, payload: { accountId: string; deliveryId: string; attempt: number }, job: Job, token: string | undefined): Promise<string> {
  const slotKey = redisKey(ctx.config, "sem", "webhook", payload.accountId);
  const holder = randomUUID();
  if (!(await ctx.slots.tryAcquire(slotKey, holder))) {
    await job.moveToDelayed(Date.now() + SLOT_RETRY_MS + Math.floor(Math.random() * SLOT_RETRY_MS), token);
    throw new DelayedError();
  }
  try {
    const holdMs = ctx.config.webhookTimeoutMs + 15_000;
    const delivery = await claimDeliveryAttempt(ctx.db, payload.deliveryId, payload.attempt, holdMs, ctx.keyring);
    if (delivery === null) return "nothing to attempt";
    if (delivery === "busy") {
      // another worker is in the middle of this attempt (a job taken twice): look again when its hold ends
      await job.moveToDelayed(Date.now() + holdMs, token);
      throw new DelayedError();
    }
    if (delivery.webhookDisabled && !delivery.isTest) {
      await skipDelivery(ctx.db, delivery.id, "the webhook was disabled");
      return "skipped";
    }
    const result = await ctx.http.post({ url: delivery.url, body: delivery.body, signature: signPayloadWithSecrets(delivery.secrets, delivery.body) });
    const recorded = await ctx.db.$transaction((tx) => recordDeliveryAttempt(tx, delivery, result, ctx.config.webhookRetryBaseMs));
    if (recorded.webhookDisabled) ctx.logger.warn("webhook disabled after consecutive failed deliveries", { webhookId: delivery.webhookId, accountId: delivery.accountId });
    if (recorded.nextAttemptAt) {
      const next = { id: delivery.id, accountId: delivery.accountId, attempt: payload.attempt + 1 };
      await enqueueDeliveryAttempts(ctx.queue, [next], Math.max(0, recorded.nextAttemptAt.getTime() - Date.now())).catch((err) =>
        ctx.logger.warn("could not queue the next attempt; the sweeper will", { deliveryId: delivery.id, error: (err as Error).message }),
      );
    }
    return `${recorded.verdict} (${result.statusCode ?? result.error})`;
  } finally {
    await ctx.slots.release(slotKey, holder).catch(() => undefined);
  }
}
