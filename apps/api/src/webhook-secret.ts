import { encryptSecret, randomToken, type Keyring } from "@outreach/core";

export const WEBHOOK_SECRET_PREFIX = "whsec_";

export interface NewWebhookSecret {
  plaintext: string;
  /** AES-256-GCM sealed form, the only one stored (webhooks.secretEnc). */
  sealed: string;
}

/** A fresh signing secret: whsec_ + 32 random bytes, URL-safe. */
export function generateWebhookSecret(keyring: Keyring): NewWebhookSecret {
  const plaintext = WEBHOOK_SECRET_PREFIX + randomToken(32);
  return { plaintext, sealed: encryptSecret(plaintext, keyring) };
}
