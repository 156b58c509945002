import { lockOutreachEnrollments, outreachUniqueContacts, type Prisma } from "@outreach/db";
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
  await lockOutreachEnrollments(tx, campaign.outreachId);
  const uniqueContacts = await outreachUniqueContacts(tx, campaign.accountId, campaign.outreachId);
  return { uniqueOutreachId: uniqueContacts ? campaign.outreachId : null };
}
