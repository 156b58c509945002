import { encryptSecret, randomToken, secretAad, type Keyring } from "@outreach/core";

export const WEBHOOK_SECRET_PREFIX = "whsec_";

export interface NewWebhookSecret {
  plaintext: string;
  /** AES-256-GCM sealed form, the only one stored (webhooks.secretEnc). */
  sealed: string;
}

/**
 * A fresh signing secret for the webhook `webhookId`: whsec_ + 32 random bytes,
 * URL-safe, sealed for that webhook's secretEnc (a rotation later moves it to
 * previousSecretEnc as it is, where it opens as the same row's secretEnc).
 */
export function generateWebhookSecret(keyring: Keyring, webhookId: string): NewWebhookSecret {
  const plaintext = WEBHOOK_SECRET_PREFIX + randomToken(32);
  return { plaintext, sealed: encryptSecret(plaintext, keyring, secretAad("webhooks", "secretEnc", webhookId)) };
}
