import { AppError } from "@outreach/core";
import type { Db, Prisma } from "@outreach/db";

export interface WebhookChanges {
  url?: string;
  eventFilters?: string[];
  description?: string | null;
  /** true re-enables the webhook: disabled_at cleared, consecutive_failures reset to 0. */
  reenable?: boolean;
}

/**
 * Applies the changes in one statement scoped by account, so a concurrent
 * delete or delivery outcome cannot interleave between a read and the write.
 */
export async function updateWebhook(db: Db, accountId: string, id: string, changes: WebhookChanges) {
  const data: Prisma.WebhookUpdateManyMutationInput = {};
  if (changes.url !== undefined) data.url = changes.url;
  if (changes.eventFilters !== undefined) data.eventFilters = changes.eventFilters;
  if (changes.description !== undefined) data.description = changes.description;
  if (changes.reenable) {
    data.disabledAt = null;
    data.consecutiveFailures = 0;
  }
  const [webhook] = await db.webhook.updateManyAndReturn({ where: { id, accountId }, data });
  if (!webhook) throw new AppError("webhook_not_found");
  return webhook;
}
