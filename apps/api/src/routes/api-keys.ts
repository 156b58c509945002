import Joi from "joi";
import { Router } from "express";
import { AppError } from "@outreach/core";
import { authOf, param } from "../auth.js";
import type { ApiContext } from "../context.js";
import { contract } from "../contracts/contract.js";
import { idempotent } from "../middleware/idempotency.js";
import { pageQuery, sendPage } from "../pagination.js";
import { serializeApiKey } from "../serializers/api-key.js";
import { createApiKey } from "../services/create-api-key.js";
import { listApiKeys } from "../services/list-api-keys.js";
import { revokeApiKey } from "../services/revoke-api-key.js";
import { fields, isUuid, J, validateQuery, validateResource } from "../validation.js";

export const createApiKeySchema = contract(
  "CreateApiKeyBody",
  J.object({
    label: fields.name.required(),
    client_kind: J.string().valid("direct", "mcp", "sdk").default("direct"),
  }),
);
export const listApiKeysQuery = contract("ListApiKeysQuery", Joi.object(pageQuery));

/** Mounted at /api_keys behind authentication. */
export function apiKeyRoutes(ctx: ApiContext): Router {
  const router = Router();

  router.post("/", idempotent(ctx), async (req, res) => {
    const body = validateResource(createApiKeySchema, req.body, "api_key");
    const { key, plaintext } = await createApiKey(ctx.db, authOf(res).accountId, body.label, body.client_kind);
    res.status(201).json({ ...serializeApiKey(key), plaintext });
  });

  router.get("/", async (req, res) => {
    const query = validateQuery(listApiKeysQuery, req.query);
    const keys = await listApiKeys(ctx.db, authOf(res).accountId, { limit: query.limit, startingAfter: query.starting_after });
    sendPage(req, res, keys, query.limit, serializeApiKey);
  });

  router.delete("/:id", async (req, res) => {
    const id = param(req, "id");
    if (!isUuid(id)) throw new AppError("api_key_not_found");
    const key = await revokeApiKey(ctx.db, ctx.keyCache, authOf(res).accountId, id);
    res.json(serializeApiKey(key));
  });

  return router;
}
