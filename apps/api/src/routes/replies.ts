import Joi from "joi";
import { REPLY_CATEGORIES } from "@outreach/core";
import { Router } from "express";
import { authOf, param } from "../auth.js";
import type { ApiContext } from "../context.js";
import { contract } from "../contracts/contract.js";
import { idempotent } from "../middleware/idempotency.js";
import { pageQuery, sendPage } from "../pagination.js";
import { withoutNul } from "../request-body.js";
import { MAX_BODY_HTML_LENGTH, MAX_SUBJECT_LENGTH } from "../schemas/campaign.js";
import { serializeAnswer, serializeReply, serializeReplySummary } from "../serializers/reply.js";
import { answerReply } from "../services/answer-reply.js";
import { getReply, REPLY_KINDS } from "../services/get-reply.js";
import { listInboxReplies } from "../services/list-inbox-replies.js";
import { setReplyCategory } from "../services/set-reply-category.js";
import { J, validateQuery, validateResource } from "../validation.js";

export const listRepliesQuery = contract(
  "ListRepliesQuery",
  Joi.object({
    ...pageQuery,
    campaign_id: Joi.string().max(100),
    kind: Joi.string().valid(...REPLY_KINDS),
    category: Joi.string().valid(...REPLY_CATEGORIES),
  }),
);

export const categorizeReplySchema = contract(
  "CategorizeReplyBody",
  J.object({
    category: J.string()
      .valid(...REPLY_CATEGORIES)
      .required(),
  }),
);

export const answerSchema = contract(
  "AnswerReplyBody",
  J.object({
    body_html: withoutNul(J.string().min(1).max(MAX_BODY_HTML_LENGTH)).required(),
    // a header line: no CR or LF anywhere, as step subjects; trimmed only after
    // that check, so a line break at either end is refused rather than cut off
    subject: withoutNul(J.string().max(MAX_SUBJECT_LENGTH))
      .pattern(/[\r\n]/, { invert: true, name: "line" })
      .messages({ "string.pattern.invert.name": "{{#label}} must be a single line of text" })
      .custom((value: string) => value.trim())
      .min(1),
  }),
);

/** Mounted at /replies behind authentication: the replies detected in the account's inboxes, and answers to them. */
export function replyRoutes(ctx: ApiContext): Router {
  const router = Router();
  const answerQueue = ctx.queues.sendAnswer;

  router.get("/", async (req, res) => {
    const query = validateQuery(listRepliesQuery, req.query);
    const replies = await listInboxReplies(ctx.db, authOf(res).accountId, {
      limit: query.limit,
      startingAfter: query.starting_after,
      campaignId: query.campaign_id,
      kind: query.kind,
      category: query.category,
    });
    sendPage(req, res, replies, query.limit, serializeReplySummary);
  });

  router.get("/:id", async (req, res) => {
    const { reply, answers } = await getReply(ctx.db, authOf(res).accountId, param(req, "id"));
    res.json(serializeReply(reply, answers));
  });

  router.patch("/:id", async (req, res) => {
    const input = validateResource(categorizeReplySchema, req.body, "reply");
    const { reply, answers } = await setReplyCategory(ctx.db, authOf(res).accountId, param(req, "id"), input.category);
    res.json(serializeReply(reply, answers));
  });

  router.post("/:id/answer", idempotent(ctx), async (req, res) => {
    const input = validateResource(answerSchema, req.body, "answer");
    const answer = await answerReply(ctx.db, answerQueue, authOf(res).accountId, param(req, "id"), input);
    res.status(202).json(serializeAnswer(answer));
  });

  return router;
}
