import { createApiKeySchema, listApiKeysQuery } from "../../routes/api-keys.js";
import { apiKeySchema, createdApiKeySchema } from "../../serializers/api-key.js";
import { array } from "../json-schema.js";
import { defineOperations } from "../operation.js";

/** routes/api-keys.ts: issue, list and revoke the account's keys. */
export const apiKeyOperations = defineOperations([
  {
    method: "post",
    path: "/api_keys",
    operationId: "createApiKey",
    tag: "API Keys",
    summary: "Issue an API key",
    description: "A further key of the account, within its `api_keys` quota (active keys). `plaintext` is shown only in this answer.",
    auth: true,
    idempotent: true,
    body: { schema: createApiKeySchema, wrapper: "api_key" },
    responses: { 201: { description: "The key, with its plaintext.", schema: createdApiKeySchema } },
    errors: ["quota_exceeded"],
  },
  {
    method: "get",
    path: "/api_keys",
    operationId: "listApiKeys",
    tag: "API Keys",
    summary: "List active API keys",
    auth: true,
    paged: true,
    query: listApiKeysQuery,
    responses: { 200: { description: "A page of the account's active keys, newest first, without plaintext.", schema: array(apiKeySchema) } },
  },
  {
    method: "delete",
    path: "/api_keys/:id",
    operationId: "revokeApiKey",
    tag: "API Keys",
    summary: "Revoke an API key",
    description: "The key stops working at once on every API replica. The account's last active key cannot be revoked: issue a new one first.",
    auth: true,
    params: { id: "The key's id." },
    responses: { 200: { description: "The revoked key.", schema: apiKeySchema } },
    errors: ["api_key_not_found", "cannot_revoke_last_key"],
  },
]);
