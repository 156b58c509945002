import type { Db, SkipKind } from "@outreach/db";
import { newestFirst } from "../pagination.js";
import { findCampaign } from "./find-campaign.js";

export interface ListSkipsInput {
  kind?: SkipKind;
  limit: number;
}

/** The campaign's enrollment skips, newest first, optionally of one kind, with the contact's address. */
export async function listSkips(db: Db, accountId: string, campaignId: string, input: ListSkipsInput) {
  const campaign = await findCampaign(db, accountId, campaignId);
  return db.enrollmentSkip.findMany({
    where: { campaignId: campaign.id, accountId, ...(input.kind !== undefined && { kind: input.kind }) },
    include: { contact: { select: { email: true } } },
    orderBy: newestFirst,
    take: input.limit,
  });
}

export type SkipWithContact = Awaited<ReturnType<typeof listSkips>>[number];
