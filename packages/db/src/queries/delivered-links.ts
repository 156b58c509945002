import { columns, type RowOf } from "./columns.js";
import { executor, type Queryable } from "./executor.js";

/* Statements on delivered_links: the recipients of links in emails of deleted campaigns. */

/**
 * Keeps a link per delivered enrollment of the campaign (one with sentAt, or
 * a step sent, sending, bounced or failed), with its contact's address; an
 * enrollment kept before is left as it is.
 */
export async function insertDeliveredLinks(q: Queryable, accountId: string, campaignId: string): Promise<number> {
  return executor(q).execute(
    `
    INSERT INTO delivered_links ("enrollmentId", "accountId", "campaignId", "contactId", email)
    SELECT e.id, e."accountId", e."campaignId", e."contactId", c.email
    FROM enrollments e JOIN contacts c ON c.id = e."contactId"
    WHERE e."campaignId" = $1::uuid AND e."accountId" = $2::uuid
      AND (e."sentAt" IS NOT NULL OR EXISTS (
        SELECT 1 FROM step_sends s WHERE s."enrollmentId" = e.id AND s.state IN ('sent', 'sending', 'bounced', 'failed')))
    ON CONFLICT ("enrollmentId") DO NOTHING`,
    [campaignId, accountId],
  );
}

export const deliveredLinkColumns = columns({ accountId: "uuid", contactId: "uuid", email: "text" });
export type DeliveredLinkRow = RowOf<typeof deliveredLinkColumns>;

/** The link kept for the enrollment: undefined when none. */
export async function deliveredLinkOf(q: Queryable, enrollmentId: string): Promise<DeliveredLinkRow | undefined> {
  const rows = await executor(q).rows<DeliveredLinkRow>(
    `
    SELECT "accountId", "contactId", email FROM delivered_links WHERE "enrollmentId" = $1::uuid`,
    [enrollmentId],
  );
  return rows[0];
}
