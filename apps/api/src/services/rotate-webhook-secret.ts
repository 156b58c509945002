import { AppError, type Keyring } from "@outreach/core";
import { replaceWebhookSecret, type Db } from "@outreach/db";
import { SECRET_ROTATION_GRACE_MS } from "@outreach/domain";
import { generateWebhookSecret } from "../webhook-secret.js";

/**
 * Replaces the webhook's signing secret. The secret it replaces is kept as the
 * previous one for SECRET_ROTATION_GRACE_MS, during which deliveries carry a
 * second v1 signed with it, so receivers can switch over without dropping
 * events. A second rotation within the grace keeps only the secret it
 * replaces. One statement: SET reads the row as it was before the update.
 */
export async function rotateWebhookSecret(db: Db, keyring: Keyring, accountId: string, id: string, now = new Date()) {
  const secret = generateWebhookSecret(keyring, id);
  const previousSecretUntil = new Date(now.getTime() + SECRET_ROTATION_GRACE_MS);
  if (!(await replaceWebhookSecret(db, accountId, id, secret.sealed, previousSecretUntil, now))) throw new AppError("webhook_not_found");
  return { id, secret: secret.plaintext, previous_secret_expires_at: previousSecretUntil };
}
