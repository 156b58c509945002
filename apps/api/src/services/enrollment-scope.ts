import { Prisma } from "@outreach/db";
import type { LockedCampaign } from "./lock-campaign.js";

/** Where a campaign's contacts must be unique: its outreach, when the outreach has unique_contacts. */
export interface EnrollmentScope {
  /** The outreach whose campaigns share contacts exclusively, or null (no de-duplication). */
  uniqueOutreachId: string | null;
}

/**
 * Serializes the enrollments of all campaigns of the campaign's outreach (a
 * transaction-scoped advisory lock keyed on the outreach), then reads whether
 * the outreach de-duplicates contacts. Two campaigns of one outreach enrolling
 * at once therefore run one after the other, and the second sees what the
 * first enrolled, so a contact cannot end up in both. The caller holds the
 * campaign row lock, which keeps outreachId fixed while this runs.
 */
export async function lockEnrollmentScope(tx: Prisma.TransactionClient, campaign: LockedCampaign): Promise<EnrollmentScope> {
  if (campaign.outreachId === null) return { uniqueOutreachId: null };
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`outreach-enrollments:${campaign.outreachId}`}, 0))`;
  const [outreach] = await tx.$queryRaw<Array<{ uniqueContacts: boolean }>>`
    SELECT "uniqueContacts" FROM outreaches WHERE id = ${campaign.outreachId}::uuid AND "accountId" = ${campaign.accountId}::uuid`;
  return { uniqueOutreachId: outreach?.uniqueContacts ? campaign.outreachId : null };
}

/**
 * An SQL condition: the contact (a column reference) is enrolled in another
 * campaign of the outreach. Used by the bulk and the single enrollment alike.
 */
export function enrolledInSibling(contactColumn: Prisma.Sql, campaign: LockedCampaign, outreachId: string): Prisma.Sql {
  return Prisma.sql`EXISTS (
    SELECT 1 FROM enrollments se JOIN campaigns s ON s.id = se."campaignId"
    WHERE se."contactId" = ${contactColumn} AND s."outreachId" = ${outreachId}::uuid
      AND s.id <> ${campaign.id}::uuid AND s."accountId" = ${campaign.accountId}::uuid)`;
}

/** The reason stored on a cross_campaign_duplicate skip, naming the sibling campaign (SQL expression over its name and id). */
export function duplicateReasonSql(nameColumn: Prisma.Sql, idColumn: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`'already enrolled in campaign "' || ${nameColumn} || '" (' || ${idColumn}::text || ') of the same outreach'`;
}
