import type { BlocklistEntry } from "@outreach/db";

/** An element of GET /blocklist. */
export function serializeBlocklistEntry(entry: BlocklistEntry) {
  return {
    id: entry.id,
    kind: entry.kind,
    value: entry.value,
    reason: entry.reason,
    source: entry.source,
    created_at: entry.createdAt,
  };
}
