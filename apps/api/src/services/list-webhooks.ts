import type { Db } from "@outreach/db";

/** The account's webhooks, newest first. */
export function listWebhooks(db: Db, accountId: string) {
  return db.webhook.findMany({ where: { accountId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
}
