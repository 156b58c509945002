import { executor, type Queryable } from "./executor.js";

/*
 * Statements on contact_import_staged_rows (UNLOGGED: packages/db/sql/tables/contact_import_staged_rows.sql):
 * an import body's valid rows, written as they stream in under the upload's
 * id (a UUIDv7: upload ids sort by when they began), merged into contacts
 * once the whole body is known to be good (contact-imports.ts).
 */

/** A chunk of staged rows as parallel columns (custom_fields as JSON text). */
export interface StagedContactColumns {
  emails: string[];
  ords: number[];
  firstNames: Array<string | null>;
  lastNames: Array<string | null>;
  companies: Array<string | null>;
  timezones: Array<string | null>;
  customFields: Array<string | null>;
}

/** Writes a chunk of the upload's rows in one statement (unnest of the columns). */
export async function insertStagedContactRows(q: Queryable, uploadId: string, rows: StagedContactColumns): Promise<number> {
  return executor(q).execute(
    `
  INSERT INTO contact_import_staged_rows ("uploadId", email, ord, "firstName", "lastName", company, timezone, "customFields")
  SELECT $1::uuid, r.email, r.ord, r.first_name, r.last_name, r.company, r.timezone, r.custom_fields::jsonb
  FROM unnest($2::text[], $3::int[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[])
    AS r(email, ord, first_name, last_name, company, timezone, custom_fields)`,
    [uploadId, rows.emails, rows.ords, rows.firstNames, rows.lastNames, rows.companies, rows.timezones, rows.customFields],
  );
}

/** Deletes the staged rows of these uploads. */
export async function deleteStagedRowsOf(q: Queryable, uploadIds: string[]): Promise<number> {
  return executor(q).execute(`DELETE FROM contact_import_staged_rows WHERE "uploadId" = ANY($1::uuid[])`, [uploadIds]);
}

/** Deletes the staged rows of the uploads that began before the one with this id (a range of the primary key). */
export async function deleteStagedRowsBefore(q: Queryable, uploadId: string): Promise<number> {
  return executor(q).execute(`DELETE FROM contact_import_staged_rows WHERE "uploadId" < $1::uuid`, [uploadId]);
}
