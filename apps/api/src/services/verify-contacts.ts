import { checkAddresses, type AddressCheck, type MxVerifier } from "@outreach/domain";
import { importableEmail } from "./parse-contact-rows.js";

/** How long the MX look-ups of one request may take: domains not looked up by then are unknown (risky), so the answer comes in bounded time. */
export const VERIFY_MX_DEADLINE_MS = 20_000;

/**
 * Checks addresses without sending anything: syntax (the rule contact imports
 * apply), MX (through DNS_SERVERS, each domain once), disposable-mail domain,
 * role account. One result per address, in the order given. Recipients'
 * servers are never contacted (no SMTP probe).
 */
export async function verifyContacts(mx: MxVerifier, emails: string[]): Promise<AddressCheck[]> {
  return checkAddresses(emails, importableEmail, mx, { deadlineMs: VERIFY_MX_DEADLINE_MS });
}
