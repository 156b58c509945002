import { randomUUID } from "node:crypto";
import type { Keyring } from "@outreach/core";
import type { Db } from "@outreach/db";
import { reserveQuota } from "@outreach/domain";
import { generateWebhookSecret } from "../webhook-secret.js";

export interface NewWebhook {
  url: string;
  eventFilters: string[];
  description: string | null;
}

/**
 * Creates a webhook with a fresh secret, within the account's webhooks quota
 * (422 quota_exceeded); the plaintext secret exists only in the returned value.
 */
export async function createWebhook(db: Db, keyring: Keyring, accountId: string, input: NewWebhook) {
  // the id is chosen here so the secret can be sealed for this row
  const id = randomUUID();
  const secret = generateWebhookSecret(keyring, id);
  const webhook = await db.$transaction(async (tx) => {
    await reserveQuota(tx, accountId, { webhooks: 1 });
    return tx.webhook.create({
      data: { id, accountId, url: input.url, eventFilters: input.eventFilters, description: input.description, secretEnc: secret.sealed },
    });
  });
  return { webhook, secret: secret.plaintext };
}
