import { AppError } from "@outreach/core";
import type { Db } from "@outreach/db";
import { isUuid } from "../validation.js";

/** One of the account's imports; anything else (malformed, missing, another account's) is contact_import_not_found. */
export async function getContactImport(db: Db, accountId: string, id: string) {
  const contactImport = isUuid(id) ? await db.contactImport.findFirst({ where: { id, accountId } }) : null;
  if (!contactImport) throw new AppError("contact_import_not_found");
  return contactImport;
}
