import { findBlockingEntryOf, insertBlockedAddress, insertBlocklistedSkip, lockEnrollment } from "@outreach/db";
import { emailDomain } from "./mx-lookup.js";
import { cancelSend } from "../sending/send-outcome.js";
import { stopEnrollments } from "../sending/stop-enrollments.js";
import { inTransaction, type Tx } from "../tx.js";

export type BlocklistKind = "email" | "domain";
export type BlocklistSource = "api" | "unsubscribe" | "complaint";

/**
 * The matching rule, in one place: an address is blocked for an account when
 * the account has an entry whose value is the address itself (lower-cased) or
 * its domain (the part after the last "@", lower-cased). A domain entry blocks
 * that exact host only: "example.com" does not block "mail.example.com".
 */
function blockedValues(email: string): [address: string, domain: string] {
  const address = email.trim().toLowerCase();
  return [address, emailDomain(address)];
}

/** The skip reason for an address blocked by an entry of `kind`. */
export function blockedReason(kind: BlocklistKind, email: string): string {
  return kind === "email" ? "blocked: address" : `blocked: domain ${blockedValues(email)[1]}`;
}

/** The entry blocking `email` for the account (an address entry before a domain one), or null. */
export async function findBlockingEntry(tx: Tx, accountId: string, email: string): Promise<{ id: string; kind: BlocklistKind; value: string } | null> {
  const [address, domain] = blockedValues(email);
  const entry = await findBlockingEntryOf(tx, accountId, address, domain);
  return entry ? { id: entry.id, kind: entry.kind as BlocklistKind, value: entry.value } : null;
}

/**
 * Blocks one address for the account (an email entry), keeping an existing
 * entry as it is. Used by unsubscribes and complaints, inside their transaction.
 */
export async function blockAddress(tx: Tx, accountId: string, email: string, source: BlocklistSource, reason: string | null = null): Promise<void> {
  const [address] = blockedValues(email);
  if (!address) return;
  await insertBlockedAddress(tx, accountId, address, reason, source);
}

export interface BlockedSendInput {
  stepSendId: string;
  enrollmentId: string;
  accountId: string;
  campaignId: string;
  contactId: string;
  email: string;
}

/**
 * A send found blocked when it was about to go out, in one transaction: the
 * send is cancelled, its enrollment stopped ("blocklisted", its other steps not
 * yet out cancelled), and one `blocklisted` skip recorded for the enrollment
 * (a later blocked step of it records none). `skipRecorded` says whether this
 * call wrote the skip. Takes a client (own transaction) or the caller's.
 */
export async function recordBlockedSend(db: Tx, input: BlockedSendInput, now = new Date()): Promise<{ skipRecorded: boolean }> {
  return inTransaction(db, async (tx) => {
    const entry = await findBlockingEntry(tx, input.accountId, input.email);
    const reason = blockedReason(entry?.kind ?? "email", input.email);
    // step row before enrollment row: the order sending and unsubscribes lock them in
    await cancelSend(tx, input.stepSendId, "the address is on the account's blocklist");
    await lockEnrollment(tx, input.enrollmentId);
    await stopEnrollments(tx, [input.enrollmentId], "blocklisted", now);
    const inserted = await insertBlocklistedSkip(tx, {
      accountId: input.accountId,
      campaignId: input.campaignId,
      contactId: input.contactId,
      enrollmentId: input.enrollmentId,
      reason,
      now,
    });
    return { skipRecorded: inserted > 0 };
  });
}
