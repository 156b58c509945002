import { columns, type RowOf } from "./columns.js";
import { executor, type Queryable } from "./executor.js";

/* Statements on enrollment_skips: why an enrollment (or a contact) was not sent to. */

/**
 * A `blocklisted` skip for the enrollment with the reason, unless the
 * campaign has one for it already: 1 when written, else 0.
 */
export async function insertBlocklistedSkip(q: Queryable, skip: { accountId: string; campaignId: string; contactId: string; enrollmentId: string; reason: string; now: Date }): Promise<number> {
  const { accountId, campaignId, contactId, enrollmentId, reason, now } = skip;
  return executor(q).execute(
    `
      INSERT INTO enrollment_skips ("accountId", "campaignId", "contactId", "enrollmentId", kind, reason, "createdAt")
      SELECT $1::uuid, $2::uuid, $3::uuid, $4::uuid, 'blocklisted'::"SkipKind", $5, $6
      WHERE NOT EXISTS (SELECT 1 FROM enrollment_skips
        WHERE "campaignId" = $7::uuid AND kind = 'blocklisted' AND "enrollmentId" = $8::uuid)`,
    [accountId, campaignId, contactId, enrollmentId, reason, now, campaignId, enrollmentId],
  );
}

/** A `condition_not_met` skip: a step of the enrollment was skipped because its condition failed when it fell due (one per step skipped). */
export async function insertConditionNotMetSkip(q: Queryable, skip: { accountId: string; campaignId: string; contactId: string; enrollmentId: string; reason: string; now: Date }): Promise<number> {
  const { accountId, campaignId, contactId, enrollmentId, reason, now } = skip;
  return executor(q).execute(
    `
      INSERT INTO enrollment_skips ("accountId", "campaignId", "contactId", "enrollmentId", kind, reason, "createdAt")
      VALUES ($1::uuid, $2::uuid, $3::uuid, $4::uuid, 'condition_not_met'::"SkipKind", $5, $6)`,
    [accountId, campaignId, contactId, enrollmentId, reason, now],
  );
}

/** SQL: the reason stored on a cross_campaign_duplicate skip, naming the sibling campaign (SQL expressions of its name and id). */
function duplicateReasonSql(nameSql: string, idSql: string): string {
  return `'already enrolled in campaign "' || ${nameSql} || '" (' || ${idSql}::text || ') of the same outreach'`;
}

export const siblingEnrollmentReasonColumns = columns({ reason: "text" });

/**
 * The contact's first enrollment in another of the account's campaigns of the
 * outreach, as the reason of a cross_campaign_duplicate skip: undefined when there is none.
 */
export async function firstSiblingEnrollmentReason(q: Queryable, scope: { accountId: string; campaignId: string; outreachId: string; contactId: string }): Promise<string | undefined> {
  const { accountId, campaignId, outreachId, contactId } = scope;
  const [sibling] = await executor(q).rows<RowOf<typeof siblingEnrollmentReasonColumns>>(
    `
        SELECT ${duplicateReasonSql("s.name", "s.id")} AS reason
        FROM enrollments se JOIN campaigns s ON s.id = se."campaignId"
        WHERE se."contactId" = $1::uuid AND s."outreachId" = $2::uuid
          AND s.id <> $3::uuid AND s."accountId" = $4::uuid
        ORDER BY se."createdAt", se.id LIMIT 1`,
    [contactId, outreachId, campaignId, accountId],
  );
  return sibling?.reason;
}

export const skippedContactColumns = columns({ contactId: "uuid" });

/** The contacts of the campaign's cross_campaign_duplicate skips. */
export async function crossCampaignDuplicateSkipContacts(q: Queryable, campaignId: string): Promise<string[]> {
  const rows = await executor(q).rows<RowOf<typeof skippedContactColumns>>(
    `
          SELECT "contactId" FROM enrollment_skips WHERE "campaignId" = $1::uuid AND kind = 'cross_campaign_duplicate'`,
    [campaignId],
  );
  return rows.map((row) => row.contactId);
}

/** Cross_campaign_duplicate skips for these contacts, each naming its sibling campaign (parallel arrays), in one statement. */
export async function insertCrossCampaignDuplicateSkips(
  q: Queryable,
  accountId: string,
  campaignId: string,
  rows: { contactIds: string[]; siblingIds: string[]; siblingNames: string[] },
): Promise<number> {
  return executor(q).execute(
    `
            INSERT INTO enrollment_skips ("accountId", "campaignId", "contactId", kind, reason)
            SELECT $1::uuid, $2::uuid, t.contact, 'cross_campaign_duplicate'::"SkipKind", ${duplicateReasonSql("t.name", "t.sibling")}
            FROM unnest($3::uuid[], $4::uuid[], $5::text[])
              AS t(contact, sibling, name)`,
    [accountId, campaignId, rows.contactIds, rows.siblingIds, rows.siblingNames],
  );
}
