import { REPLY_CATEGORIES, SKIP_KINDS } from "@outreach/core";
import type { DispatchResult } from "../services/dispatch-campaign.js";
import type { SendForecast } from "../services/forecast-sends.js";
import type { SkipWithContact } from "../services/list-skips.js";
import type { Reply } from "../services/list-replies.js";
import type { CampaignStateResult } from "../services/pause-campaign.js";
import type { ResumeResult } from "../services/resume-campaign.js";
import type { TestSendResult } from "../services/queue-test-send.js";
import { array, boolean, component, dateTime, email, integer, nullable, number, object, oneOfValues, string, uuid } from "../openapi/json-schema.js";

/** POST /campaigns/:id/dispatch */
export function serializeDispatchResult(result: DispatchResult) {
  return {
    campaign_id: result.campaignId,
    batch_number: result.batchNumber,
    status: result.status,
    pending: result.pending,
    queued: result.queued,
    reason: result.reason,
  };
}

/** POST /campaigns/:id/pause and /resume (the latter with rescheduled). */
export function serializeCampaignState(result: CampaignStateResult | ResumeResult) {
  return {
    id: result.id,
    status: result.status,
    paused_reason: result.pausedReason,
    ...("rescheduled" in result && { rescheduled: result.rescheduled }),
  };
}

/** POST /campaigns/:id/test_send */
export function serializeTestSendResult(result: TestSendResult) {
  return { campaign_id: result.campaignId, queued: result.emails.length, emails: result.emails, skipped: result.skipped, allowance: result.allowance };
}

/** GET /campaigns/:id/send_forecast */
export function serializeSendForecast(forecast: SendForecast) {
  return {
    campaign_id: forecast.campaignId,
    timezone: forecast.timezone,
    days: forecast.days.map((day) => ({ date: day.date, step_1: day.step1, follow_ups: day.followUps, total: day.total })),
    total_scheduled: forecast.totalScheduled,
    overdue: forecast.overdue,
    undispatched_pending: forecast.undispatchedPending,
  };
}

/** An element of GET /campaigns/:id/skips */
export function serializeSkip(skip: SkipWithContact) {
  return {
    id: skip.id,
    kind: skip.kind,
    reason: skip.reason,
    contact_id: skip.contactId,
    email: skip.contact.email,
    enrollment_id: skip.enrollmentId,
    created_at: skip.createdAt,
  };
}

/** An element of GET /campaigns/:id/replies */
export function serializeReply(reply: Reply) {
  return {
    enrollment_id: reply.enrollmentId,
    contact_id: reply.contactId,
    email: reply.email,
    sent_at: reply.sentAt,
    replied_at: reply.repliedAt,
    hours_to_reply: reply.hoursToReply,
    category: reply.category,
  };
}

// ------------------------------------------------------------ response schemas --

const CAMPAIGN_STATUS = oneOfValues(["pending", "active", "paused"]);

export const dispatchResultSchema = component(
  "DispatchResult",
  object({
    campaign_id: uuid(),
    batch_number: integer({ minimum: 1 }),
    status: CAMPAIGN_STATUS,
    pending: integer({ minimum: 0, description: "Pending enrollments of the batch not dispatched yet." }),
    queued: boolean({ description: "false when nothing was handed to the dispatcher; reason says why." }),
    reason: oneOfValues(["campaign_paused", "no_enabled_credentials", "no_steps", "daily_limit_reached", null], "Why nothing was queued; null when queued."),
  }),
);

const campaignStateFields = {
  id: uuid(),
  status: oneOfValues(["active", "paused"]),
  paused_reason: nullable(string({ description: "manual after POST /pause; otherwise why the service paused it." })),
};

export const pausedCampaignSchema = component("PausedCampaign", object(campaignStateFields));

export const resumedCampaignSchema = component(
  "ResumedCampaign",
  object({
    ...campaignStateFields,
    rescheduled: integer({ minimum: 0, description: "Enrollments whose held sends were, or are being, planned again from now." }),
  }),
);

export const testSendResultSchema = component(
  "TestSendResult",
  object({
    campaign_id: uuid(),
    queued: integer({ minimum: 1, description: "Addresses queued." }),
    emails: array(email(), { description: "The addresses queued: lower-cased, de-duplicated, in the order given." }),
    skipped: array(object({ email: email(), reason: oneOfValues(["unsubscribed"]) }), { description: "Addresses left out: they unsubscribed in this account." }),
    allowance: object({ limit: integer(), remaining: integer({ minimum: 0 }) }, { description: "Today's test-send allowance (addresses per account per UTC day)." }),
  }),
);

export const sendForecastSchema = component(
  "SendForecast",
  object({
    campaign_id: uuid(),
    timezone: string({ description: "The zone the days are counted in: the schedule's, UTC without one." }),
    days: array(object({ date: string({ format: "date" }), step_1: integer({ minimum: 0 }), follow_ups: integer({ minimum: 0 }), total: integer({ minimum: 0 }) })),
    total_scheduled: integer({ minimum: 0, description: "The sum of total over the days." }),
    overdue: integer({ minimum: 0, description: "Scheduled sends due before today." }),
    undispatched_pending: integer({ minimum: 0, description: "Pending enrollments no dispatch has planned yet." }),
  }),
);

export const enrollmentSkipSchema = component(
  "EnrollmentSkip",
  object({
    id: uuid(),
    kind: oneOfValues(SKIP_KINDS),
    reason: string(),
    contact_id: uuid(),
    email: email(),
    enrollment_id: nullable(uuid()),
    created_at: dateTime(),
  }),
);

export const repliedEnrollmentSchema = component(
  "RepliedEnrollment",
  object({
    enrollment_id: uuid(),
    contact_id: uuid(),
    email: email(),
    sent_at: nullable(dateTime()),
    replied_at: dateTime(),
    hours_to_reply: nullable(number({ minimum: 0, description: "From the first send to the reply, two decimals; null when no send time is known." })),
    category: nullable(oneOfValues(REPLY_CATEGORIES, "The category of the enrollment's latest reply (see GET /replies); null when no reply text is stored.")),
  }),
);
