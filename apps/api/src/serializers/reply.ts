import { REPLY_CATEGORIES, REPLY_CATEGORY_SOURCES } from "@outreach/core";
import { array, component, dateTime, nullable, object, oneOfValues, string, uuid } from "../openapi/json-schema.js";

/** A stored reply or auto-reply as the services read it (ids as text, Message-ID normalised without <>). */
export interface ReplyRow {
  id: string;
  kind: string;
  campaignId: string | null;
  enrollmentId: string;
  contactId: string;
  credentialId: string;
  fromEmail: string | null;
  fromName: string | null;
  subject: string | null;
  receivedAt: Date;
  sentAt: Date | null;
  bodyText: string | null;
  messageId: string | null;
  category: string | null;
  categorySource: string | null;
}

export interface AnswerRow {
  id: string;
  inboundMessageId: string;
  state: string;
  subject: string;
  lastError: string | null;
  createdAt: Date;
  sentAt: Date | null;
}

/** The list shows the start of each reply's text, whitespace collapsed; GET /replies/:id has the whole body_text. */
export const SNIPPET_LENGTH = 200;

function snippetOf(text: string | null): string {
  const collapsed = (text ?? "").replace(/\s+/g, " ").trim();
  return collapsed.length > SNIPPET_LENGTH ? `${collapsed.slice(0, SNIPPET_LENGTH - 1)}\u2026` : collapsed;
}

function common(row: ReplyRow) {
  return {
    id: row.id,
    kind: row.kind,
    campaign_id: row.campaignId,
    enrollment_id: row.enrollmentId,
    contact_id: row.contactId,
    credential_id: row.credentialId,
    from_email: row.fromEmail,
    from_name: row.fromName,
    subject: row.subject ?? "",
    received_at: row.receivedAt.toISOString(),
    sent_at: row.sentAt?.toISOString() ?? null,
    message_id: row.messageId ? `<${row.messageId}>` : null,
    category: row.category ?? "other",
    category_source: row.categorySource ?? "rules",
  };
}

/** An element of GET /replies. */
export function serializeReplySummary(row: ReplyRow) {
  return { ...common(row), snippet: snippetOf(row.bodyText) };
}

export function serializeAnswer(answer: AnswerRow) {
  return {
    id: answer.id,
    reply_id: answer.inboundMessageId,
    state: answer.state,
    subject: answer.subject,
    created_at: answer.createdAt.toISOString(),
    sent_at: answer.sentAt?.toISOString() ?? null,
    error: answer.lastError,
  };
}

/** GET /replies/:id: the reply with its whole text and the answers given to it, oldest first. */
export function serializeReply(row: ReplyRow, answers: AnswerRow[]) {
  return { ...common(row), body_text: row.bodyText ?? "", answers: answers.map(serializeAnswer) };
}

// ------------------------------------------------------------ response schemas --

const replyFields = {
  id: uuid(),
  kind: oneOfValues(["reply", "auto_reply"]),
  campaign_id: nullable(uuid()),
  enrollment_id: uuid(),
  contact_id: uuid(),
  credential_id: uuid("The inbox that received it."),
  from_email: nullable(string()),
  from_name: nullable(string()),
  subject: string(),
  received_at: dateTime(),
  sent_at: nullable(dateTime("The message's Date header.")),
  message_id: nullable(string({ description: "The reply's Message-ID, with its angle brackets." })),
  category: oneOfValues(REPLY_CATEGORIES, "What the reply says: by the rules, a model, or a person (PATCH /replies/{id})."),
  category_source: oneOfValues(REPLY_CATEGORY_SOURCES, "Who set the category: rules, model or manual."),
};

export const replySummarySchema = component("ReplySummary", object({ ...replyFields, snippet: string({ maxLength: SNIPPET_LENGTH, description: "The start of body_text, whitespace collapsed." }) }));

export const replyAnswerSchema = component(
  "ReplyAnswer",
  object({
    id: uuid(),
    reply_id: uuid(),
    state: oneOfValues(["queued", "sending", "sent", "failed"]),
    subject: string(),
    created_at: dateTime(),
    sent_at: nullable(dateTime()),
    error: nullable(string({ description: "The server's answer when the answer failed." })),
  }),
);

export const replySchema = component(
  "Reply",
  object({
    ...replyFields,
    body_text: string({ description: "The plain text without the quoted history (at most 16 KiB)." }),
    answers: array(replyAnswerSchema, { description: "Answers given to it, oldest first." }),
  }),
);
