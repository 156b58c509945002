import { executor, type Queryable } from "./executor.js";

/* Statements on enrollment_skips: why an enrollment (or a contact) was not sent to. */

/**
 * A `blocklisted` skip for the enrollment with the reason, unless the
 * campaign has one for it already: 1 when written, else 0.
 */
export async function insertBlocklistedSkip(
  q: Queryable,
  skip: { accountId: string; campaignId: string; contactId: string; enrollmentId: string; reason: string; now: Date },
): Promise<number> {
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
