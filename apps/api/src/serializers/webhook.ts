import type { Webhook, WebhookAttempt, WebhookDelivery } from "@outreach/db";
import { ALL_EVENT_TYPES, EVENT_WILDCARD } from "@outreach/core";
import { WEBHOOK_TEST_EVENT } from "@outreach/domain";
import { array, component, dateTime, integer, nullable, object, oneOfValues, string, uuid } from "../openapi/json-schema.js";

/** A webhook as the API shows it; the secret is never part of it (see create and rotate_secret). */
export function serializeWebhook(webhook: Webhook) {
  return {
    id: webhook.id,
    url: webhook.url,
    description: webhook.description,
    event_filters: webhook.eventFilters,
    disabled_at: webhook.disabledAt,
    consecutive_failures: webhook.consecutiveFailures,
    created_at: webhook.createdAt,
    updated_at: webhook.updatedAt,
  };
}

/** A delivery of an event (or a test ping) to a webhook, with its attempts, oldest first. */
export function serializeWebhookDelivery(delivery: WebhookDelivery & { attemptLog: WebhookAttempt[] }) {
  return {
    id: delivery.id,
    webhook_id: delivery.webhookId,
    event_id: delivery.eventId,
    event_type: delivery.eventType,
    status: delivery.state,
    attempts_made: delivery.attempts,
    max_attempts: delivery.maxAttempts,
    next_attempt_at: delivery.nextAttemptAt,
    last_status_code: delivery.lastStatusCode,
    last_error: delivery.lastError,
    created_at: delivery.createdAt,
    completed_at: delivery.completedAt,
    attempts: delivery.attemptLog.map(serializeWebhookAttempt),
  };
}

function serializeWebhookAttempt(attempt: WebhookAttempt) {
  return {
    number: attempt.number,
    status_code: attempt.statusCode,
    error: attempt.error,
    response_excerpt: attempt.responseExcerpt,
    duration_ms: attempt.durationMs,
    created_at: attempt.createdAt,
  };
}

// ------------------------------------------------------------ response schemas --

/** The webhook's fields (shared with the create answer, which adds its secret). */
export const webhookFields = {
  id: uuid(),
  // as WHATWG URL serializes it: a query may keep characters RFC 3986 escapes ({ } | ^), so not format uri
  url: string({ description: "The receiver's absolute http(s) URL, as normalized when saved." }),
  description: nullable(string()),
  event_filters: array(oneOfValues([...ALL_EVENT_TYPES, EVENT_WILDCARD]), { description: '"*" is the v1 event types; opt-in types only when named.' }),
  disabled_at: nullable(dateTime("Set when consecutive failed deliveries disabled it; PATCH disabled_at: null re-enables it.")),
  consecutive_failures: integer({ minimum: 0 }),
  created_at: dateTime(),
  updated_at: dateTime(),
};

export const webhookSchema = component("Webhook", object(webhookFields, { description: "An outbound webhook. Its secret is shown only by create and rotate_secret." }));

const webhookAttemptSchema = object({
  number: integer({ minimum: 1 }),
  status_code: nullable(integer({ description: "The receiver's HTTP status; null when no answer came." })),
  error: nullable(string({ description: "Why the attempt was not a 2xx: a network error, a timeout, a refused address, a redirect." })),
  response_excerpt: nullable(string({ description: "The start of the receiver's answer, bounded." })),
  duration_ms: integer({ minimum: 0 }),
  created_at: dateTime(),
});

export const webhookDeliverySchema = component(
  "WebhookDelivery",
  object({
    id: uuid(),
    webhook_id: uuid(),
    event_id: nullable(uuid("null for a test ping (webhook.test).")),
    event_type: oneOfValues([...ALL_EVENT_TYPES, WEBHOOK_TEST_EVENT]),
    status: oneOfValues(["pending", "succeeded", "failed", "skipped"]),
    attempts_made: integer({ minimum: 0 }),
    max_attempts: integer({ minimum: 1 }),
    next_attempt_at: nullable(dateTime()),
    last_status_code: nullable(integer()),
    last_error: nullable(string()),
    created_at: dateTime(),
    completed_at: nullable(dateTime()),
    attempts: array(webhookAttemptSchema, { description: "Oldest first." }),
  }),
);
