import { usageQuery } from "../../routes/usage.js";
import { CLIENT_KINDS } from "../../services/report-api-usage.js";
import { array, component, dateTime, integer, nullable, number, object, oneOfValues, string } from "../json-schema.js";
import { defineOperations } from "../operation.js";

const clientKind = oneOfValues(CLIENT_KINDS);

const apiUsageSchema = component(
  "ApiUsage",
  object({
    from: dateTime(),
    to: dateTime(),
    total_requests: integer({ minimum: 0 }),
    by_client_kind: array(
      object({
        client_kind: clientKind,
        requests: integer({ minimum: 0 }),
        errors: integer({ minimum: 0, description: "Answers with a status of 400 or more." }),
        avg_duration_ms: nullable(number({ minimum: 0, description: "null when the kind made no request." })),
      }),
      { description: `Every client kind (${CLIENT_KINDS.join(", ")}), always and in that order, with zeros when it made no request.` },
    ),
    by_day: array(object({ date: string({ format: "date", description: "The UTC day." }), client_kind: clientKind, requests: integer({ minimum: 0 }) })),
  }),
);

/** routes/usage.ts: the account's API traffic. */
export const usageOperations = defineOperations([
  {
    method: "get",
    path: "/usage",
    operationId: "getApiUsage",
    tag: "Usage",
    summary: "Get the account's API traffic",
    description: "Requests over the last `days` days (30 by default), per client kind (the `client_kind` of the key that made them) and per UTC day.",
    auth: true,
    query: usageQuery,
    responses: { 200: { description: "Requests, errors and average durations.", schema: apiUsageSchema } },
  },
]);
