import Joi from "joi";
import { Router } from "express";
import { authOf, param } from "../auth.js";
import type { ApiContext } from "../context.js";
import { contract } from "../contracts/contract.js";
import { idempotent } from "../middleware/idempotency.js";
import { pageQuery, sendPage } from "../pagination.js";
import { withoutNul } from "../request-body.js";
import { serializeAddressCheck } from "../serializers/address-check.js";
import { serializeContact } from "../serializers/contact.js";
import { getContact } from "../services/get-contact.js";
import { listContacts } from "../services/list-contacts.js";
import { verifyContacts } from "../services/verify-contacts.js";
import { J, validateBody, validateQuery } from "../validation.js";

/** Addresses per POST /contacts/verify. */
export const MAX_VERIFY_EMAILS = 1000;

export const verifyContactsSchema = contract(
  "VerifyContactsBody",
  J.object({
    // any text: an address the import would refuse is answered invalid, not refused here
    emails: J.array().items(J.string().allow("").max(320)).min(1).max(MAX_VERIFY_EMAILS).required(),
  }),
);

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

  router.post("/verify", idempotent(ctx), async (req, res) => {
    const body = validateBody(verifyContactsSchema, req.body);
    res.json((await verifyContacts(ctx.mx, body.emails)).map(serializeAddressCheck));
  });

  router.get("/:id", async (req, res) => {
    res.json(serializeContact(await getContact(ctx.db, authOf(res).accountId, param(req, "id"))));
  });

  return router;
}
