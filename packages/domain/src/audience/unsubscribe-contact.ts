import { contactIdsByEmail, lockContactEnrollmentsIn, lockContactForUnsubscribe, lockPendingSendsOfContact } from "@outreach/db";
import { blockAddress, type BlocklistSource } from "./blocklist.js";
import { cancelPendingSends } from "../sending/cancel-pending-sends.js";
import { findDeliveredLink } from "../tracking/delivered-links.js";
import { recordEvent } from "../webhooks/record-event.js";
import { inTransaction, type Tx } from "../tx.js";

export interface UnsubscribeResult {
  contactId: string;
  accountId: string;
  email: string;
  /** true when this call set the contact's unsubscribedAt (false: it was already set) */
  contactUnsubscribed: boolean;
  /** the enrollments this call moved to unsubscribed, one enrollment.unsubscribed event each */
  enrollmentIds: string[];
}

/** Enrollment statuses an unsubscribe stops; replied, bounced and unsubscribed ones are left alone. */
const ACTIVE_STATUSES = ["pending", "sent", "opened"];

/** How an unsubscribe came: a link or mailto request ("unsubscribe") or a spam complaint ("complaint"). */
export type UnsubscribeSource = Extract<BlocklistSource, "unsubscribe" | "complaint">;

/**
 * Unsubscribes one contact account-wide, in one transaction: sets the contact's
 * unsubscribedAt (if not set), blocks its address in the account's blocklist
 * (an existing entry is kept as it is), moves each of its active enrollments
 * (pending, sent, opened; in any campaign) to unsubscribed, cancels their steps
 * that have not gone out, and emits one enrollment.unsubscribed per such
 * enrollment. Idempotent: a repeat changes nothing and emits nothing. null when
 * there is no such contact. Takes a client (own transaction) or the caller's
 * transaction.
 */
export async function unsubscribeContact(db: Tx, contactId: string, now = new Date(), source: UnsubscribeSource = "unsubscribe"): Promise<UnsubscribeResult | null> {
  return inTransaction(db, (tx) => unsubscribeLockedContact(tx, contactId, now, source));
}

/**
 * The unsubscribe link: the contact of this enrollment, or, when the campaign
 * was deleted since the email went out, of the link kept for it (null when
 * neither exists).
 */
export async function unsubscribeByEnrollment(db: Tx, enrollmentId: string, now = new Date()): Promise<UnsubscribeResult | null> {
  return inTransaction(db, async (tx) => {
    const contactId = await recipientOfLink(tx, enrollmentId);
    return contactId ? unsubscribeLockedContact(tx, contactId, now, "unsubscribe") : null;
  });
}

/** The contact an email's link was made for: its enrollment's, or the delivered link's once the enrollment is deleted. */
export async function recipientOfLink(tx: Tx, enrollmentId: string): Promise<string | null> {
  const enrollment = await tx.enrollment.findUnique({ where: { id: enrollmentId }, select: { contactId: true } });
  if (enrollment) return enrollment.contactId;
  return (await findDeliveredLink(tx, enrollmentId))?.contactId ?? null;
}

/**
 * Spam complaints: the relay's report names only the recipient, so every
 * contact with that email is unsubscribed (in the one account given, or in
 * every account when accountId is null/undefined). One result per contact.
 */
export async function unsubscribeContactByEmail(db: Tx, accountId: string | null | undefined, email: string, now = new Date()): Promise<UnsubscribeResult[]> {
  const normalized = email.trim().toLowerCase();
  if (!normalized) return [];
  return inTransaction(db, async (tx) => {
    const contactIds = await contactIdsByEmail(tx, normalized, accountId ?? null);
    const results: UnsubscribeResult[] = [];
    for (const contactId of contactIds) {
      const result = await unsubscribeLockedContact(tx, contactId, now, "complaint");
      if (result) results.push(result);
    }
    return results;
  });
}

async function unsubscribeLockedContact(tx: Tx, contactId: string, now: Date, source: UnsubscribeSource): Promise<UnsubscribeResult | null> {
  const contact = await lockContactForUnsubscribe(tx, contactId);
  if (!contact) return null;

  const contactUnsubscribed = contact.unsubscribedAt === null;
  if (contactUnsubscribed) await tx.contact.update({ where: { id: contact.id }, data: { unsubscribedAt: now } });
  await blockAddress(tx, contact.accountId, contact.email, source, source === "complaint" ? "spam complaint" : "unsubscribed");

  // Step rows before enrollment rows: the order dispatch and sending lock them in, so no deadlock.
  await lockPendingSendsOfContact(tx, contact.id, ACTIVE_STATUSES);
  const enrollments = await lockContactEnrollmentsIn(tx, contact.id, contact.accountId, ACTIVE_STATUSES);
  const enrollmentIds = enrollments.map((e) => e.id);
  if (enrollmentIds.length > 0) {
    await tx.enrollment.updateMany({ where: { id: { in: enrollmentIds } }, data: { status: "unsubscribed", unsubscribedAt: now } });
    await cancelPendingSends(tx, enrollmentIds, "unsubscribed");
    for (const enrollment of enrollments) {
      await recordEvent(tx, contact.accountId, "enrollment.unsubscribed", {
        enrollment_id: enrollment.id,
        contact_id: contact.id,
        contact_email: contact.email,
        campaign_id: enrollment.campaignId,
        unsubscribed_at: now.toISOString(),
      });
    }
  }
  return { contactId: contact.id, accountId: contact.accountId, email: contact.email, contactUnsubscribed, enrollmentIds };
}
