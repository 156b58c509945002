import type { BlocklistEntry } from "@outreach/db";
import { component, dateTime, nullable, object, oneOfValues, string, uuid } from "../openapi/json-schema.js";

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

// ------------------------------------------------------------ response schemas --

export const blocklistEntrySchema = component(
  "BlocklistEntry",
  object({
    id: uuid(),
    kind: oneOfValues(["email", "domain"]),
    value: string({ description: 'A lower-cased address, or a host name without "@": it blocks that exact host, not its subdomains.' }),
    reason: nullable(string()),
    source: oneOfValues(["api", "unsubscribe", "complaint"], "api: added with POST /blocklist; unsubscribe: the contact unsubscribed; complaint: a relay spam complaint."),
    created_at: dateTime(),
  }),
);
