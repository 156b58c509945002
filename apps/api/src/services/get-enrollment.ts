import { AppError } from "@outreach/core";
import type { Db } from "@outreach/db";
import { isUuid } from "../validation.js";
import type { EnrollmentWithContact } from "./enroll-contact.js";
import { findCampaign } from "./find-campaign.js";

/**
 * GET /campaigns/:id/enrollments/:enrollment_id: one enrollment of one of the
 * account's campaigns. 404 campaign_not_found for the campaign as everywhere;
 * a malformed, unknown or other campaign's enrollment id is 404 enrollment_not_found.
 */
export async function getEnrollment(db: Db, accountId: string, campaignId: string, enrollmentId: string): Promise<EnrollmentWithContact> {
  const campaign = await findCampaign(db, accountId, campaignId);
  const enrollment = isUuid(enrollmentId)
    ? await db.enrollment.findFirst({ where: { id: enrollmentId, campaignId: campaign.id, accountId }, include: { contact: { select: { email: true } } } })
    : null;
  if (!enrollment) throw new AppError("enrollment_not_found");
  return enrollment;
}
