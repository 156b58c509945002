import Joi from "joi";
import { Router, type Request, type Response } from "express";
import { AppError } from "@outreach/core";
import { authOf, param } from "../auth.js";
import type { ApiContext } from "../context.js";
import { contract } from "../contracts/contract.js";
import { ImportBodyParser } from "../import-body-parser.js";
import { idempotent, markIdempotent, requestHashPrefix } from "../middleware/idempotency.js";
import { requireJson } from "../middleware/json-body.js";
import { pageQuery, sendPage } from "../pagination.js";
import { readStreamedBody } from "../read-streamed-body.js";
import { text, unwrapBody } from "../request-body.js";
import { serializeContactImport, serializeContactImportSummary } from "../serializers/contact-import.js";
import { getContactImport } from "../services/get-contact-import.js";
import { importContacts } from "../services/import-contacts.js";
import { listContactImports } from "../services/list-contact-imports.js";
import { discardStagedRows, purgeAbandonedStagedRows, StagedContactRows } from "../services/stage-contact-rows.js";
import { J, validateBody, validateQuery } from "../validation.js";

/** Rows per import; bounds the merge transaction (250,000 rows merge in about 10 s). */
export const MAX_IMPORT_ROWS = 250_000;

// Rows are validated one by one by the import (an invalid row is reported, not fatal).
export const createContactImportSchema = contract(
  "CreateContactImportBody",
  J.object({
    name: text(200).allow(null, ""),
    // typed unknown: the import body parser puts the staged rows here
    contacts: J.any().meta({ baseType: "unknown" }),
  }),
);
export const listContactImportsQuery = contract("ListContactImportsQuery", Joi.object(pageQuery));

/** The largest import body (the body is streamed, never held whole). */
export const MAX_IMPORT_BODY = { bytes: 64 * 1024 * 1024, label: "64mb" };

/** Runs the Idempotency-Key middleware once the body is read: true when the handler is to go on, false when it answered (a replay). */
function runIdempotencyMiddleware(ctx: ApiContext, req: Request, res: Response): Promise<boolean> {
  return new Promise((resolve, reject) => {
    Promise.resolve(idempotent(ctx)(req, res, (err?: unknown) => (err ? reject(err) : resolve(true)))).then(() => resolve(false), reject);
  });
}

/**
 * Mounted at /contact_imports behind authentication, without a body parser: POST
 * streams its body through ImportBodyParser, validating and staging rows chunk by
 * chunk (memory stays bounded whatever the import's size), then merges the staged
 * rows in one transaction. A body refused for any reason writes no contact.
 */
export function contactImportRoutes(ctx: ApiContext): Router {
  const router = Router();

  router.post(
    "/",
    requireJson,
    markIdempotent(async (req, res) => {
      const uploads: StagedContactRows[] = [];
      try {
        await purgeAbandonedStagedRows(ctx.db);
        const parser = new ImportBodyParser(() => {
          const rows = new StagedContactRows(MAX_IMPORT_ROWS);
          uploads.push(rows);
          return rows;
        }, requestHashPrefix(req));
        const hasBody = await readStreamedBody(req, MAX_IMPORT_BODY, async (text) => {
          parser.write(text);
          for (const rows of uploads) await rows.flush(ctx.db);
        });
        let envelope: unknown;
        if (hasBody) {
          const parsed = parser.end();
          envelope = parsed.value;
          res.locals.requestHash = parsed.digest;
        }
        // claimed before validation, so a 4xx validation answer is stored and replayed too
        if (!(await runIdempotencyMiddleware(ctx, req, res))) return;

        const body = validateBody(createContactImportSchema, unwrapBody(envelope, "contact_import"));
        const rows: unknown = body.contacts;
        if (!(rows instanceof StagedContactRows) || rows.length === 0) throw new AppError("no_contacts_provided");
        if (rows.length > MAX_IMPORT_ROWS) {
          const message = `contacts must contain less than or equal to ${MAX_IMPORT_ROWS} items`;
          throw new AppError("validation_failed", message, { errors: [{ field: "contacts", message }] });
        }
        await rows.flush(ctx.db, true);
        const contactImport = await importContacts(ctx.db, authOf(res).accountId, { name: body.name || null, rows });
        res.status(201).json(serializeContactImport(contactImport));
      } finally {
        // if this fails, purgeAbandonedStagedRows removes them within the hour
        await discardStagedRows(ctx.db, uploads).catch((err) => ctx.logger.warn("could not discard staged import rows", { error: (err as Error).message }));
      }
    }),
  );

  router.get("/", async (req, res) => {
    const query = validateQuery(listContactImportsQuery, req.query);
    const imports = await listContactImports(ctx.db, authOf(res).accountId, { limit: query.limit, startingAfter: query.starting_after });
    sendPage(req, res, imports, query.limit, serializeContactImportSummary);
  });

  router.get("/:id", async (req, res) => {
    res.json(serializeContactImport(await getContactImport(ctx.db, authOf(res).accountId, param(req, "id"))));
  });

  return router;
}
