import type { Tx } from "./tx.js";

/**
 * Keeps the links of a campaign's delivered emails before the campaign (and
 * with it its enrollments) is deleted: an unsubscribe link already in a
 * recipient's inbox must keep working (CAN-SPAM asks for 30 days at least),
 * and the open pixel keeps answering. An enrollment counts as delivered once
 * any of its steps went out or may have (sent, sending, or failed after an
 * unknown outcome). Run inside the deleting transaction.
 */
export async function keepDeliveredLinks(tx: Tx, accountId: string, campaignId: string): Promise<number> {
  return tx.$executeRaw`
    INSERT INTO delivered_links ("enrollmentId", "accountId", "campaignId", "contactId", email)
    SELECT e.id, e."accountId", e."campaignId", e."contactId", c.email
    FROM enrollments e JOIN contacts c ON c.id = e."contactId"
    WHERE e."campaignId" = ${campaignId}::uuid AND e."accountId" = ${accountId}::uuid
      AND (e."sentAt" IS NOT NULL OR EXISTS (
        SELECT 1 FROM step_sends s WHERE s."enrollmentId" = e.id AND s.state IN ('sent', 'sending', 'bounced', 'failed')))
    ON CONFLICT ("enrollmentId") DO NOTHING`;
}

export interface DeliveredLink {
  accountId: string;
  contactId: string;
  email: string;
}

/** The recipient of a link whose enrollment was deleted, or null. */
export async function findDeliveredLink(tx: Tx, enrollmentId: string): Promise<DeliveredLink | null> {
  const rows = await tx.$queryRaw<DeliveredLink[]>`
    SELECT "accountId", "contactId", email FROM delivered_links WHERE "enrollmentId" = ${enrollmentId}::uuid`;
  return rows[0] ?? null;
}
