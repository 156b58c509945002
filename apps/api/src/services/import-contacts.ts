import type { Db, Prisma } from "@outreach/db";
import { parseContactRows } from "./parse-contact-rows.js";

/** Rows per bulk statement: large enough to amortise round trips, small enough to keep statements cheap to plan and buffer. */
const CHUNK = 5000;

// Inserts new contacts and merges into existing ones of the account. Provided
// (non-null) names and company replace stored ones; null keeps what is stored.
// unsubscribedAt is never touched, so an unsubscribed contact stays unsubscribed.
// updatedAt moves only when a value really changes. xmax = 0 marks a fresh insert.
const UPSERT_CONTACTS = `
  INSERT INTO contacts ("accountId", email, "firstName", "lastName", company, "updatedAt")
  SELECT $1::uuid, r.email, r.first_name, r.last_name, r.company, now()
  FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]) AS r(email, first_name, last_name, company)
  ON CONFLICT ("accountId", email) DO UPDATE SET
    "firstName" = COALESCE(EXCLUDED."firstName", contacts."firstName"),
    "lastName" = COALESCE(EXCLUDED."lastName", contacts."lastName"),
    company = COALESCE(EXCLUDED.company, contacts.company),
    "updatedAt" = CASE
      WHEN COALESCE(EXCLUDED."firstName", contacts."firstName") IS DISTINCT FROM contacts."firstName"
        OR COALESCE(EXCLUDED."lastName", contacts."lastName") IS DISTINCT FROM contacts."lastName"
        OR COALESCE(EXCLUDED.company, contacts.company) IS DISTINCT FROM contacts.company
      THEN now() ELSE contacts."updatedAt" END
  RETURNING id, (xmax = 0) AS created`;

const LINK_CONTACTS = `
  INSERT INTO contact_import_items ("importId", "contactId")
  SELECT $1::uuid, unnest($2::uuid[])`;

export interface ImportContactsInput {
  name: string | null;
  rows: readonly unknown[];
}

/**
 * Imports contacts in one transaction with bulk statements (never a query per row).
 *
 * Counts, for the response and the contact_imports row:
 * - total_rows: rows in the request;
 * - invalid_count: rows rejected by validation (the first 1000 are reported with their reason);
 * - imported_count: distinct contacts linked to the import (one per distinct valid email);
 * - duplicate_count: valid rows that did not create a contact, because they repeat an
 *   email of an earlier row of the request or of an existing contact of the account.
 * So total_rows = invalid_count + duplicate_count + contacts created by this import.
 */
export async function importContacts(db: Db, accountId: string, input: ImportContactsInput) {
  const parsed = parseContactRows(input.rows);
  // Every import locks contact rows in email order, so two imports sharing addresses cannot deadlock.
  const contacts = parsed.contacts.sort((a, b) => (a.email < b.email ? -1 : a.email > b.email ? 1 : 0));

  return db.$transaction(
    async (tx) => {
      const contactIds: string[] = [];
      let created = 0;
      for (let start = 0; start < contacts.length; start += CHUNK) {
        const chunk = contacts.slice(start, start + CHUNK);
        const rows = await tx.$queryRawUnsafe<Array<{ id: string; created: boolean }>>(
          UPSERT_CONTACTS,
          accountId,
          chunk.map((c) => c.email),
          chunk.map((c) => c.firstName),
          chunk.map((c) => c.lastName),
          chunk.map((c) => c.company),
        );
        for (const row of rows) {
          contactIds.push(row.id);
          if (row.created) created++;
        }
      }

      const contactImport = await tx.contactImport.create({
        data: {
          accountId,
          name: input.name,
          totalRows: input.rows.length,
          importedCount: contactIds.length,
          duplicateCount: parsed.validRows - created,
          invalidCount: parsed.invalidCount,
          invalidRows: parsed.invalidRows as unknown as Prisma.InputJsonValue,
        },
      });
      for (let start = 0; start < contactIds.length; start += CHUNK) {
        await tx.$executeRawUnsafe(LINK_CONTACTS, contactImport.id, contactIds.slice(start, start + CHUNK));
      }
      return contactImport;
    },
    { maxWait: 10_000, timeout: 120_000 },
  );
}
