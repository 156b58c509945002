import { Router } from "express";
import { AppError } from "@outreach/core";
import { authOf, param } from "../auth.js";
import type { ApiContext } from "../context.js";
import { idempotent } from "../middleware/idempotency.js";
import { serializeApiKey } from "../serializers/api-key.js";
import { createApiKey } from "../services/create-api-key.js";
import { revokeApiKey } from "../services/revoke-api-key.js";
import { fields, isUuid, J, validateResource } from "../validation.js";

const createSchema = J.object({
  label: fields.name.required(),
  client_kind: J.string().valid("direct", "mcp", "sdk").default("direct"),
});

/** Mounted at /api_keys behind authentication. */
export function apiKeyRoutes(ctx: ApiContext): Router {
  const router = Router();

  router.post("/", idempotent(ctx), async (req, res) => {
    const body = validateResource(createSchema, req.body, "api_key");
    const { key, plaintext } = await createApiKey(ctx.db, authOf(res).accountId, body.label, body.client_kind);
    res.status(201).json({ ...serializeApiKey(key), plaintext });
  });

  router.get("/", async (_req, res) => {
    const keys = await ctx.db.apiKey.findMany({ where: { accountId: authOf(res).accountId, revokedAt: null }, orderBy: { createdAt: "asc" } });
    res.json(keys.map(serializeApiKey));
  });

  router.delete("/:id", async (req, res) => {
    const id = param(req, "id");
    if (!isUuid(id)) throw new AppError("api_key_not_found");
    const key = await revokeApiKey(ctx.db, ctx.keyCache, authOf(res).accountId, id);
    res.json(serializeApiKey(key));
  });

  return router;
}
