import { listEventsQuery } from "../../routes/events.js";
import { eventSchema } from "../../serializers/event.js";
import { array } from "../json-schema.js";
import { defineOperations } from "../operation.js";

/** routes/events.ts: the account's event log. */
export const eventOperations = defineOperations([
  {
    method: "get",
    path: "/events",
    operationId: "listEvents",
    tag: "Events",
    summary: "List the account's events",
    description:
      "The event log: every event the account's webhooks are sent, with the `type`, `created_at` and `data` of the webhook envelope (opt-in types such as enrollment.clicked included). `type` filters by one event type; `limit` defaults to 20.",
    auth: true,
    paged: true,
    query: listEventsQuery,
    responses: { 200: { description: "A page of events, newest first.", schema: array(eventSchema) } },
  },
]);
