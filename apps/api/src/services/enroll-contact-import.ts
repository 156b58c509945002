import { AppError } from "@outreach/core";
import {
  crossCampaignDuplicateSkipContacts,
  enrollImportContacts,
  findContactImportId,
  importContactsInSiblingCampaigns,
  importEnrollmentCounts,
  insertCrossCampaignDuplicateSkips,
  type Db,
} from "@outreach/db";
import { lockEnrollmentScope } from "@outreach/domain";
import { isUuid } from "../validation.js";
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
      const contactImportId = isUuid(input.contactImportId) ? await findContactImportId(tx, accountId, input.contactImportId) : undefined;
      if (contactImportId === undefined) throw new AppError("contact_import_not_found");
      const scope = await lockEnrollmentScope(tx, campaign);

      const counts = await importEnrollmentCounts(tx, accountId, contactImportId, campaign.id);

      let duplicates = 0;
      if (scope.uniqueOutreachId !== null) {
        // One row per duplicate contact, naming the sibling campaign it was enrolled in first.
        const siblings = await importContactsInSiblingCampaigns(tx, { accountId, importId: contactImportId, campaignId: campaign.id, outreachId: scope.uniqueOutreachId });
        duplicates = siblings.length;
        // Skips are recorded once per contact and campaign. The ones already there are read
        // first and left out here, rather than probed row by row from the INSERT: such a probe
        // would walk the index entries this same INSERT keeps adding (quadratic on 100k rows).
        const known = new Set(await crossCampaignDuplicateSkipContacts(tx, campaign.id));
        const fresh = siblings.filter((row) => !known.has(row.contactId));
        for (let start = 0; start < fresh.length; start += CHUNK) {
          const chunk = fresh.slice(start, start + CHUNK);
          await insertCrossCampaignDuplicateSkips(tx, accountId, campaign.id, {
            contactIds: chunk.map((row) => row.contactId),
            siblingIds: chunk.map((row) => row.siblingId),
            siblingNames: chunk.map((row) => row.siblingName),
          });
        }
      }

      const enrolled = await enrollImportContacts(tx, {
        accountId,
        importId: contactImportId,
        campaignId: campaign.id,
        batchNumber: input.batchNumber,
        priority: input.priority,
        uniqueOutreachId: scope.uniqueOutreachId,
      });

      return {
        campaignId: campaign.id,
        contactImportId,
        batchNumber: input.batchNumber,
        enrolled,
        alreadyEnrolled: counts?.already ?? 0,
        skipped: { crossCampaignDuplicate: duplicates, unsubscribed: counts?.unsubscribed ?? 0 },
      };
    },
    { maxWait: 10_000, timeout: 120_000 },
  );
}
