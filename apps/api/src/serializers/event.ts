import type { Event } from "@outreach/db";
import { ALL_EVENT_TYPES, EVENT_PAYLOADS, EVENT_TYPES, WEBHOOK_TEST_PAYLOAD, type EventPayload, type EventType, type PayloadField } from "@outreach/core";
import { WEBHOOK_TEST_EVENT } from "@outreach/domain";
import { component, dateTime, email, nullable, number, object, oneOfValues, string, uuid, type JsonSchema } from "../openapi/json-schema.js";

/** An event of the account's log: what its webhooks were sent as the envelope's type, created_at and data. */
export function serializeEvent(event: Pick<Event, "id" | "type" | "createdAt" | "data">) {
  return { id: event.id, type: event.type, created_at: event.createdAt, data: event.data };
}

/** The JSON Schema of one field of event data, from its definition (@outreach/core's event-payloads). */
function fieldSchema(field: PayloadField<unknown>): JsonSchema {
  const described = field.description ? { description: field.description } : {};
  const schema = ((): JsonSchema => {
    switch (field.format) {
      case "uuid":
        return uuid(field.description);
      case "date-time":
        return dateTime(field.description);
      case "email":
        return { ...email(), ...described };
      case "string":
        return string(described);
      case "number":
        return number(described);
      case "enum":
        return oneOfValues(field.values ?? [], field.description);
    }
  })();
  return field.nullable ? nullable(schema) : schema;
}

/**
 * The JSON Schema of the data of one or more event types: the fields of any of
 * them, required when every one of them has the field and has had it from the
 * start (events stored before a field was added lack it: GET /events and
 * redeliveries serve stored data).
 */
function dataSchema(payloads: EventPayload[]): JsonSchema {
  const fields = new Map<string, PayloadField<unknown>>();
  for (const payload of payloads) {
    for (const [key, field] of Object.entries(payload.fields)) {
      const seen = fields.get(key);
      if (seen && JSON.stringify({ ...seen, rule: undefined }) !== JSON.stringify({ ...field, rule: undefined })) throw new Error(`event data field ${key} is defined two ways`);
      fields.set(key, seen ?? field);
    }
  }
  const optional = [...fields].filter(([key, field]) => field.since || payloads.some((payload) => !(key in payload.fields))).map(([key]) => key);
  return object(Object.fromEntries([...fields].map(([key, field]) => [key, fieldSchema(field)])), { optional });
}

const enrollmentData = component(
  "EnrollmentEventData",
  dataSchema([EVENT_PAYLOADS["enrollment.sent"], EVENT_PAYLOADS["enrollment.opened"], EVENT_PAYLOADS["enrollment.replied"], EVENT_PAYLOADS["enrollment.bounced"]]),
);

/** The `data` of each event type. */
export const EVENT_DATA_SCHEMAS: Record<EventType, JsonSchema> = {
  "enrollment.sent": enrollmentData,
  "enrollment.opened": enrollmentData,
  "enrollment.replied": enrollmentData,
  "enrollment.bounced": enrollmentData,
  "enrollment.clicked": component("EnrollmentClickedData", dataSchema([EVENT_PAYLOADS["enrollment.clicked"]])),
  "enrollment.unsubscribed": component("EnrollmentUnsubscribedData", dataSchema([EVENT_PAYLOADS["enrollment.unsubscribed"]])),
  "credential.disabled": component("CredentialDisabledData", dataSchema([EVENT_PAYLOADS["credential.disabled"]])),
  "campaign.paused": component("CampaignPausedData", dataSchema([EVENT_PAYLOADS["campaign.paused"]])),
  "reply.categorized": component("ReplyCategorizedData", dataSchema([EVENT_PAYLOADS["reply.categorized"]])),
  "credential.auth_failed": component("CredentialAuthFailedData", dataSchema([EVENT_PAYLOADS["credential.auth_failed"]])),
  "credential.paused": component("CredentialPausedData", dataSchema([EVENT_PAYLOADS["credential.paused"]])),
};

/** The data of a test ping (POST /webhooks/:id/test). */
export const WEBHOOK_TEST_DATA_SCHEMA = component("WebhookTestData", dataSchema([WEBHOOK_TEST_PAYLOAD]));

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
