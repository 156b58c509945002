import type { DispatchResult } from "../services/dispatch-campaign.js";
import type { SendForecast } from "../services/forecast-sends.js";
import type { SkipWithContact } from "../services/list-skips.js";
import type { Reply } from "../services/list-replies.js";
import type { CampaignStateResult } from "../services/pause-campaign.js";
import type { ResumeResult } from "../services/resume-campaign.js";
import type { TestSendResult } from "../services/queue-test-send.js";

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
  };
}
