import { checkAddresses, type AddressCheck, type MxVerifier } from "@outreach/domain";
import { importableEmail } from "./parse-contact-rows.js";

/**
 * Checks addresses without sending anything: syntax (the rule contact imports
 * apply), MX (through DNS_SERVERS, each domain once), disposable-mail domain,
 * role account. One result per address, in the order given. Recipients'
 * servers are never contacted (no SMTP probe).
 */
export async function verifyContacts(mx: MxVerifier, emails: string[]): Promise<AddressCheck[]> {
  return checkAddresses(emails, importableEmail, mx);
}
