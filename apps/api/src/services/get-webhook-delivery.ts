import { AppError } from "@outreach/core";
import type { Db } from "@outreach/db";
import { isUuid } from "../validation.js";
import { getWebhook } from "./get-webhook.js";

/** A delivery with its attempts, oldest attempt first. */
export const withAttempts = { attemptLog: { orderBy: { number: "asc" as const } } };

export function deliveryNotFound(): AppError {
  return new AppError("not_found", "Webhook delivery not found.");
}

/**
 * One delivery of one of the account's webhooks. The webhook is checked first
 * (404 webhook_not_found); a delivery id that is malformed, unknown or of
 * another webhook or account is then the same 404 not_found.
 */
export async function getWebhookDelivery(db: Db, accountId: string, webhookId: string, deliveryId: string) {
  await getWebhook(db, accountId, webhookId);
  if (!isUuid(deliveryId)) throw deliveryNotFound();
  const delivery = await db.webhookDelivery.findFirst({ where: { id: deliveryId, webhookId, accountId }, include: withAttempts });
  if (!delivery) throw deliveryNotFound();
  return delivery;
}
