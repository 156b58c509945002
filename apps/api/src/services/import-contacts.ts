import { disableBitmapScans, mergeStagedContactRows, type Db, type Prisma } from "@outreach/db";
import { MAX_CUSTOM_FIELD_KEYS, MAX_CUSTOM_FIELDS_BYTES } from "../custom-fields.js";
import { CHUNK, type StagedContactRows } from "./stage-contact-rows.js";

/** What a merge keeps a contact's custom_fields within. */
const CUSTOM_FIELDS_LIMITS = { maxKeys: MAX_CUSTOM_FIELD_KEYS, maxBytes: MAX_CUSTOM_FIELDS_BYTES };

/** A merge of 250,000 rows takes seconds; the transaction never waits on the client (the body is read and staged before it opens). */
const MERGE_TIMEOUT_MS = 120_000;

export interface ImportContactsInput {
  name: string | null;
  /** The request's rows, validated and staged (the whole body has been read). */
  rows: StagedContactRows;
}

/**
 * Records an import from its staged rows in one transaction: contacts are merged
 * chunk by chunk in email order (every import locks contact rows in that order, so
 * two imports sharing addresses cannot deadlock), so nothing is written unless all is.
 *
 * Counts, for the response and the contact_imports row:
 * - total_rows: rows in the request;
 * - invalid_count: rows rejected by validation (the first 1000 are reported with their reason);
 * - imported_count: distinct contacts linked to the import (one per distinct valid email);
 * - duplicate_count: valid rows that did not create a contact, because they repeat an
 *   email of an earlier row of the request or of an existing contact of the account;
 * - disposable_count, role_count: valid rows at a disposable-mail domain, and of role
 *   accounts (info@...): imported all the same, flagged for the user.
 * So total_rows = invalid_count + duplicate_count + contacts created by this import.
 */
export async function importContacts(db: Db, accountId: string, input: ImportContactsInput) {
  const { validator, uploadId } = input.rows;
  return db.$transaction(
    async (tx) => {
      // Staged rows are read in email order through the primary key, a chunk at a time. Freshly
      // staged rows have no statistics, and the planner would otherwise sort the whole upload per chunk.
      await disableBitmapScans(tx);
      const contactImport = await tx.contactImport.create({
        data: {
          accountId,
          name: input.name,
          totalRows: input.rows.length,
          invalidCount: validator.invalidCount,
          disposableCount: validator.disposableRows,
          roleCount: validator.roleRows,
          invalidRows: validator.invalidRows as unknown as Prisma.InputJsonValue,
        },
      });
      let imported = 0;
      let created = 0;
      for (let after = ""; ;) {
        const chunk = await mergeStagedContactRows(tx, { accountId, uploadId, after, importId: contactImport.id, chunkSize: CHUNK, limits: CUSTOM_FIELDS_LIMITS });
        if (!chunk || chunk.merged === 0) break;
        imported += chunk.merged;
        created += chunk.created;
        after = chunk.last_email!;
      }
      return tx.contactImport.update({
        where: { id: contactImport.id },
        data: { importedCount: imported, duplicateCount: validator.validRows - created },
      });
    },
    { maxWait: 10_000, timeout: MERGE_TIMEOUT_MS },
  );
}
