import type { ContactImport } from "@outreach/db";
import { array, component, dateTime, integer, nullable, object, string, uuid } from "../openapi/json-schema.js";
import { MAX_REPORTED_INVALID_ROWS } from "../services/parse-contact-rows.js";

/** An import without its invalid-row report, as lists show it. */
export function serializeContactImportSummary(contactImport: Omit<ContactImport, "invalidRows">) {
  return {
    id: contactImport.id,
    name: contactImport.name,
    total_rows: contactImport.totalRows,
    imported_count: contactImport.importedCount,
    duplicate_count: contactImport.duplicateCount,
    invalid_count: contactImport.invalidCount,
    disposable_count: contactImport.disposableCount,
    role_count: contactImport.roleCount,
    created_at: contactImport.createdAt,
  };
}

/** The full import, with invalid_rows: [{index, email, reason}] (at most the first 1000 of invalid_count). */
export function serializeContactImport(contactImport: ContactImport) {
  const { created_at, ...summary } = serializeContactImportSummary(contactImport);
  return { ...summary, invalid_rows: contactImport.invalidRows ?? [], created_at };
}

// ------------------------------------------------------------ response schemas --

const summaryFields = {
  id: uuid(),
  name: nullable(string()),
  total_rows: integer({ minimum: 0, description: "Rows in the request." }),
  imported_count: integer({ minimum: 0, description: "Distinct valid addresses, each linked to the import." }),
  duplicate_count: integer({ minimum: 0, description: "Valid rows that created no contact: a repeat inside the import or an existing contact." }),
  invalid_count: integer({ minimum: 0, description: "Rows refused by validation." }),
  disposable_count: integer({
    minimum: 0,
    description: "Valid rows whose domain is a disposable-mail domain: imported all the same (a campaign with skip_disposable skips them at dispatch).",
  }),
  role_count: integer({ minimum: 0, description: "Valid rows of role accounts (info@, sales@...): imported all the same (a campaign with skip_role_accounts skips them at dispatch)." }),
  created_at: dateTime(),
};

export const contactImportSummarySchema = component("ContactImportSummary", object(summaryFields));

export const contactImportSchema = component(
  "ContactImport",
  object({
    ...summaryFields,
    invalid_rows: array(
      object({
        index: integer({ minimum: 0, description: "The row's position in contacts, from 0." }),
        email: nullable(string({ description: "The row's email as sent (null when it was not a string)." })),
        reason: string(),
      }),
      { maxItems: MAX_REPORTED_INVALID_ROWS, description: `The first ${MAX_REPORTED_INVALID_ROWS} invalid rows with their reasons.` },
    ),
  }),
);
