import { deliveredLinkOf, insertDeliveredLinks } from "@outreach/db";
import type { Tx } from "../tx.js";

/**
 * Keeps the links of a campaign's delivered emails before the campaign (and
 * with it its enrollments) is deleted: an unsubscribe link already in a
 * recipient's inbox must keep working (CAN-SPAM asks for 30 days at least),
 * and the open pixel keeps answering. An enrollment counts as delivered once
 * any of its steps went out or may have (sent, sending, or failed after an
 * unknown outcome). Run inside the deleting transaction.
 */
export async function keepDeliveredLinks(tx: Tx, accountId: string, campaignId: string): Promise<number> {
  return insertDeliveredLinks(tx, accountId, campaignId);
}

export interface DeliveredLink {
  accountId: string;
  contactId: string;
  email: string;
}

/** The recipient of a link whose enrollment was deleted, or null. */
export async function findDeliveredLink(tx: Tx, enrollmentId: string): Promise<DeliveredLink | null> {
  return (await deliveredLinkOf(tx, enrollmentId)) ?? null;
}
