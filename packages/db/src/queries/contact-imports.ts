import { columns, type RowOf } from "./columns.js";
import { executor, type Queryable } from "./executor.js";

/*
 * Statements on contact imports: an upload's staged rows merged into the
 * account's contacts and linked to the import (contact_import_items), and the
 * reads of an import's contacts when it is enrolled into a campaign.
 */

/** The limits of a contact's custom_fields that a merge keeps to. */
export interface CustomFieldsLimits {
  maxKeys: number;
  maxBytes: number;
}

/**
 * SQL: whether a custom_fields object is within the limits. PostgreSQL writes
 * jsonb with a space after each ":" and ",", hence the 2 bytes per key of slack
 * over the compact JSON the API measures.
 */
function fits(json: string, limits: CustomFieldsLimits): string {
  return `((SELECT count(*) FROM jsonb_object_keys(${json})) <= ${limits.maxKeys} AND octet_length((${json})::text) <= ${limits.maxBytes + 2 * limits.maxKeys})`;
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
function mergeChunkSql(limits: CustomFieldsLimits): string {
  return `
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
      CASE WHEN custom_merged IS NULL OR ${fits("custom_merged", limits)} THEN custom_merged ELSE custom_last END AS custom_fields
    FROM grouped
  ), upserted AS (
    INSERT INTO contacts ("accountId", email, "firstName", "lastName", company, timezone, "customFields", "updatedAt")
    SELECT $1::uuid, b.email, b.first_name, b.last_name, b.company, b.timezone, COALESCE(b.custom_fields, '{}'::jsonb), now() FROM batch b ORDER BY b.email
    ON CONFLICT ("accountId", email) DO UPDATE SET
      "firstName" = COALESCE(EXCLUDED."firstName", contacts."firstName"),
      "lastName" = COALESCE(EXCLUDED."lastName", contacts."lastName"),
      company = COALESCE(EXCLUDED.company, contacts.company),
      timezone = COALESCE(EXCLUDED.timezone, contacts.timezone),
      "customFields" = CASE WHEN ${fits(`contacts."customFields" || EXCLUDED."customFields"`, limits)} THEN contacts."customFields" || EXCLUDED."customFields" ELSE EXCLUDED."customFields" END,
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
}

/** last_email: the chunk's last address (what the next chunk starts after), NULL when the chunk was empty. */
export const mergedChunkColumns = columns({ last_email: "text?", merged: "int4", created: "int4" });
export type MergedChunkRow = RowOf<typeof mergedChunkColumns>;

/**
 * Merges the upload's next `chunkSize` distinct addresses after `after` (in
 * email order) into the account's contacts, linking them to the import, in one
 * statement: how many were merged and how many of them created.
 */
export async function mergeStagedContactRows(
  q: Queryable,
  chunk: { accountId: string; uploadId: string; after: string; importId: string; chunkSize: number; limits: CustomFieldsLimits },
): Promise<MergedChunkRow | undefined> {
  const [row] = await executor(q).rows<MergedChunkRow>(mergeChunkSql(chunk.limits), [chunk.accountId, chunk.uploadId, chunk.after, chunk.importId, chunk.chunkSize]);
  return row;
}

export const contactImportIdColumns = columns({ id: "uuid" });

/** One of the account's imports (`id` must be a uuid): its id, undefined when it is not there or not the account's. */
export async function findContactImportId(q: Queryable, accountId: string, id: string): Promise<string | undefined> {
  const [row] = await executor(q).rows<RowOf<typeof contactImportIdColumns>>(
    `
            SELECT id FROM contact_imports WHERE id = $1::uuid AND "accountId" = $2::uuid`,
    [id, accountId],
  );
  return row?.id;
}

/** The import's contacts (always the account's own, as the import is): i, c. */
const IMPORT_MEMBERS = `contact_import_items i JOIN contacts c ON c.id = i."contactId" AND c."accountId" = $1::uuid`;

export const importEnrollmentCountColumns = columns({ already: "int4", unsubscribed: "int4" });
export type ImportEnrollmentCounts = RowOf<typeof importEnrollmentCountColumns>;

/** Of the import's contacts: those enrolled in the campaign already, and those not and unsubscribed. */
export async function importEnrollmentCounts(q: Queryable, accountId: string, importId: string, campaignId: string): Promise<ImportEnrollmentCounts | undefined> {
  const [counts] = await executor(q).rows<ImportEnrollmentCounts>(
    `
        SELECT count(e.id)::int AS already,
               count(*) FILTER (WHERE e.id IS NULL AND c."unsubscribedAt" IS NOT NULL)::int AS unsubscribed
        FROM ${IMPORT_MEMBERS}
        LEFT JOIN enrollments e ON e."campaignId" = $2::uuid AND e."contactId" = c.id
        WHERE i."importId" = $3::uuid`,
    [accountId, campaignId, importId],
  );
  return counts;
}

export const importSiblingColumns = columns({ contactId: "uuid", siblingId: "uuid", siblingName: "text" });
export type ImportSiblingRow = RowOf<typeof importSiblingColumns>;

/**
 * The import's contacts, not unsubscribed and not in the campaign, that are
 * enrolled in another of the account's campaigns of the outreach: one row per
 * contact, naming the campaign it was enrolled in first.
 */
export async function importContactsInSiblingCampaigns(q: Queryable, scope: { accountId: string; importId: string; campaignId: string; outreachId: string }): Promise<ImportSiblingRow[]> {
  const { accountId, importId, campaignId, outreachId } = scope;
  return executor(q).rows<ImportSiblingRow>(
    `
          SELECT DISTINCT ON (c.id) c.id AS "contactId", s.id AS "siblingId", s.name AS "siblingName"
          FROM ${IMPORT_MEMBERS}
          JOIN enrollments se ON se."contactId" = c.id
          JOIN campaigns s ON s.id = se."campaignId" AND s."outreachId" = $2::uuid
            AND s.id <> $3::uuid AND s."accountId" = $4::uuid
          WHERE i."importId" = $5::uuid AND c."unsubscribedAt" IS NULL AND NOT EXISTS (SELECT 1 FROM enrollments e WHERE e."campaignId" = $6::uuid AND e."contactId" = c.id)
          ORDER BY c.id, se."createdAt", se.id`,
    [accountId, outreachId, campaignId, accountId, importId, campaignId],
  );
}

/**
 * Enrolls the import's contacts that are not unsubscribed (nor, with
 * `uniqueOutreachId`, enrolled in another of the account's campaigns of that
 * outreach) into the campaign, those enrolled already left as they are: how many were enrolled.
 */
export async function enrollImportContacts(
  q: Queryable,
  enroll: { accountId: string; importId: string; campaignId: string; batchNumber: number; priority: number; uniqueOutreachId: string | null },
): Promise<number> {
  const { accountId, importId, campaignId, batchNumber, priority, uniqueOutreachId } = enroll;
  const params: unknown[] = [accountId, campaignId, batchNumber, priority, accountId, importId];
  const notInSibling =
    uniqueOutreachId !== null
      ? `AND NOT EXISTS (
    SELECT 1 FROM enrollments se JOIN campaigns s ON s.id = se."campaignId"
    WHERE se."contactId" = c.id AND s."outreachId" = $${params.push(uniqueOutreachId)}::uuid
      AND s.id <> $${params.push(campaignId)}::uuid AND s."accountId" = $${params.push(accountId)}::uuid)`
      : "";
  return executor(q).execute(
    `
        INSERT INTO enrollments ("accountId", "campaignId", "contactId", "batchNumber", priority, "updatedAt")
        SELECT $1::uuid, $2::uuid, c.id, $3::int, $4::int, now()
        FROM contact_import_items i JOIN contacts c ON c.id = i."contactId" AND c."accountId" = $5::uuid WHERE i."importId" = $6::uuid AND c."unsubscribedAt" IS NULL ${notInSibling}
        ON CONFLICT ("campaignId", "contactId") DO NOTHING`,
    params,
  );
}
