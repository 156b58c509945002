import { AppError } from "@outreach/core";
import type { Db } from "@outreach/db";

/** One of the account's webhooks; another account's or a missing one is the same 404. */
export async function getWebhook(db: Db, accountId: string, id: string) {
  const webhook = await db.webhook.findFirst({ where: { id, accountId } });
  if (!webhook) throw new AppError("webhook_not_found");
  return webhook;
}
