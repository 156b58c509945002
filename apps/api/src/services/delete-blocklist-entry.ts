import { AppError } from "@outreach/core";
import { deleteBlocklistEntryById, deleteBlocklistEntryByValue, type Db } from "@outreach/db";
import { isUuid } from "../validation.js";

/** A value as stored: trimmed, lower-cased, a domain's leading "@" dropped. */
export function normalizeBlockedValue(value: string): string {
  return value.trim().toLowerCase().replace(/^@/, "");
}

/**
 * Removes one entry of the account's blocklist, named by its id or by its
 * value (an address or a domain, in any case; a domain with or without a
 * leading "@"). Enrollments it stopped stay stopped. Returns the entry's id.
 */
export async function deleteBlocklistEntry(db: Db, accountId: string, idOrValue: string): Promise<string> {
  // PostgreSQL refuses NUL in text, and no stored value holds one: such a value names no entry
  if (idOrValue.includes("\u0000")) throw new AppError("blocklist_entry_not_found");
  const id = isUuid(idOrValue) ? await deleteBlocklistEntryById(db, accountId, idOrValue) : await deleteBlocklistEntryByValue(db, accountId, normalizeBlockedValue(idOrValue));
  if (id === undefined) throw new AppError("blocklist_entry_not_found");
  return id;
}
