import Joi from "joi";
import type { DefaultJobOptions } from "bullmq";
import type { QueuePayloads } from "./queue-payloads.generated.js";

/** Every queue of the service: its name, payload schema and default job options. */
export const QUEUE_NAMES = {
  campaignDispatch: "campaign-dispatch",
  sendEmail: "send-email",
  testSend: "test-send",
  replanHeldSends: "replan-held-sends",
  sendAnswer: "send-answer",
  categorizeReply: "categorize-reply",
} as const;

export type QueueName = (typeof QUEUE_NAMES)[keyof typeof QUEUE_NAMES];

/** Each queue's job payload: generated from the payload schemas below (`pnpm contracts`). */
export type { QueuePayloads };

const id = Joi.string().guid();

const retention = {
  removeOnComplete: { age: 24 * 3600, count: 10_000 },
  removeOnFail: { age: 7 * 24 * 3600, count: 50_000 },
} satisfies DefaultJobOptions;

export interface QueueDefinition<N extends QueueName> {
  name: N;
  payload: Joi.ObjectSchema<QueuePayloads[N]>;
  jobOptions: DefaultJobOptions;
}

export const QUEUES: { [N in QueueName]: QueueDefinition<N> } = {
  "campaign-dispatch": {
    name: "campaign-dispatch",
    payload: Joi.object({ accountId: id.required(), campaignId: id.required(), batchNumber: Joi.number().integer().min(0).required() }),
    jobOptions: { attempts: 5, backoff: { type: "exponential", delay: 2_000 }, ...retention },
  },
  "send-email": {
    name: "send-email",
    payload: Joi.object({
      accountId: id.required(),
      stepSendId: id.required(),
      credentialId: id.description("the inbox it was routed by, whose session the sender takes before claiming it"),
    }),
    // a completed send job is deleted at once: its send's row is the record, and a job gone is judged like a completed one (see lostJobsIn)
    jobOptions: { attempts: 6, backoff: { type: "exponential", delay: 30_000 }, ...retention, removeOnComplete: true },
  },
  "test-send": {
    name: "test-send",
    payload: Joi.object({
      accountId: id.required(),
      campaignId: id.required(),
      email: Joi.string()
        .email({ tlds: { allow: false } })
        .max(254)
        .required(),
    }).description("Every step of a campaign to one address, not counted as an enrollment or against the plan."),
    jobOptions: { attempts: 3, backoff: { type: "exponential", delay: 10_000 }, ...retention },
  },
  "replan-held-sends": {
    name: "replan-held-sends",
    payload: Joi.object({
      accountId: id.required(),
      campaignId: id.required(),
      reason: Joi.string().valid("resume", "credential_disabled", "schedule_changed").required(),
      credentialId: id.when("reason", { is: "credential_disabled", then: Joi.required(), otherwise: Joi.forbidden() }),
    }).description(
      [
        'Plans a campaign\'s held sends again in chunks: "resume" those held before the',
        'resume (then makes the campaign active), "credential_disabled" those of a',
        'disabled inbox (moved to the campaign\'s other inboxes), "schedule_changed"',
        "those held before a PATCH of the schedule, jitter or wait range (handled",
        'like "resume": campaigns.resumeReplanBefore marks the request).',
      ].join("\n"),
    ),
    // chunked and idempotent: a retry or a stalled run continues where the committed chunks stopped
    jobOptions: { attempts: 10, backoff: { type: "exponential", delay: 2_000 }, ...retention },
  },
  "send-answer": {
    name: "send-answer",
    payload: Joi.object({ accountId: id.required(), answerId: id.required() }).description("An answer to a reply (reply_answers row), sent through the inbox that received the reply."),
    // a temporary SMTP refusal is retried a few times (about 15 s, 30 s, 60 s apart), then the answer is failed
    jobOptions: { attempts: 4, backoff: { type: "exponential", delay: 15_000 }, ...retention },
  },
  "categorize-reply": {
    name: "categorize-reply",
    payload: Joi.object({ accountId: id.required(), replyId: id.required() }).description(
      "A reply the rules left as other, asked of the model (REPLY_CLASSIFIER_URL) within the account's daily budget.",
    ),
    // a failed question is asked once more; after that the rules' answer stays
    jobOptions: { attempts: 2, backoff: { type: "fixed", delay: 2_000 }, ...retention },
  },
};

export class InvalidJobPayloadError extends Error {
  constructor(queue: QueueName, message: string) {
    super(`invalid ${queue} payload: ${message}`);
    this.name = "InvalidJobPayloadError";
  }
}

export function parseJobPayload<N extends QueueName>(queue: N, data: unknown): QueuePayloads[N] {
  const { value, error } = QUEUES[queue].payload.validate(data, { stripUnknown: false });
  if (error) throw new InvalidJobPayloadError(queue, error.message);
  return value as QueuePayloads[N];
}
