import type { Db, DeliveryState } from "@outreach/db";
import { newestFirst } from "../pagination.js";
import { getWebhook } from "./get-webhook.js";
import { withAttempts } from "./get-webhook-delivery.js";

export interface DeliveryListInput {
  status?: DeliveryState;
  limit: number;
}

/** The webhook's latest deliveries, newest first, each with its attempts; 404 webhook_not_found for a webhook not of the account. */
export async function listWebhookDeliveries(db: Db, accountId: string, webhookId: string, input: DeliveryListInput) {
  await getWebhook(db, accountId, webhookId);
  return db.webhookDelivery.findMany({
    where: { webhookId, accountId, ...(input.status && { state: input.status }) },
    orderBy: newestFirst,
    take: input.limit,
    include: withAttempts,
  });
}
