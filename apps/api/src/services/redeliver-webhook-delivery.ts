import { AppError } from "@outreach/core";
import { reopenDelivery, type Db } from "@outreach/db";
import { DELIVERY_MAX_ATTEMPTS } from "@outreach/domain";
import { isUuid } from "../validation.js";
import { getWebhook } from "./get-webhook.js";
import { deliveryNotFound, withAttempts } from "./get-webhook-delivery.js";

function disabledError(): AppError {
  return new AppError("unprocessable", "The webhook is disabled; re-enable it first (PATCH /webhooks/:id with {webhook:{disabled_at:null}}), then redeliver.");
}

/**
 * Sends the delivery again: the same envelope with the same id, as a new
 * attempt, whatever state it ended in. In one statement the delivery becomes
 * pending, due now, with a fresh budget of DELIVERY_MAX_ATTEMPTS attempts,
 * and the deliverers are woken (NOTIFY, sent at commit). A delivery with an
 * attempt under way is left as it is (no second attempt at the same time).
 */
export async function redeliverWebhookDelivery(db: Db, accountId: string, webhookId: string, deliveryId: string, now = new Date()) {
  const webhook = await getWebhook(db, accountId, webhookId);
  if (!isUuid(deliveryId)) throw deliveryNotFound();
  const exists = await db.webhookDelivery.count({ where: { id: deliveryId, webhookId, accountId } });
  if (exists === 0) throw deliveryNotFound();
  if (webhook.disabledAt) throw disabledError();

  const rows = await reopenDelivery(db, { deliveryId, webhookId, accountId }, DELIVERY_MAX_ATTEMPTS, now);
  if (rows.length === 0 && (await getWebhook(db, accountId, webhookId)).disabledAt) {
    // disabled between the check and the update
    throw disabledError();
  }
  const delivery = await db.webhookDelivery.findFirst({ where: { id: deliveryId, webhookId, accountId }, include: withAttempts });
  if (!delivery) throw deliveryNotFound();
  return delivery;
}
