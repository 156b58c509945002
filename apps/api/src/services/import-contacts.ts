import type { Db, Prisma } from "@outreach/db";
import { MAX_CUSTOM_FIELD_KEYS, MAX_CUSTOM_FIELDS_BYTES } from "../custom-fields.js";
import { CHUNK, type StagedContactRows } from "./stage-contact-rows.js";

/**
 * SQL: whether a custom_fields object is within the limits. PostgreSQL writes
 * jsonb with a space after each ":" and ",", hence the 2 bytes per key of slack
 * over the compact JSON the API measures.
 */
function fits(json: string): string {
  return `((SELECT count(*) FROM jsonb_object_keys(${json})) <= ${MAX_CUSTOM_FIELD_KEYS} AND octet_length((${json})::text) <= ${MAX_CUSTOM_FIELDS_BYTES + 2 * MAX_CUSTOM_FIELD_KEYS})`;
}

// One chunk of an upload's staged rows, in email order, merged into contacts and
// linked to the import. Rows with the same email merge: the last non-empty
// first_name, last_name, company and timezone of the request win. Provided (non-null)
// values replace stored ones; null keeps what is stored. unsubscribedAt is never
// touched, so an unsubscribed contact stays unsubscribed. updatedAt moves only when
// a value really changes. xmax = 0 marks a fresh insert.
//
// custom_fields merge key by key (jsonb ||): the request's rows in order, then the
// result over the stored object, so a key sent replaces the stored value of that key
// and keys not sent are kept. A merge that would exceed the limits (keys or size)
// keeps the newer object alone instead: the request's merged rows, or its last row's.
const MERGE_CHUNK = `
  WITH grouped AS (
    SELECT email,
      (array_agg("firstName" ORDER BY ord DESC) FILTER (WHERE "firstName" IS NOT NULL))[1] AS first_name,
      (array_agg("lastName" ORDER BY ord DESC) FILTER (WHERE "lastName" IS NOT NULL))[1] AS last_name,
      (array_agg(company ORDER BY ord DESC) FILTER (WHERE company IS NOT NULL))[1] AS company,
      (array_agg(timezone ORDER BY ord DESC) FILTER (WHERE timezone IS NOT NULL))[1] AS timezone,
      (SELECT jsonb_object_agg(f.key, f.value ORDER BY u.o)
        FROM unnest(array_agg("customFields" ORDER BY ord) FILTER (WHERE "customFields" IS NOT NULL)) WITH ORDINALITY AS u(j, o), jsonb_each(u.j) AS f) AS custom_merged,
      (array_agg("customFields" ORDER BY ord DESC) FILTER (WHERE "customFields" IS NOT NULL))[1] AS custom_last
    FROM contact_import_staged_rows
    WHERE "uploadId" = $2::uuid AND email > $3
    GROUP BY email
    ORDER BY email
    LIMIT $5
  ), batch AS (
    SELECT email, first_name, last_name, company, timezone,
      CASE WHEN custom_merged IS NULL OR ${fits("custom_merged")} THEN custom_merged ELSE custom_last END AS custom_fields
    FROM grouped
  ), upserted AS (
    INSERT INTO contacts ("accountId", email, "firstName", "lastName", company, timezone, "customFields", "updatedAt")
    SELECT $1::uuid, b.email, b.first_name, b.last_name, b.company, b.timezone, COALESCE(b.custom_fields, '{}'::jsonb), now() FROM batch b ORDER BY b.email
    ON CONFLICT ("accountId", email) DO UPDATE SET
      "firstName" = COALESCE(EXCLUDED."firstName", contacts."firstName"),
      "lastName" = COALESCE(EXCLUDED."lastName", contacts."lastName"),
      company = COALESCE(EXCLUDED.company, contacts.company),
      timezone = COALESCE(EXCLUDED.timezone, contacts.timezone),
      "customFields" = CASE WHEN ${fits(`contacts."customFields" || EXCLUDED."customFields"`)} THEN contacts."customFields" || EXCLUDED."customFields" ELSE EXCLUDED."customFields" END,
      "updatedAt" = CASE
        WHEN COALESCE(EXCLUDED."firstName", contacts."firstName") IS DISTINCT FROM contacts."firstName"
          OR COALESCE(EXCLUDED."lastName", contacts."lastName") IS DISTINCT FROM contacts."lastName"
          OR COALESCE(EXCLUDED.company, contacts.company) IS DISTINCT FROM contacts.company
          OR COALESCE(EXCLUDED.timezone, contacts.timezone) IS DISTINCT FROM contacts.timezone
          OR NOT contacts."customFields" @> EXCLUDED."customFields"
        THEN now() ELSE contacts."updatedAt" END
    RETURNING id, (xmax = 0) AS created
  ), linked AS (
    INSERT INTO contact_import_items ("importId", "contactId") SELECT $4::uuid, id FROM upserted
  )
  SELECT (SELECT max(email) FROM batch) AS last_email, count(*)::int AS merged, (count(*) FILTER (WHERE created))::int AS created
  FROM upserted`;

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
 *   email of an earlier row of the request or of an existing contact of the account.
 * So total_rows = invalid_count + duplicate_count + contacts created by this import.
 */
export async function importContacts(db: Db, accountId: string, input: ImportContactsInput) {
  const { validator, uploadId } = input.rows;
  return db.$transaction(
    async (tx) => {
      // Staged rows are read in email order through the primary key, a chunk at a time. Freshly
      // staged rows have no statistics, and the planner would otherwise sort the whole upload per chunk.
      await tx.$executeRawUnsafe("SET LOCAL enable_bitmapscan = off");
      const contactImport = await tx.contactImport.create({
        data: {
          accountId,
          name: input.name,
          totalRows: input.rows.length,
          invalidCount: validator.invalidCount,
          invalidRows: validator.invalidRows as unknown as Prisma.InputJsonValue,
        },
      });
      let imported = 0;
      let created = 0;
      for (let after = ""; ; ) {
        const [chunk] = await tx.$queryRawUnsafe<Array<{ last_email: string | null; merged: number; created: number }>>(MERGE_CHUNK, accountId, uploadId, after, contactImport.id, CHUNK);
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
