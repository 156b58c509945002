import type { EnrollContactImportResult } from "../services/enroll-contact-import.js";
import type { EnrollContactResult, EnrollmentWithContact } from "../services/enroll-contact.js";

export function serializeEnrollment(enrollment: EnrollmentWithContact) {
  return {
    enrollment_id: enrollment.id,
    contact_id: enrollment.contactId,
    campaign_id: enrollment.campaignId,
    email: enrollment.contact.email,
    status: enrollment.status,
    batch_number: enrollment.batchNumber,
    priority: enrollment.priority,
    sent_at: enrollment.sentAt,
    opened_at: enrollment.openedAt,
    clicked_at: enrollment.clickedAt,
    replied_at: enrollment.repliedAt,
    bounce_reason: enrollment.bounceReason,
    unsubscribed_at: enrollment.unsubscribedAt,
    stopped_at: enrollment.stoppedAt,
    stopped_reason: enrollment.stoppedReason,
    created_at: enrollment.createdAt,
  };
}

/** POST /campaigns/:id/enroll_contact */
export function serializeEnrollContactResult(result: EnrollContactResult) {
  return {
    enrolled: result.enrolled,
    enrollment: result.enrollment ? serializeEnrollment(result.enrollment) : null,
    skip: result.skip ? { kind: result.skip.kind, reason: result.skip.reason } : null,
  };
}

/** POST /campaigns/:id/enroll */
export function serializeEnrollContactImportResult(result: EnrollContactImportResult) {
  return {
    campaign_id: result.campaignId,
    contact_import_id: result.contactImportId,
    batch_number: result.batchNumber,
    enrolled: result.enrolled,
    already_enrolled: result.alreadyEnrolled,
    skipped: { cross_campaign_duplicate: result.skipped.crossCampaignDuplicate, unsubscribed: result.skipped.unsubscribed },
  };
}
