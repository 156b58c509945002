import type { Db } from "@outreach/db";
import { importContacts } from "./import-contacts.js";
import { CHUNK, discardStagedRows, StagedContactRows } from "./stage-contact-rows.js";

/**
 * An import whose rows arrived whole (an MCP tool's arguments), not streamed:
 * staged, validated and merged as POST /contact_imports does it.
 */
export async function importContactList(db: Db, accountId: string, input: { name: string | null; contacts: unknown[]; maxRows: number }) {
  const rows = new StagedContactRows(input.maxRows);
  try {
    for (const [index, raw] of input.contacts.entries()) {
      rows.add(raw);
      if ((index + 1) % CHUNK === 0) await rows.flush(db);
    }
    await rows.flush(db, true);
    return await importContacts(db, accountId, { name: input.name, rows });
  } finally {
    await discardStagedRows(db, [rows]);
  }
}
