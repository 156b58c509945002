import { constant, object, oneOfValues, record } from "../json-schema.js";
import { defineOperations } from "../operation.js";

/** routes/health.ts: probes for the orchestrator and load balancers. */
export const healthOperations = defineOperations([
  {
    method: "get",
    path: "/healthz",
    operationId: "getLiveness",
    tag: "Health",
    summary: "Is the process alive",
    description: "No API key; touches no dependency.",
    auth: false,
    envelopeErrors: false,
    responses: { 200: { description: "Alive.", schema: object({ status: constant("ok") }) } },
  },
  {
    method: "get",
    path: "/readyz",
    operationId: "getReadiness",
    tag: "Health",
    summary: "Are PostgreSQL and Redis reachable",
    description:
      "No API key. The checks run one at a time and their result is reused for a second, so a flood of probes costs at most one database and one Redis round trip per second. Each check is named with a fixed word, never its error text. A replica that is shutting down answers 503 with the check `shutdown`.",
    auth: false,
    // never the error envelope: a failed check is its 503 body below
    envelopeErrors: false,
    responses: {
      200: { description: "Ready.", schema: object({ status: constant("ok"), checks: record(constant("ok"), "postgres and redis.") }) },
      503: {
        description: "Not ready: a dependency is unavailable, or the replica is shutting down.",
        schema: object({
          status: constant("unavailable"),
          checks: record(oneOfValues(["ok", "unavailable", "shutting down"]), "postgres and redis (ok or unavailable), or shutdown while the replica stops."),
        }),
      },
    },
  },
]);
