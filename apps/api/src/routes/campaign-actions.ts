import Joi from "joi";
import { Router } from "express";
import { AppError, SKIP_KINDS } from "@outreach/core";
import { authOf, param } from "../auth.js";
import type { ApiContext } from "../context.js";
import { contract } from "../contracts/contract.js";
import { idempotent } from "../middleware/idempotency.js";
import { pageParams, sendPage } from "../pagination.js";
import { serializeSmtpCredential } from "../serializers/campaign.js";
import { serializeCampaignState, serializeDispatchResult, serializeReply, serializeSendForecast, serializeSkip, serializeTestSendResult } from "../serializers/campaign-workflow.js";
import { serializeEnrollContactImportResult, serializeEnrollContactResult, serializeEnrollment } from "../serializers/enrollment.js";
import { dispatchCampaign } from "../services/dispatch-campaign.js";
import { enrollContact } from "../services/enroll-contact.js";
import { enrollContactImport } from "../services/enroll-contact-import.js";
import { forecastSends } from "../services/forecast-sends.js";
import { getEnrollment } from "../services/get-enrollment.js";
import { listReplies } from "../services/list-replies.js";
import { listSkips } from "../services/list-skips.js";
import { pauseCampaign } from "../services/pause-campaign.js";
import { queueTestSend } from "../services/queue-test-send.js";
import { reenableCredential } from "../services/reenable-credential.js";
import { resumeCampaign } from "../services/resume-campaign.js";
import { fields, J, validate, validateBody, validateQuery } from "../validation.js";

/** Addresses per test_send request. */
export const MAX_TEST_SEND_EMAILS = 25;

/** Any string: one that is not a UUID is an unknown resource (its 404), like a missing one. */
const reference = J.string().max(100);
const batchNumber = J.number().integer().min(1).max(1_000_000);
const priority = J.number().integer().min(-1000).max(1000);

export const enrollSchema = contract(
  "EnrollBody",
  J.object({
    contact_import_id: reference.required(),
    batch_number: batchNumber.default(1),
    priority: priority.default(0),
  }),
);
export const enrollContactSchema = contract(
  "EnrollContactBody",
  J.object({
    contact_id: reference.required(),
    batch_number: batchNumber.default(1),
    priority: priority.default(0),
  }),
);
// null is the same as leaving batch_number out: the next pending batch
export const dispatchSchema = contract("DispatchBody", J.object({ batch_number: batchNumber.allow(null) }));
// emails are checked by testSendEmailsSchema once they are known to be a non-empty list
const testSendBodySchema = contract("TestSendBody", J.object({ emails: J.any().meta({ baseType: "unknown" }) }));
export const testSendEmailsSchema = contract("TestSendEmails", J.object({ emails: J.array().items(fields.email.required()).max(MAX_TEST_SEND_EMAILS) }));
export const forecastQuery = contract("SendForecastQuery", Joi.object({ days: Joi.number().integer().min(1).max(365).default(14) }));
export const skipsQuery = contract("ListSkipsQuery", Joi.object({ kind: Joi.string().valid(...SKIP_KINDS), ...pageParams(50) }));
export const repliesQuery = contract("ListCampaignRepliesQuery", Joi.object(pageParams(50)));

/** test_send's addresses: none is 422 no_emails_provided; each a valid address; lower-cased and de-duplicated in order. */
export function testSendEmails(body: unknown): string[] {
  const { emails } = validateBody(testSendBodySchema, body);
  if (!Array.isArray(emails) || emails.length === 0) throw new AppError("no_emails_provided");
  const valid = validate(testSendEmailsSchema, { emails });
  return [...new Set(valid.emails)];
}

/**
 * The workflow actions under /campaigns/:id (SPEC "Workflow actions"), mounted
 * by campaignRoutes() so they share its authentication and body parser. Each
 * starts from the campaign (404 campaign_not_found for malformed, missing and
 * another account's ids).
 */
export function campaignActionRoutes(ctx: ApiContext): Router {
  const router = Router();

  router.post("/:id/enroll", idempotent(ctx), async (req, res) => {
    const body = validateBody(enrollSchema, req.body);
    const result = await enrollContactImport(ctx.db, authOf(res).accountId, param(req, "id"), {
      contactImportId: body.contact_import_id,
      batchNumber: body.batch_number,
      priority: body.priority,
    });
    res.json(serializeEnrollContactImportResult(result));
  });

  router.post("/:id/enroll_contact", idempotent(ctx), async (req, res) => {
    const body = validateBody(enrollContactSchema, req.body);
    const result = await enrollContact(ctx.db, authOf(res).accountId, param(req, "id"), {
      contactId: body.contact_id,
      batchNumber: body.batch_number,
      priority: body.priority,
    });
    res.status(result.enrolled ? 201 : 200).json(serializeEnrollContactResult(result));
  });

  router.post("/:id/dispatch", idempotent(ctx), async (req, res) => {
    const body = validateBody(dispatchSchema, req.body);
    const result = await dispatchCampaign(ctx.db, ctx.queues.campaignDispatch, authOf(res).accountId, param(req, "id"), body.batch_number ?? null);
    res.json(serializeDispatchResult(result));
  });

  router.post("/:id/pause", idempotent(ctx), async (req, res) => {
    res.json(serializeCampaignState(await pauseCampaign(ctx.db, authOf(res).accountId, param(req, "id"))));
  });

  router.post("/:id/resume", idempotent(ctx), async (req, res) => {
    const result = await resumeCampaign(ctx.db, ctx.queues.replanHeldSends, ctx.config.dispatchChunkSize, authOf(res).accountId, param(req, "id"), ctx.mx);
    res.json(serializeCampaignState(result));
  });

  router.post("/:id/smtp_credentials/:credential_id/reenable", idempotent(ctx), async (req, res) => {
    const credential = await reenableCredential(ctx.db, authOf(res).accountId, param(req, "id"), param(req, "credential_id"));
    res.json(serializeSmtpCredential(credential));
  });

  router.post("/:id/test_send", idempotent(ctx), async (req, res) => {
    const emails = testSendEmails(req.body);
    const result = await queueTestSend(ctx.db, ctx.redis, ctx.config, ctx.queues.testSend, authOf(res).accountId, param(req, "id"), emails);
    res.json(serializeTestSendResult(result));
  });

  router.get("/:id/send_forecast", async (req, res) => {
    const query = validateQuery(forecastQuery, req.query);
    res.json(serializeSendForecast(await forecastSends(ctx.db, authOf(res).accountId, param(req, "id"), query.days)));
  });

  router.get("/:id/skips", async (req, res) => {
    const query = validateQuery(skipsQuery, req.query);
    const skips = await listSkips(ctx.db, authOf(res).accountId, param(req, "id"), { kind: query.kind, limit: query.limit, startingAfter: query.starting_after });
    sendPage(req, res, skips, query.limit, serializeSkip);
  });

  router.get("/:id/enrollments/:enrollment_id", async (req, res) => {
    res.json(serializeEnrollment(await getEnrollment(ctx.db, authOf(res).accountId, param(req, "id"), param(req, "enrollment_id"))));
  });

  router.get("/:id/replies", async (req, res) => {
    const query = validateQuery(repliesQuery, req.query);
    const replies = await listReplies(ctx.db, authOf(res).accountId, param(req, "id"), { limit: query.limit, startingAfter: query.starting_after });
    sendPage(req, res, replies, query.limit, serializeReply, (reply) => reply.enrollmentId);
  });

  return router;
}
