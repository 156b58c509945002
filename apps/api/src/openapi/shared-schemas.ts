import { ALL_EVENT_TYPES, type ErrorCode } from "@outreach/core";
import { WEBHOOK_TEST_EVENT } from "@outreach/domain";
import { eventEnvelopeSchema, isV1EventType } from "../serializers/event.js";
import { component, object, record, string, uri, type JsonSchema } from "./json-schema.js";

const errorEnvelope = component(
  "Error",
  object(
    {
      code: string({ description: "The error code: branch on it." }),
      type: uri(),
      message: string({ description: "For people: may change wording between releases." }),
      details: record({}, "Facts about the error, by code (validation_failed: errors [{field, message}]; rate_limited: limit, period, scope; account_suspended: suspended_at; ...)."),
      request_id: string(),
    },
    { optional: ["details", "request_id"] },
  ),
);

/** The error envelope, with `code` one of the codes an operation answers with this status. */
export function errorEnvelopeSchema(codes: ErrorCode[]): JsonSchema {
  return { allOf: [errorEnvelope, { properties: { code: { enum: codes } } }] };
}

const SIGNATURE = {
  name: "X-Service-Signature",
  in: "header",
  required: true,
  description:
    "`t=<unix seconds>,v1=<hex HMAC-SHA256>`: v1 is the HMAC-SHA256 of `<t>.<raw body>` keyed with the webhook's secret. Recompute it, compare in constant time, and refuse a `t` more than 300 seconds old. While a rotated secret's old value is still valid, the header carries one v1 per secret; accept the request when any matches.",
  schema: { type: "string", pattern: "^t=\\d+(,v1=[0-9a-f]{64})+$" },
};

/** The `webhooks` section: one entry per event type the service delivers to an account's receivers. */
export function webhookEventsSection(): Record<string, JsonSchema> {
  const entries: Record<string, JsonSchema> = {};
  for (const type of [...ALL_EVENT_TYPES, WEBHOOK_TEST_EVENT] as const) {
    const delivered =
      type === WEBHOOK_TEST_EVENT
        ? "Sent to one webhook by POST /webhooks/{id}/test."
        : isV1EventType(type)
          ? 'Delivered to webhooks whose event_filters hold "*" or the type.'
          : "Opt-in: delivered only to webhooks whose event_filters name it.";
    entries[type] = {
      post: {
        operationId: `event_${type.replace(/\./g, "_")}`,
        summary: type,
        description: `${delivered} A 2xx answer succeeds; 5xx, 408, 429, a network error or a timeout is retried with backoff (5 attempts in all, then failed, redeliverable with POST /webhooks/{id}/deliveries/{delivery_id}/redeliver); any other answer fails at once.`,
        parameters: [SIGNATURE, { name: "User-Agent", in: "header", required: false, schema: { type: "string" } }],
        requestBody: { required: true, content: { "application/json": { schema: eventEnvelopeSchema(type) } } },
        responses: { "2XX": { description: "Received." } },
      },
    };
  }
  return entries;
}
