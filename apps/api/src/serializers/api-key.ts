import type { ApiKey } from "@outreach/db";

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
