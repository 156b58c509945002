import type { Event } from "@outreach/db";
import { ALL_EVENT_TYPES, EVENT_TYPES, type EventType } from "@outreach/core";
import { WEBHOOK_TEST_EVENT } from "@outreach/domain";
import { component, dateTime, email, nullable, number, object, oneOfValues, string, uuid, type JsonSchema } from "../openapi/json-schema.js";

/** An event of the account's log: what its webhooks were sent as the envelope's type, created_at and data. */
export function serializeEvent(event: Pick<Event, "id" | "type" | "createdAt" | "data">) {
  return { id: event.id, type: event.type, created_at: event.createdAt, data: event.data };
}

const enrollmentFields = {
  enrollment_id: uuid(),
  contact_id: uuid(),
  contact_email: email(),
  campaign_id: uuid(),
  status: oneOfValues(["pending", "sent", "opened", "replied", "bounced", "unsubscribed"], "The enrollment's status after the change."),
  sent_at: nullable(dateTime()),
  replied_at: nullable(dateTime()),
  bounce_reason: nullable(string()),
  variant_id: nullable(uuid("The A/B variant of the step sent (enrollment.sent), or of the last step sent before the open, click or reply; null without variants.")),
};

const enrollmentData = component("EnrollmentEventData", object(enrollmentFields, { optional: ["variant_id"] }));

/** The `data` of each event type. */
export const EVENT_DATA_SCHEMAS: Record<EventType, JsonSchema> = {
  "enrollment.sent": enrollmentData,
  "enrollment.opened": enrollmentData,
  "enrollment.replied": enrollmentData,
  "enrollment.bounced": enrollmentData,
  "enrollment.clicked": component(
    "EnrollmentClickedData",
    object({ ...enrollmentFields, url: string({ description: "The link's destination as written in the template." }), clicked_at: dateTime("The first click of a tracked link.") }, { optional: ["variant_id"] }),
  ),
  "enrollment.unsubscribed": component(
    "EnrollmentUnsubscribedData",
    object({ enrollment_id: uuid(), contact_id: uuid(), contact_email: email(), campaign_id: uuid(), unsubscribed_at: dateTime() }),
  ),
  "credential.disabled": component(
    "CredentialDisabledData",
    object({ credential_id: uuid(), from_email: email(), campaign_id: uuid(), bounce_rate: number({ description: "Percent of the inbox's sends that bounced." }), threshold: number() }),
  ),
  "campaign.paused": component("CampaignPausedData", object({ campaign_id: uuid(), name: string(), reason: oneOfValues(["all_credentials_disabled"]) })),
};

/** The data of a test ping (POST /webhooks/:id/test). */
export const WEBHOOK_TEST_DATA_SCHEMA = component("WebhookTestData", object({ webhook_id: uuid(), message: string() }));

/** An event as GET /events lists it: one of the event types with its data. */
export const eventSchema = component("Event", {
  oneOf: ALL_EVENT_TYPES.map((type) => object({ id: uuid(), type: { const: type }, created_at: dateTime(), data: EVENT_DATA_SCHEMAS[type] })),
  discriminator: { propertyName: "type" },
});

/** The body of a delivery to a webhook receiver. */
export function eventEnvelopeSchema(type: EventType | typeof WEBHOOK_TEST_EVENT): JsonSchema {
  const data = type === WEBHOOK_TEST_EVENT ? WEBHOOK_TEST_DATA_SCHEMA : EVENT_DATA_SCHEMAS[type];
  return object({
    id: uuid("The delivery's id: the same on every attempt and redelivery. Receivers dedupe on it."),
    type: { const: type },
    created_at: dateTime(),
    account_id: uuid(),
    data,
  });
}

/** v1 types go to webhooks subscribed to "*" or to the type; opt-in types only to webhooks that name them. */
export const isV1EventType = (type: string): boolean => (EVENT_TYPES as readonly string[]).includes(type);
