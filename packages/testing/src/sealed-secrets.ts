import { randomUUID } from "node:crypto";
import { encryptSecret, secretAad, type KeySource } from "@outreach/core";
import { setSealedCredentialPasswords, type Queryable } from "@outreach/db";

/**
 * A new smtp_credentials row's id with its passwords sealed for that row, to
 * spread into `data` of a create: `{ ...sealedCredentialSecrets(keys, "pw"), accountId, ... }`.
 */
export function sealedCredentialSecrets(keys: KeySource, smtpPassword: string, imapPassword?: string, id: string = randomUUID()) {
  return {
    id,
    smtpPasswordEnc: encryptSecret(smtpPassword, keys, secretAad("smtp_credentials", "smtpPasswordEnc", id)),
    ...(imapPassword === undefined ? {} : { imapPasswordEnc: encryptSecret(imapPassword, keys, secretAad("smtp_credentials", "imapPasswordEnc", id)) }),
  };
}

/** A new webhooks row's id with its signing secret sealed for that row. */
export function sealedWebhookSecret(keys: KeySource, secret: string, id: string = randomUUID()) {
  return { id, secretEnc: encryptSecret(secret, keys, secretAad("webhooks", "secretEnc", id)) };
}

/**
 * Seals the given credentials' passwords for their own rows, in place: for
 * rows inserted in bulk with a placeholder (one ciphertext cannot serve
 * several rows, each is bound to its row).
 */
export async function sealCredentialPasswordsInPlace(db: Queryable, keys: KeySource, ids: readonly string[], smtpPassword: string, imapPassword?: string): Promise<void> {
  const sealed = ids.map((id) => sealedCredentialSecrets(keys, smtpPassword, imapPassword, id));
  await setSealedCredentialPasswords(
    db,
    sealed.map((s) => s.id),
    sealed.map((s) => s.smtpPasswordEnc),
    sealed.map((s) => s.imapPasswordEnc ?? null),
  );
}
