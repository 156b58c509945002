import { AppError } from "@outreach/core";
import type { Db } from "@outreach/db";

/** Deletes one of the account's webhooks; its deliveries and their attempts go with it (ON DELETE CASCADE). */
export async function deleteWebhook(db: Db, accountId: string, id: string): Promise<void> {
  const { count } = await db.webhook.deleteMany({ where: { id, accountId } });
  if (count === 0) throw new AppError("webhook_not_found");
}
