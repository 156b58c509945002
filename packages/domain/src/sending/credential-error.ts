import { clearSmtpCredentialError, recordSmtpCredentialError } from "@outreach/db";
import type { Tx } from "../tx.js";

/**
 * The inbox itself failed (TLS missing, login refused, host refused by the
 * egress guard, connection failed): shown to the tenant on the credential
 * (smtp_last_error, smtp_last_error_at), never as a bounce of the contact.
 */
export async function recordCredentialError(tx: Tx, credentialId: string, reason: string, now = new Date()): Promise<void> {
  await recordSmtpCredentialError(tx, credentialId, reason.slice(0, 1000), now);
}

/** After a successful send through an inbox that had an error recorded. */
export async function clearCredentialError(tx: Tx, credentialId: string): Promise<void> {
  await clearSmtpCredentialError(tx, credentialId);
}
