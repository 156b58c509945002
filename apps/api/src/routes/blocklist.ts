import Joi from "joi";
import { Router } from "express";
import { AppError } from "@outreach/core";
import { authOf, param } from "../auth.js";
import type { ApiContext } from "../context.js";
import { contract } from "../contracts/contract.js";
import type { AddBlocklistBody } from "../contracts/generated.js";
import { idempotent } from "../middleware/idempotency.js";
import { pageQuery, sendPage } from "../pagination.js";
import { text } from "../request-body.js";
import { serializeBlocklistEntry } from "../serializers/blocklist-entry.js";
import { addBlocklistEntries } from "../services/add-blocklist-entries.js";
import { deleteBlocklistEntry, normalizeBlockedValue } from "../services/delete-blocklist-entry.js";
import { listBlocklistEntries } from "../services/list-blocklist-entries.js";
import { fieldPrefix, fields, J, validateQuery, validateResource } from "../validation.js";

/** Entries per POST /blocklist (emails and domains together). */
export const MAX_BLOCKLIST_ENTRIES = 10_000;

/** A host name, lower-cased; a leading "@" and a trailing "." are dropped. */
const domainField = J.string().trim().lowercase().replace(/^@/, "").replace(/\.$/, "").max(253).hostname();

export const addBlocklistSchema = contract(
  "AddBlocklistBody",
  J.object({
    emails: J.array().items(fields.email).max(MAX_BLOCKLIST_ENTRIES).default([]),
    domains: J.array().items(domainField).max(MAX_BLOCKLIST_ENTRIES).default([]),
    reason: text(500).allow(null, ""),
  }),
);

export const listBlocklistQuery = contract(
  "ListBlocklistQuery",
  Joi.object({
    ...pageQuery,
    kind: Joi.string().valid("email", "domain"),
    value: Joi.string().max(254),
  }),
);

/** The fields, wrapped as {blocklist: {...}} or at the top level; at least one and at most MAX_BLOCKLIST_ENTRIES entries. */
export function validateAddBody(body: unknown): AddBlocklistBody {
  const valid = validateResource(addBlocklistSchema, body, "blocklist");
  const count = valid.emails.length + valid.domains.length;
  if (count === 0 || count > MAX_BLOCKLIST_ENTRIES) {
    const field = `${fieldPrefix(body, "blocklist")}emails`;
    const message = count === 0 ? "emails or domains must contain at least one entry" : `emails and domains must contain at most ${MAX_BLOCKLIST_ENTRIES} entries together`;
    throw new AppError("validation_failed", message, { errors: [{ field, message }] });
  }
  return valid;
}

/** Mounted at /blocklist behind authentication: addresses and domains the account never sends to. */
export function blocklistRoutes(ctx: ApiContext): Router {
  const router = Router();

  router.post("/", idempotent(ctx), async (req, res) => {
    const body = validateAddBody(req.body);
    const result = await addBlocklistEntries(ctx.db, authOf(res).accountId, {
      emails: body.emails,
      domains: body.domains,
      reason: body.reason || null,
    });
    res.status(201).json({ added: result.added, already_blocked: result.alreadyBlocked });
  });

  router.get("/", async (req, res) => {
    const query = validateQuery(listBlocklistQuery, req.query);
    const entries = await listBlocklistEntries(ctx.db, authOf(res).accountId, {
      limit: query.limit,
      startingAfter: query.starting_after,
      kind: query.kind,
      value: query.value === undefined ? undefined : normalizeBlockedValue(query.value),
    });
    sendPage(req, res, entries, query.limit, serializeBlocklistEntry);
  });

  router.delete("/:id", async (req, res) => {
    const id = await deleteBlocklistEntry(ctx.db, authOf(res).accountId, param(req, "id"));
    res.json({ id, deleted: true });
  });

  return router;
}
