import type { Db, DeliveryState } from "@outreach/db";
import { after, newestFirst, resolveCursor, rowsForPage, type PageInput } from "../pagination.js";
import { getWebhook } from "./get-webhook.js";
import { withAttempts } from "./get-webhook-delivery.js";

export interface DeliveryListInput extends PageInput {
  status?: DeliveryState;
}

/** The webhook's deliveries, newest first, a page at a time, each with its attempts; 404 webhook_not_found for a webhook not of the account. */
export async function listWebhookDeliveries(db: Db, accountId: string, webhookId: string, input: DeliveryListInput) {
  await getWebhook(db, accountId, webhookId);
  const cursor = await resolveCursor(
    input.startingAfter,
    "delivery",
    (id) => db.webhookDelivery.findFirst({ where: { id, webhookId, accountId }, select: { id: true, createdAt: true } }),
    "this webhook",
  );
  return db.webhookDelivery.findMany({
    where: { webhookId, accountId, ...(input.status && { state: input.status }), ...(cursor && after(cursor)) },
    orderBy: newestFirst,
    take: rowsForPage(input.limit),
    include: withAttempts,
  });
}
