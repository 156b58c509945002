import type { Webhook } from "@outreach/db";

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
