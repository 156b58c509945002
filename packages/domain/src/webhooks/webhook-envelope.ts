import type { WebhookTestData } from "@outreach/core";

/** The type of a test ping (POST /webhooks/:id/test); not one of the 7 event types, never fanned out. */
export const WEBHOOK_TEST_EVENT = "webhook.test";

export interface EnvelopeSource {
  /** the delivery's id: the envelope's id, the same on every attempt */
  deliveryId: string;
  accountId: string;
  webhookId: string;
  eventType: string;
  /** the event's time (the delivery's for a test ping) */
  createdAt: Date;
  /** the event's data; null for a test ping */
  data: unknown;
}

/**
 * The JSON body of a delivery: {id, type, created_at, account_id, data}
 * (SPEC "Envelope"). Built from stored rows only, so every attempt and every
 * redelivery sends the same bytes.
 */
export function buildEnvelope(source: EnvelopeSource): string {
  const data = source.eventType === WEBHOOK_TEST_EVENT ? webhookTestData(source.webhookId) : source.data;
  return JSON.stringify({ id: source.deliveryId, type: source.eventType, created_at: source.createdAt.toISOString(), account_id: source.accountId, data });
}

/** data of a test ping (WEBHOOK_TEST_PAYLOAD in @outreach/core). */
function webhookTestData(webhookId: string): WebhookTestData {
  return { webhook_id: webhookId, message: "A test event sent from the API. Verify its signature as you would any other event." };
}
