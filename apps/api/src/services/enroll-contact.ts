import { AppError } from "@outreach/core";
import type { Db, SkipKind } from "@outreach/db";
import { createEnrollment, enrollmentRefusal, type EnrollmentWithContact } from "@outreach/domain";
import { isUuid } from "../validation.js";
import { lockCampaign } from "./lock-campaign.js";

export interface EnrollContactInput {
  contactId: string;
  batchNumber: number;
  priority: number;
}

export type { EnrollmentWithContact };

export type EnrollContactResult = { enrolled: true; enrollment: EnrollmentWithContact; skip: null } | { enrolled: false; enrollment: null; skip: { kind: SkipKind; reason: string } };

/**
 * Enrolls one of the account's contacts, under the same locks and rules as an
 * import (enroll-contact-import.ts) and a move to a follow-on campaign (the
 * rules: enrollmentRefusal in @outreach/domain): 404 contact_not_found, 422
 * contact_already_enrolled, 422 unprocessable for an unsubscribed contact; a
 * contact already in a sibling campaign of a unique_contacts outreach is not
 * enrolled and its cross_campaign_duplicate skip is persisted (once).
 */
export async function enrollContact(db: Db, accountId: string, campaignId: string, input: EnrollContactInput): Promise<EnrollContactResult> {
  return db.$transaction(async (tx): Promise<EnrollContactResult> => {
    const campaign = await lockCampaign(tx, accountId, campaignId, "no_key_update");
    const contact = isUuid(input.contactId) ? await tx.contact.findFirst({ where: { id: input.contactId, accountId } }) : null;
    if (!contact) throw new AppError("contact_not_found");

    const refusal = await enrollmentRefusal(tx, campaign, contact);
    if (refusal?.kind === "already_enrolled") throw new AppError("contact_already_enrolled", undefined, { contact_id: contact.id, campaign_id: campaign.id });
    if (refusal?.kind === "unsubscribed") {
      throw new AppError("unprocessable", "The contact has unsubscribed and cannot be enrolled.", { contact_id: contact.id, unsubscribed_at: refusal.unsubscribedAt });
    }
    if (refusal?.kind === "cross_campaign_duplicate") return { enrolled: false, enrollment: null, skip: refusal.skip };

    const enrollment = await createEnrollment(tx, campaign, contact.id, { batchNumber: input.batchNumber, priority: input.priority });
    return { enrolled: true, enrollment, skip: null };
  });
}
