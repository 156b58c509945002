import Joi from "joi";
import { Router } from "express";
import { authOf, param } from "../auth.js";
import type { ApiContext } from "../context.js";
import { contract } from "../contracts/contract.js";
import { idempotent } from "../middleware/idempotency.js";
import { pageQuery, sendPage } from "../pagination.js";
import { nameField, unwrapBody } from "../request-body.js";
import { serializeOutreach } from "../serializers/outreach.js";
import { createOutreach } from "../services/create-outreach.js";
import { deleteOutreach } from "../services/delete-outreach.js";
import { getOutreach } from "../services/get-outreach.js";
import { listOutreaches } from "../services/list-outreaches.js";
import { updateOutreach } from "../services/update-outreach.js";
import { J, validateBody, validateQuery } from "../validation.js";

export const createOutreachSchema = contract(
  "CreateOutreachBody",
  J.object({
    name: nameField.required(),
    unique_contacts: J.boolean().default(false),
  }),
);
export const updateOutreachSchema = contract(
  "UpdateOutreachBody",
  J.object({
    name: nameField,
    unique_contacts: J.boolean(),
  }).min(1),
);
export const listOutreachesQuery = contract("ListOutreachesQuery", Joi.object(pageQuery));

/** Mounted at /outreaches behind authentication. */
export function outreachRoutes(ctx: ApiContext): Router {
  const router = Router();

  router.post("/", idempotent(ctx), async (req, res) => {
    const body = validateBody(createOutreachSchema, unwrapBody(req.body, "outreach"));
    const outreach = await createOutreach(ctx.db, authOf(res).accountId, { name: body.name, uniqueContacts: body.unique_contacts });
    res.status(201).json(serializeOutreach(outreach));
  });

  router.get("/", async (req, res) => {
    const query = validateQuery(listOutreachesQuery, req.query);
    const outreaches = await listOutreaches(ctx.db, authOf(res).accountId, { limit: query.limit, startingAfter: query.starting_after });
    sendPage(req, res, outreaches, query.limit, serializeOutreach);
  });

  router.get("/:id", async (req, res) => {
    res.json(serializeOutreach(await getOutreach(ctx.db, authOf(res).accountId, param(req, "id"))));
  });

  router.patch("/:id", async (req, res) => {
    const body = validateBody(updateOutreachSchema, unwrapBody(req.body, "outreach"));
    const outreach = await updateOutreach(ctx.db, authOf(res).accountId, param(req, "id"), { name: body.name, uniqueContacts: body.unique_contacts });
    res.json(serializeOutreach(outreach));
  });

  router.delete("/:id", async (req, res) => {
    res.json(serializeOutreach(await deleteOutreach(ctx.db, authOf(res).accountId, param(req, "id"))));
  });

  return router;
}
