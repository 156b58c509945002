import { Router } from "express";
import { AppError, verifySignature } from "@outreach/core";
import type { ApiContext } from "../context.js";
import { contract } from "../contracts/contract.js";
import type { RelayReportBody } from "../contracts/generated.js";
import { rawBody } from "../middleware/raw-body.js";
import { withoutNul } from "../request-body.js";
import { recordRelayReport, type RelayReportEvent } from "../services/record-relay-report.js";
import { J, validateBody } from "../validation.js";

export const MAX_REPORT_EVENTS = 1000;

/** Reasons are kept as diagnostics only: a long or odd one is cut, never a reason to refuse the report. */
const REASON_MAX = 1000;

// Fields the relay adds beyond the contract are tolerated, so a richer report is not refused.
const eventSchema = J.object({
  type: J.string().valid("bounce", "complaint").required(),
  email: withoutNul(J.string().trim().lowercase().min(1).max(320)).required(),
  message_id: withoutNul(J.string().trim().max(998)).allow(null, ""),
  reason: J.string().allow(null, ""),
  occurred_at: J.string().isoDate().allow(null),
}).unknown(true);

const reportSchema = contract(
  "RelayReportBody",
  J.object({
    events: J.array().items(eventSchema).max(MAX_REPORT_EVENTS).required(),
  }).unknown(true),
);

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body));
  } catch {
    throw new AppError("bad_request", "The request body is not valid UTF-8 JSON.");
  }
}

function toEvents(report: RelayReportBody): RelayReportEvent[] {
  return report.events.map((e) => {
    const reason = (e.reason ?? "")
      .replace(/\u0000/g, "")
      .trim()
      .slice(0, REASON_MAX);
    return {
      type: e.type,
      email: e.email,
      messageId: e.message_id || null,
      reason: reason || null,
      occurredAt: e.occurred_at ? new Date(e.occurred_at) : null,
    };
  });
}

/**
 * POST /webhooks/relay: bounce and spam-complaint reports from the SMTP relay
 * provider. No API key; X-Relay-Signature "t=<unix>,v1=<hex>" over
 * "<t>.<raw body>" with RELAY_WEBHOOK_SECRET. Without a configured secret every
 * report is refused. The body is read only after the signature holds.
 */
export function relayReportRoutes(ctx: ApiContext): Router {
  const router = Router();

  router.post("/webhooks/relay", rawBody("1mb"), async (req, res) => {
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const secret = ctx.config.relayWebhookSecret;
    if (!secret || !verifySignature(secret, body, req.get("x-relay-signature"))) {
      if (!secret) ctx.logger.warn("relay report refused: RELAY_WEBHOOK_SECRET is not configured");
      throw new AppError("invalid_signature");
    }
    const report = validateBody(reportSchema, parseJson(body));
    const summary = await recordRelayReport(ctx.db, toEvents(report));
    if (summary.bounced || summary.unsubscribed) ctx.logger.info("relay report applied", { ...summary });
    res.status(200).json(summary);
  });

  return router;
}
