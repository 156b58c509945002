import { AppError } from "@outreach/core";
import type { Db } from "@outreach/db";
import { isUuid } from "../validation.js";

/** One of the account's contacts; anything else (malformed, missing, another account's) is contact_not_found. */
export async function getContact(db: Db, accountId: string, id: string) {
  const contact = isUuid(id) ? await db.contact.findFirst({ where: { id, accountId } }) : null;
  if (!contact) throw new AppError("contact_not_found");
  return contact;
}
