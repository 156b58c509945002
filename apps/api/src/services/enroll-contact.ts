import { AppError } from "@outreach/core";
import { firstSiblingEnrollmentReason, type Contact, type Db, type Enrollment, type SkipKind } from "@outreach/db";
import { isUuid } from "../validation.js";
import { lockEnrollmentScope } from "./enrollment-scope.js";
import { lockCampaign } from "./lock-campaign.js";

export interface EnrollContactInput {
  contactId: string;
  batchNumber: number;
  priority: number;
}

export type EnrollmentWithContact = Enrollment & { contact: Pick<Contact, "email"> };

export type EnrollContactResult = { enrolled: true; enrollment: EnrollmentWithContact; skip: null } | { enrolled: false; enrollment: null; skip: { kind: SkipKind; reason: string } };

/**
 * Enrolls one of the account's contacts, under the same locks and rules as an
 * import (enroll-contact-import.ts): 404 contact_not_found, 422
 * contact_already_enrolled, 422 unprocessable for an unsubscribed contact; a
 * contact already in a sibling campaign of a unique_contacts outreach is not
 * enrolled and its cross_campaign_duplicate skip is persisted (once).
 */
export async function enrollContact(db: Db, accountId: string, campaignId: string, input: EnrollContactInput): Promise<EnrollContactResult> {
  return db.$transaction(async (tx): Promise<EnrollContactResult> => {
    const campaign = await lockCampaign(tx, accountId, campaignId, "no_key_update");
    const contact = isUuid(input.contactId) ? await tx.contact.findFirst({ where: { id: input.contactId, accountId } }) : null;
    if (!contact) throw new AppError("contact_not_found");
    const scope = await lockEnrollmentScope(tx, campaign);

    if (await tx.enrollment.findUnique({ where: { campaignId_contactId: { campaignId: campaign.id, contactId: contact.id } }, select: { id: true } })) {
      throw new AppError("contact_already_enrolled", undefined, { contact_id: contact.id, campaign_id: campaign.id });
    }
    if (contact.unsubscribedAt !== null) {
      throw new AppError("unprocessable", "The contact has unsubscribed and cannot be enrolled.", { contact_id: contact.id, unsubscribed_at: contact.unsubscribedAt });
    }

    if (scope.uniqueOutreachId !== null) {
      const siblingReason = await firstSiblingEnrollmentReason(tx, { accountId, campaignId: campaign.id, outreachId: scope.uniqueOutreachId, contactId: contact.id });
      if (siblingReason !== undefined) {
        const existing = await tx.enrollmentSkip.findFirst({
          where: { campaignId: campaign.id, contactId: contact.id, kind: "cross_campaign_duplicate" },
          orderBy: { createdAt: "asc" },
        });
        const skip =
          existing ??
          (await tx.enrollmentSkip.create({
            data: { accountId, campaignId: campaign.id, contactId: contact.id, kind: "cross_campaign_duplicate", reason: siblingReason },
          }));
        return { enrolled: false, enrollment: null, skip: { kind: skip.kind, reason: skip.reason } };
      }
    }

    const enrollment = await tx.enrollment.create({
      data: { accountId, campaignId: campaign.id, contactId: contact.id, batchNumber: input.batchNumber, priority: input.priority },
      include: { contact: { select: { email: true } } },
    });
    return { enrolled: true, enrollment, skip: null };
  });
}
