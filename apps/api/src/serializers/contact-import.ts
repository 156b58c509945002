import type { ContactImport } from "@outreach/db";

/** An import without its invalid-row report, as lists show it. */
export function serializeContactImportSummary(contactImport: Omit<ContactImport, "invalidRows">) {
  return {
    id: contactImport.id,
    name: contactImport.name,
    total_rows: contactImport.totalRows,
    imported_count: contactImport.importedCount,
    duplicate_count: contactImport.duplicateCount,
    invalid_count: contactImport.invalidCount,
    created_at: contactImport.createdAt,
  };
}

/** The full import, with invalid_rows: [{index, email, reason}] (at most the first 1000 of invalid_count). */
export function serializeContactImport(contactImport: ContactImport) {
  const { created_at, ...summary } = serializeContactImportSummary(contactImport);
  return { ...summary, invalid_rows: contactImport.invalidRows ?? [], created_at };
}
