import { MAX_REPORT_EVENTS } from "../../routes/relay-reports.js";
import { array, component, integer, nullable, object, oneOfValues, string } from "../json-schema.js";
import { defineOperations } from "../operation.js";

/** The report as CONTRACT.md defines it; fields the relay adds beyond these are tolerated. */
const relayReportBody = object(
  {
    events: array(
      object(
        {
          type: oneOfValues(["bounce", "complaint"]),
          email: string({ minLength: 1, maxLength: 320, description: "The recipient the report is about." }),
          message_id: nullable(string({ maxLength: 998, description: "The Message-ID of our email: matches the report to the step sent." })),
          reason: nullable(string({ description: "Kept as a diagnostic (cut to 1,000 characters)." })),
          occurred_at: nullable(
            string({ description: "When it happened: an ISO 8601 date or date-time. Without message_id, the report is matched to the most recent step sent to the address before it." }),
          ),
        },
        { optional: ["message_id", "reason", "occurred_at"], additional: true },
      ),
      { maxItems: MAX_REPORT_EVENTS },
    ),
  },
  { additional: true },
);

const relayReportSummarySchema = component(
  "RelayReportSummary",
  object({
    received: integer({ minimum: 0, description: "Events in the report." }),
    bounced: integer({ minimum: 0, description: "Bounces that marked a sent step (and its enrollment) bounced." }),
    unsubscribed: integer({ minimum: 0, description: "Complaints that unsubscribed a contact or any of its enrollments." }),
    ignored: integer({ minimum: 0, description: "Unknown recipients or message ids, and reports already applied (replays)." }),
  }),
);

/** routes/relay-reports.ts: the SMTP relay's bounce and complaint reports. */
export const relayReportOperations = defineOperations([
  {
    method: "post",
    path: "/webhooks/relay",
    operationId: "receiveRelayReport",
    tag: "Provider callbacks",
    summary: "Receive the SMTP relay's bounce and complaint reports",
    description:
      "Called by the SMTP relay provider, not by accounts: no API key. Signed with the header `X-Relay-Signature: t=<unix seconds>,v1=<hex>`, v1 the HMAC-SHA256 of `<t>.<raw body>` keyed with RELAY_WEBHOOK_SECRET (300 s tolerance); anything else, or no configured secret, is 401 `invalid_signature`. The body (1 MB at most) is read only after the signature holds. A bounce marks the matching enrollment bounced (`enrollment.bounced`); a complaint unsubscribes the contact (`enrollment.unsubscribed` per active enrollment). A report is matched by `message_id`, else to the most recent step sent to the address, and affects only the account that sent it. Unknown recipients are accepted and ignored; replays are harmless.",
    auth: false,
    body: { schema: relayReportBody },
    responses: { 200: { description: "What the report came to.", schema: relayReportSummarySchema } },
    // the body is a JSON Schema here, but the route validates it with joi: a report that does not fit is 422
    errors: ["invalid_signature", "validation_failed"],
  },
]);
