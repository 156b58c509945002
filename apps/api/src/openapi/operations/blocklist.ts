import { addBlocklistSchema, listBlocklistQuery, MAX_BLOCKLIST_ENTRIES } from "../../routes/blocklist.js";
import { blocklistEntrySchema } from "../../serializers/blocklist-entry.js";
import { array, constant, integer, object, uuid } from "../json-schema.js";
import { defineOperations } from "../operation.js";

/** routes/blocklist.ts: addresses and domains the account never sends to. */
export const blocklistOperations = defineOperations([
  {
    method: "post",
    path: "/blocklist",
    operationId: "addBlocklistEntries",
    tag: "Blocklist",
    summary: "Block addresses and domains",
    description: `Emails are trimmed and lower-cased; domains are host names, lower-cased, a leading \`@\` and a trailing \`.\` dropped. An address is blocked when the account has an entry equal to it or to its domain; a domain entry blocks that exact host only. 1 to ${MAX_BLOCKLIST_ENTRIES.toLocaleString("en")} entries, emails and domains together. An existing entry is kept as it is. Blocked addresses are skipped at dispatch and their scheduled steps cancelled at send.`,
    auth: true,
    idempotent: true,
    body: { schema: addBlocklistSchema, wrapper: "blocklist" },
    responses: {
      201: {
        description: "The distinct values sent: new now, or already on the list.",
        schema: object({ added: integer({ minimum: 0 }), already_blocked: integer({ minimum: 0 }) }),
      },
    },
  },
  {
    method: "get",
    path: "/blocklist",
    operationId: "listBlocklistEntries",
    tag: "Blocklist",
    summary: "List blocklist entries",
    description: "`value` finds one entry by its exact value (normalised as when added).",
    auth: true,
    paged: true,
    query: listBlocklistQuery,
    responses: { 200: { description: "A page of entries, newest first.", schema: array(blocklistEntrySchema) } },
  },
  {
    method: "delete",
    path: "/blocklist/:id",
    operationId: "deleteBlocklistEntry",
    tag: "Blocklist",
    summary: "Remove a blocklist entry",
    description: "Later dispatches and sends go through again; enrollments the entry already stopped stay stopped, and a contact that unsubscribed stays unsubscribed.",
    auth: true,
    params: { id: "The entry's id, or its value (`ann@example.com`, `example.com`, `@example.com`)." },
    responses: { 200: { description: "Deleted.", schema: object({ id: uuid(), deleted: constant(true) }) } },
    errors: ["blocklist_entry_not_found"],
  },
]);
