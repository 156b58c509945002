import type { ApiKey } from "@outreach/db";
import { component, dateTime, nullable, object, oneOfValues, string, uuid } from "../openapi/json-schema.js";
import { CLIENT_KINDS } from "../services/report-api-usage.js";

export function serializeApiKey(key: ApiKey) {
  return {
    id: key.id,
    prefix: key.prefix,
    label: key.label,
    client_kind: key.clientKind,
    created_at: key.createdAt,
    last_used_at: key.lastUsedAt,
    revoked_at: key.revokedAt,
  };
}

// ------------------------------------------------------------ response schemas --

const apiKeyFields = {
  id: uuid(),
  prefix: string({ description: "The key's first characters (ak_live_Ab12), to tell keys apart; the key itself is never shown again." }),
  label: string(),
  client_kind: oneOfValues(CLIENT_KINDS, "The client the key is for: GET /usage counts requests by it; mcp keys are for AI agents."),
  created_at: dateTime(),
  last_used_at: nullable(dateTime("Visible to the next request on any replica.")),
  revoked_at: nullable(dateTime()),
};

export const apiKeySchema = component("ApiKey", object(apiKeyFields, { description: "An API key, without its secret." }));

export const createdApiKeySchema = component("CreatedApiKey", object({ ...apiKeyFields, plaintext: string({ description: "The whole key, shown only in this answer: only its hash is stored." }) }));
