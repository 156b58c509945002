import Joi from "joi";
import { Router } from "express";
import { authOf, param } from "../auth.js";
import type { ApiContext } from "../context.js";
import { contract } from "../contracts/contract.js";
import { pageQuery, sendPage } from "../pagination.js";
import { withoutNul } from "../request-body.js";
import { serializeContact } from "../serializers/contact.js";
import { getContact } from "../services/get-contact.js";
import { listContacts } from "../services/list-contacts.js";
import { validateQuery } from "../validation.js";

export const listContactsQuery = contract(
  "ListContactsQuery",
  Joi.object({
    ...pageQuery,
    // Compared with the stored address, which is trimmed and lower-cased.
    email: withoutNul(Joi.string().lowercase().trim().max(320)),
  }),
);

/** Mounted at /contacts behind authentication. Contacts are created by contact imports. */
export function contactRoutes(ctx: ApiContext): Router {
  const router = Router();

  router.get("/", async (req, res) => {
    const query = validateQuery(listContactsQuery, req.query);
    const contacts = await listContacts(ctx.db, authOf(res).accountId, { limit: query.limit, startingAfter: query.starting_after, email: query.email });
    sendPage(req, res, contacts, query.limit, serializeContact);
  });

  router.get("/:id", async (req, res) => {
    res.json(serializeContact(await getContact(ctx.db, authOf(res).accountId, param(req, "id"))));
  });

  return router;
}
