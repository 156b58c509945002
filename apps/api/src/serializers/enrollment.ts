import type { EnrollContactImportResult } from "../services/enroll-contact-import.js";
import type { EnrollContactResult, EnrollmentWithContact } from "../services/enroll-contact.js";
import { component, constant, dateTime, email, integer, nullable, object, oneOfValues, string, uuid } from "../openapi/json-schema.js";

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
    resume_at: enrollment.resumeAt,
    completed_at: enrollment.completedAt,
    moved_from_enrollment_id: enrollment.movedFromEnrollmentId,
    moved_on_at: enrollment.movedOnAt,
    moved_on_result: enrollment.movedOnResult,
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

// ------------------------------------------------------------ response schemas --

export const enrollmentSchema = component(
  "Enrollment",
  object({
    enrollment_id: uuid(),
    contact_id: uuid(),
    campaign_id: uuid(),
    email: email(),
    status: oneOfValues(["pending", "sent", "opened", "replied", "bounced", "unsubscribed"]),
    batch_number: integer(),
    priority: integer(),
    sent_at: nullable(dateTime()),
    opened_at: nullable(dateTime()),
    clicked_at: nullable(dateTime()),
    replied_at: nullable(dateTime()),
    bounce_reason: nullable(string()),
    unsubscribed_at: nullable(dateTime()),
    stopped_at: nullable(dateTime()),
    stopped_reason: nullable(string()),
    resume_at: nullable(dateTime("An out-of-office moved the next step to this time (the contact's return date plus the campaign's out_of_office_days_after_return, or its default delay).")),
    completed_at: nullable(dateTime("Every step has left (sent, or skipped by its condition).")),
    moved_from_enrollment_id: nullable(uuid("The enrollment of another campaign this one came from (a reply action or on_completion).")),
    moved_on_at: nullable(dateTime("When the contact was moved on to another campaign, or the move refused (see moved_on_result).")),
    moved_on_result: nullable(string({ description: "What became of the move: moved, or why it was refused." })),
    created_at: dateTime(),
  }),
);

/** 201: the contact was enrolled. */
export const contactEnrolledSchema = component("ContactEnrolled", object({ enrolled: constant(true), enrollment: enrollmentSchema, skip: { type: "null" } }));

/** 200: the contact was not enrolled (a duplicate across sibling campaigns); the skip is recorded. */
export const contactNotEnrolledSchema = component(
  "ContactNotEnrolled",
  object({
    enrolled: constant(false),
    enrollment: { type: "null" },
    skip: object(
      { kind: constant("cross_campaign_duplicate"), reason: string() },
      { description: "Why the contact was not enrolled: it is enrolled in a sibling campaign of a unique_contacts outreach." },
    ),
  }),
);

export const enrollContactImportResultSchema = component(
  "EnrollContactImportResult",
  object({
    campaign_id: uuid(),
    contact_import_id: uuid(),
    batch_number: integer(),
    enrolled: integer({ minimum: 0, description: "Contacts enrolled now." }),
    already_enrolled: integer({ minimum: 0 }),
    skipped: object({ cross_campaign_duplicate: integer({ minimum: 0 }), unsubscribed: integer({ minimum: 0 }) }),
  }),
);
