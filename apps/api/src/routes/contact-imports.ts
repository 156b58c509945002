import Joi from "joi";
import { Router } from "express";
import { AppError } from "@outreach/core";
import { authOf, param } from "../auth.js";
import type { ApiContext } from "../context.js";
import { idempotent } from "../middleware/idempotency.js";
import { pageQuery } from "../pagination.js";
import { text, unwrapBody } from "../request-body.js";
import { serializeContactImport, serializeContactImportSummary } from "../serializers/contact-import.js";
import { getContactImport } from "../services/get-contact-import.js";
import { importContacts } from "../services/import-contacts.js";
import { listContactImports } from "../services/list-contact-imports.js";
import { J, validateBody, validateQuery } from "../validation.js";

/** Rows per import. A 100,000-row import takes a few seconds; this bounds one transaction's size. */
export const MAX_IMPORT_ROWS = 250_000;

// Rows are validated one by one by the import (an invalid row is reported, not fatal).
const importSchema = J.object({
  name: text(200).allow(null, ""),
  contacts: J.any(),
});
const listSchema = Joi.object(pageQuery);

/** Mounted at /contact_imports behind authentication (its body limit is raised in app.ts). */
export function contactImportRoutes(ctx: ApiContext): Router {
  const router = Router();

  router.post("/", idempotent(ctx), async (req, res) => {
    const body = validateBody(importSchema, unwrapBody(req.body, "contact_import"));
    const rows: unknown = body.contacts;
    if (!Array.isArray(rows) || rows.length === 0) throw new AppError("no_contacts_provided");
    if (rows.length > MAX_IMPORT_ROWS) {
      const message = `contacts must contain less than or equal to ${MAX_IMPORT_ROWS} items`;
      throw new AppError("validation_failed", message, { errors: [{ field: "contacts", message }] });
    }
    const contactImport = await importContacts(ctx.db, authOf(res).accountId, { name: body.name || null, rows });
    res.status(201).json(serializeContactImport(contactImport));
  });

  router.get("/", async (req, res) => {
    const query = validateQuery(listSchema, req.query);
    const imports = await listContactImports(ctx.db, authOf(res).accountId, { limit: query.limit, startingAfter: query.starting_after });
    res.json(imports.map(serializeContactImportSummary));
  });

  router.get("/:id", async (req, res) => {
    res.json(serializeContactImport(await getContactImport(ctx.db, authOf(res).accountId, param(req, "id"))));
  });

  return router;
}
