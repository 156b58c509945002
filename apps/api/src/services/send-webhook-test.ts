import { AppError, signPayloadWithSecrets, type Keyring } from "@outreach/core";
import type { Db } from "@outreach/db";
import { claimDeliveryAttempt, recordDeliveryAttempt, WEBHOOK_TEST_EVENT, type WebhookHttpClient } from "@outreach/domain";
import { getWebhook } from "./get-webhook.js";
import { withAttempts } from "./get-webhook-delivery.js";

export interface WebhookTestDeps {
  db: Db;
  keyring: Keyring;
  http: WebhookHttpClient;
  /** how long the attempt holds the delivery against other workers */
  holdMs: number;
  retryBaseMs: number;
}

/**
 * Sends a signed webhook.test event to this webhook only, right away, and
 * answers with the outcome. It is a delivery of one attempt (no retries),
 * recorded like any other, that never changes the webhook's
 * consecutive_failures or disabled_at, and it goes out even while the webhook
 * is disabled: that is how a repaired receiver is checked before re-enabling.
 * nextAttemptAt is set so that, should this process die mid-attempt, a
 * deliverer completes the delivery once its hold lapses instead of leaving it pending.
 */
export async function sendWebhookTest(deps: WebhookTestDeps, accountId: string, webhookId: string, now = new Date()) {
  const { db } = deps;
  await getWebhook(db, accountId, webhookId);
  const claimed = await db.$transaction(async (tx) => {
    const delivery = await tx.webhookDelivery.create({
      data: { accountId, webhookId, eventId: null, eventType: WEBHOOK_TEST_EVENT, maxAttempts: 1, nextAttemptAt: now, createdAt: now },
    });
    return claimDeliveryAttempt(tx, delivery.id, 1, deps.holdMs, deps.keyring, now);
  });
  // null only if the webhook was deleted meanwhile (its deliveries go with it)
  if (claimed === null || claimed === "busy") throw new AppError("webhook_not_found");

  const result = await deps.http.post({ url: claimed.url, body: claimed.body, signature: signPayloadWithSecrets(claimed.secrets, claimed.body) });
  const recorded = await recordDeliveryAttempt(db, claimed, result, deps.retryBaseMs);
  const delivery = await db.webhookDelivery.findUnique({ where: { id: claimed.id }, include: withAttempts });
  // the webhook was deleted while the ping was in flight (its deliveries went with it)
  if (!delivery) throw new AppError("webhook_not_found");
  return { delivery, success: recorded.verdict === "succeeded", result };
}
