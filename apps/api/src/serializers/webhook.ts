import type { Webhook, WebhookAttempt, WebhookDelivery } from "@outreach/db";

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
