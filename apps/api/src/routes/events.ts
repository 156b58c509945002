import Joi from "joi";
import { Router } from "express";
import { ALL_EVENT_TYPES } from "@outreach/core";
import { authOf } from "../auth.js";
import type { ApiContext } from "../context.js";
import { contract } from "../contracts/contract.js";
import { pageParams, sendPage } from "../pagination.js";
import { serializeEvent } from "../serializers/event.js";
import { listEvents } from "../services/list-events.js";
import { validateQuery } from "../validation.js";

export const listEventsQuery = contract(
  "ListEventsQuery",
  Joi.object({
    type: Joi.any().valid(...ALL_EVENT_TYPES),
    ...pageParams(20),
  }),
);

/** Mounted at /events behind authentication: the account's event log, the events its webhooks are sent. */
export function eventRoutes(ctx: ApiContext): Router {
  const router = Router();

  router.get("/", async (req, res) => {
    const query = validateQuery(listEventsQuery, req.query);
    const events = await listEvents(ctx.db, authOf(res).accountId, { type: query.type, limit: query.limit, startingAfter: query.starting_after });
    sendPage(req, res, events, query.limit, serializeEvent);
  });

  return router;
}
