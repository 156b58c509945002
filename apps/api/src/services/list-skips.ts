import type { Db, SkipKind } from "@outreach/db";
import { after, newestFirst, resolveCursor, rowsForPage, type PageInput } from "../pagination.js";
import { findCampaign } from "./find-campaign.js";

export interface ListSkipsInput extends PageInput {
  kind?: SkipKind;
}

/** The campaign's enrollment skips, newest first, a page at a time, optionally of one kind, with the contact's address. */
export async function listSkips(db: Db, accountId: string, campaignId: string, input: ListSkipsInput) {
  const campaign = await findCampaign(db, accountId, campaignId);
  const cursor = await resolveCursor(
    input.startingAfter,
    "skip",
    (id) => db.enrollmentSkip.findFirst({ where: { id, campaignId: campaign.id, accountId }, select: { id: true, createdAt: true } }),
    "this campaign",
  );
  return db.enrollmentSkip.findMany({
    where: { campaignId: campaign.id, accountId, ...(input.kind !== undefined && { kind: input.kind }), ...(cursor && after(cursor)) },
    include: { contact: { select: { email: true } } },
    orderBy: newestFirst,
    take: rowsForPage(input.limit),
  });
}

export type SkipWithContact = Awaited<ReturnType<typeof listSkips>>[number];
