import { answerSchema, categorizeReplySchema, listRepliesQuery } from "../../routes/replies.js";
import { replyAnswerSchema, replySchema, replySummarySchema } from "../../serializers/reply.js";
import { array } from "../json-schema.js";
import { defineOperations } from "../operation.js";

const id = { id: "The reply's id." };

/** routes/replies.ts: replies detected in the account's inboxes, and answers to them. */
export const replyOperations = defineOperations([
  {
    method: "get",
    path: "/replies",
    operationId: "listReplies",
    tag: "Replies",
    summary: "List replies",
    description:
      "Replies and auto-replies matched to the account's enrollments, newest first (by `received_at`), with a 200-character `snippet` of their text. `campaign_id` narrows the list to one campaign (404 `campaign_not_found` when it is not one of this account's), `kind` to replies or auto-replies, `category` to one category (interested, not_interested, out_of_office, unsubscribe_request, wrong_person, other).",
    auth: true,
    paged: true,
    query: listRepliesQuery,
    responses: { 200: { description: "A page of replies, newest first.", schema: array(replySummarySchema) } },
    errors: ["campaign_not_found"],
  },
  {
    method: "get",
    path: "/replies/:id",
    operationId: "getReply",
    tag: "Replies",
    summary: "Get a reply with its text and answers",
    auth: true,
    params: id,
    responses: { 200: { description: "The reply with its whole `body_text` (without the quoted history) and the answers given to it, oldest first.", schema: replySchema } },
    errors: ["reply_not_found"],
  },
  {
    method: "patch",
    path: "/replies/:id",
    operationId: "categorizeReply",
    tag: "Replies",
    summary: "Correct a reply's category",
    description:
      "Sets the reply's `category` as a person's correction (`category_source` becomes `manual`; a model never overrides it). The new category's actions run as when the reply arrived: `unsubscribe_request` unsubscribes the contact (when the campaign's `unsubscribe_on_request` is on), `out_of_office` moves the enrollment's next step to the return date, and a campaign's `reply_actions` naming the category move the contact to their campaign. Emits `reply.categorized` (opt-in) when the category or its source changes; the same category again changes nothing.",
    auth: true,
    params: id,
    body: { schema: categorizeReplySchema, wrapper: "reply" },
    responses: { 200: { description: "The reply, as GET /replies/{id} shows it.", schema: replySchema } },
    errors: ["reply_not_found"],
  },
  {
    method: "post",
    path: "/replies/:id/answer",
    operationId: "answerReply",
    tag: "Replies",
    summary: "Answer a reply",
    description:
      "Answers 202: the answer is recorded `queued` and sent in the background by the sender, through the inbox that got the reply, threaded to it (`In-Reply-To`, `References`); follow its `state` (queued, sending, sent or failed) in GET /replies/{id}. The subject defaults to `Re: <reply subject>`. An answer counts like a step-1 send against its inbox's `daily_limit` for the day: a full day is 422 `mailbox_limit_reached` (`details {daily_limit, used}`), a disabled or deleted inbox 422 `mailbox_unavailable`. Send an Idempotency-Key so a retry never answers twice.",
    auth: true,
    idempotent: true,
    params: id,
    body: { schema: answerSchema, wrapper: "answer" },
    responses: { 202: { description: "The answer, queued.", schema: replyAnswerSchema } },
    errors: ["reply_not_found", "mailbox_limit_reached", "mailbox_unavailable"],
  },
]);
