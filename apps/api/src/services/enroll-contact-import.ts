import { AppError } from "@outreach/core";
import { Prisma, type Db } from "@outreach/db";
import { isUuid } from "../validation.js";
import { duplicateReasonSql, enrolledInSibling, lockEnrollmentScope } from "./enrollment-scope.js";
import { lockCampaign } from "./lock-campaign.js";

/** Skip rows per bulk statement. */
const CHUNK = 10_000;

export interface EnrollContactImportInput {
  contactImportId: string;
  batchNumber: number;
  priority: number;
}

export interface EnrollContactImportResult {
  campaignId: string;
  contactImportId: string;
  batchNumber: number;
  /** enrollments created by this request */
  enrolled: number;
  /** contacts of the import that were in the campaign before */
  alreadyEnrolled: number;
  skipped: {
    /** contacts enrolled in a sibling campaign of a unique_contacts outreach (a skip row exists for each) */
    crossCampaignDuplicate: number;
    /** contacts that unsubscribed: never enrolled */
    unsubscribed: number;
  };
}

/**
 * Enrolls every contact linked to one of the account's imports, in one
 * transaction of a few set-based statements (never a query per contact).
 * Every contact of the import lands in exactly one bucket, checked in this
 * order: already enrolled here, unsubscribed, enrolled in a sibling campaign
 * of a unique_contacts outreach (persisted as a cross_campaign_duplicate skip,
 * once per contact and campaign), enrolled now.
 *
 * The campaign row lock serializes enrollments into one campaign (so the
 * counts are exact), and the outreach's advisory lock serializes enrollments
 * into sibling campaigns (so a contact cannot be enrolled in two of them).
 */
export async function enrollContactImport(db: Db, accountId: string, campaignId: string, input: EnrollContactImportInput): Promise<EnrollContactImportResult> {
  return db.$transaction(
    async (tx) => {
      const campaign = await lockCampaign(tx, accountId, campaignId, "no_key_update");
      const [contactImport] = isUuid(input.contactImportId)
        ? await tx.$queryRaw<Array<{ id: string }>>`
            SELECT id FROM contact_imports WHERE id = ${input.contactImportId}::uuid AND "accountId" = ${accountId}::uuid`
        : [];
      if (!contactImport) throw new AppError("contact_import_not_found");
      const scope = await lockEnrollmentScope(tx, campaign);

      // The import's contacts (always the account's own, as the import is).
      const members = Prisma.sql`contact_import_items i JOIN contacts c ON c.id = i."contactId" AND c."accountId" = ${accountId}::uuid`;
      const ofImport = Prisma.sql`i."importId" = ${contactImport.id}::uuid`;
      const notHere = Prisma.sql`NOT EXISTS (SELECT 1 FROM enrollments e WHERE e."campaignId" = ${campaign.id}::uuid AND e."contactId" = c.id)`;

      const [counts] = await tx.$queryRaw<Array<{ already: number; unsubscribed: number }>>`
        SELECT count(e.id)::int AS already,
               count(*) FILTER (WHERE e.id IS NULL AND c."unsubscribedAt" IS NOT NULL)::int AS unsubscribed
        FROM ${members}
        LEFT JOIN enrollments e ON e."campaignId" = ${campaign.id}::uuid AND e."contactId" = c.id
        WHERE ${ofImport}`;

      let duplicates = 0;
      if (scope.uniqueOutreachId !== null) {
        // One row per duplicate contact, naming the sibling campaign it was enrolled in first.
        const siblings = await tx.$queryRaw<Array<{ contactId: string; siblingId: string; siblingName: string }>>`
          SELECT DISTINCT ON (c.id) c.id AS "contactId", s.id AS "siblingId", s.name AS "siblingName"
          FROM ${members}
          JOIN enrollments se ON se."contactId" = c.id
          JOIN campaigns s ON s.id = se."campaignId" AND s."outreachId" = ${scope.uniqueOutreachId}::uuid
            AND s.id <> ${campaign.id}::uuid AND s."accountId" = ${accountId}::uuid
          WHERE ${ofImport} AND c."unsubscribedAt" IS NULL AND ${notHere}
          ORDER BY c.id, se."createdAt", se.id`;
        duplicates = siblings.length;
        // Skips are recorded once per contact and campaign. The ones already there are read
        // first and left out here, rather than probed row by row from the INSERT: such a probe
        // would walk the index entries this same INSERT keeps adding (quadratic on 100k rows).
        const recorded = await tx.$queryRaw<Array<{ contactId: string }>>`
          SELECT "contactId" FROM enrollment_skips WHERE "campaignId" = ${campaign.id}::uuid AND kind = 'cross_campaign_duplicate'`;
        const known = new Set(recorded.map((row) => row.contactId));
        const fresh = siblings.filter((row) => !known.has(row.contactId));
        for (let start = 0; start < fresh.length; start += CHUNK) {
          const chunk = fresh.slice(start, start + CHUNK);
          await tx.$executeRaw`
            INSERT INTO enrollment_skips ("accountId", "campaignId", "contactId", kind, reason)
            SELECT ${accountId}::uuid, ${campaign.id}::uuid, t.contact, 'cross_campaign_duplicate'::"SkipKind", ${duplicateReasonSql(Prisma.sql`t.name`, Prisma.sql`t.sibling`)}
            FROM unnest(${chunk.map((row) => row.contactId)}::uuid[], ${chunk.map((row) => row.siblingId)}::uuid[], ${chunk.map((row) => row.siblingName)}::text[])
              AS t(contact, sibling, name)`;
        }
      }

      const notInSibling =
        scope.uniqueOutreachId !== null ? Prisma.sql`AND NOT ${enrolledInSibling(Prisma.sql`c.id`, campaign, scope.uniqueOutreachId)}` : Prisma.empty;
      const enrolled = await tx.$executeRaw`
        INSERT INTO enrollments ("accountId", "campaignId", "contactId", "batchNumber", priority, "updatedAt")
        SELECT ${accountId}::uuid, ${campaign.id}::uuid, c.id, ${input.batchNumber}::int, ${input.priority}::int, now()
        FROM ${members} WHERE ${ofImport} AND c."unsubscribedAt" IS NULL ${notInSibling}
        ON CONFLICT ("campaignId", "contactId") DO NOTHING`;

      return {
        campaignId: campaign.id,
        contactImportId: contactImport.id,
        batchNumber: input.batchNumber,
        enrolled,
        alreadyEnrolled: counts?.already ?? 0,
        skipped: { crossCampaignDuplicate: duplicates, unsubscribed: counts?.unsubscribed ?? 0 },
      };
    },
    { maxWait: 10_000, timeout: 120_000 },
  );
}
