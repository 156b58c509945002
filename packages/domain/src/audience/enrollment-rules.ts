import { firstSiblingEnrollmentReason, lockOutreachEnrollments, outreachUniqueContacts, type Contact, type Enrollment, type LockedCampaign, type Prisma } from "@outreach/db";

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
export async function lockEnrollmentScope(tx: Prisma.TransactionClient, campaign: Pick<LockedCampaign, "accountId" | "outreachId">): Promise<EnrollmentScope> {
  if (campaign.outreachId === null) return { uniqueOutreachId: null };
  await lockOutreachEnrollments(tx, campaign.outreachId);
  const uniqueContacts = await outreachUniqueContacts(tx, campaign.accountId, campaign.outreachId);
  return { uniqueOutreachId: uniqueContacts ? campaign.outreachId : null };
}

/** Why a contact is not enrolled in a campaign. */
export type EnrollmentRefusal =
  | { kind: "already_enrolled" }
  | { kind: "unsubscribed"; unsubscribedAt: Date }
  /** in a sibling campaign of a unique_contacts outreach: the skip recorded (once per contact and campaign) */
  | { kind: "cross_campaign_duplicate"; skip: { kind: "cross_campaign_duplicate"; reason: string } };

/**
 * The rules every enrollment of one contact keeps (the API's enroll and a move
 * to a follow-on campaign), checked in this order: already in the campaign,
 * unsubscribed, already in a sibling campaign of a unique_contacts outreach
 * (its cross_campaign_duplicate skip persisted, once). Takes the outreach's
 * enrollment lock (lockEnrollmentScope); the caller holds the campaign row
 * lock and creates the enrollment in the same transaction when this returns null.
 */
export async function enrollmentRefusal(
  tx: Prisma.TransactionClient,
  campaign: Pick<LockedCampaign, "id" | "accountId" | "outreachId">,
  contact: Pick<Contact, "id" | "unsubscribedAt">,
): Promise<EnrollmentRefusal | null> {
  const scope = await lockEnrollmentScope(tx, campaign);
  if (await tx.enrollment.findUnique({ where: { campaignId_contactId: { campaignId: campaign.id, contactId: contact.id } }, select: { id: true } })) {
    return { kind: "already_enrolled" };
  }
  if (contact.unsubscribedAt !== null) return { kind: "unsubscribed", unsubscribedAt: contact.unsubscribedAt };
  if (scope.uniqueOutreachId === null) return null;

  const siblingReason = await firstSiblingEnrollmentReason(tx, { accountId: campaign.accountId, campaignId: campaign.id, outreachId: scope.uniqueOutreachId, contactId: contact.id });
  if (siblingReason === undefined) return null;
  const existing = await tx.enrollmentSkip.findFirst({
    where: { campaignId: campaign.id, contactId: contact.id, kind: "cross_campaign_duplicate" },
    orderBy: { createdAt: "asc" },
  });
  const skip =
    existing ??
    (await tx.enrollmentSkip.create({
      data: { accountId: campaign.accountId, campaignId: campaign.id, contactId: contact.id, kind: "cross_campaign_duplicate", reason: siblingReason },
    }));
  return { kind: "cross_campaign_duplicate", skip: { kind: "cross_campaign_duplicate", reason: skip.reason } };
}

export interface NewEnrollment {
  batchNumber: number;
  priority: number;
  /** the enrollment of another campaign the contact was moved from */
  movedFromEnrollmentId?: string | null;
}

export type EnrollmentWithContact = Enrollment & { contact: Pick<Contact, "email"> };

/** Creates the enrollment once enrollmentRefusal found none (same transaction, same locks). */
export async function createEnrollment(tx: Prisma.TransactionClient, campaign: Pick<LockedCampaign, "id" | "accountId">, contactId: string, input: NewEnrollment): Promise<EnrollmentWithContact> {
  return tx.enrollment.create({
    data: {
      accountId: campaign.accountId,
      campaignId: campaign.id,
      contactId,
      batchNumber: input.batchNumber,
      priority: input.priority,
      movedFromEnrollmentId: input.movedFromEnrollmentId ?? null,
    },
    include: { contact: { select: { email: true } } },
  });
}
