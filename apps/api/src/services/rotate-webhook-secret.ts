import { AppError } from "@outreach/core";
import type { Db } from "@outreach/db";
import { generateWebhookSecret } from "../webhook-secret.js";

/**
 * Replaces the webhook's signing secret. Deliveries sign with whatever secret
 * is stored when they are attempted, so the old secret is not used again.
 */
export async function rotateWebhookSecret(db: Db, encryptionKey: Buffer, accountId: string, id: string) {
  const secret = generateWebhookSecret(encryptionKey);
  const { count } = await db.webhook.updateMany({ where: { id, accountId }, data: { secretEnc: secret.sealed } });
  if (count === 0) throw new AppError("webhook_not_found");
  return { id, secret: secret.plaintext };
}
