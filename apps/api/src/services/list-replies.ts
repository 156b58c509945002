import { latestReplyCategories, type Db } from "@outreach/db";
import { resolveCursor, rowsForPage, type PageInput } from "../pagination.js";
import { findCampaign } from "./find-campaign.js";

export interface Reply {
  enrollmentId: string;
  contactId: string;
  email: string;
  sentAt: Date | null;
  repliedAt: Date;
  /** from the first send to the reply, 2 decimals; null when no send time is known */
  hoursToReply: number | null;
  /** the category of its latest reply or auto-reply; null when none is stored */
  category: string | null;
}

/** The campaign's replied enrollments, newest reply first, a page at a time (starting_after: an enrollment id). */
export async function listReplies(db: Db, accountId: string, campaignId: string, input: PageInput): Promise<Reply[]> {
  const campaign = await findCampaign(db, accountId, campaignId);
  const cursor = await resolveCursor(
    input.startingAfter,
    "replied enrollment",
    async (id) => {
      const row = await db.enrollment.findFirst({ where: { id, campaignId: campaign.id, accountId, repliedAt: { not: null } }, select: { id: true, repliedAt: true } });
      return row && { id: row.id, createdAt: row.repliedAt! };
    },
    "this campaign",
  );
  const enrollments = await db.enrollment.findMany({
    where: {
      campaignId: campaign.id,
      accountId,
      repliedAt: { not: null },
      ...(cursor && { OR: [{ repliedAt: { lt: cursor.createdAt } }, { repliedAt: cursor.createdAt, id: { lt: cursor.id } }] }),
    },
    include: { contact: { select: { email: true } } },
    orderBy: [{ repliedAt: "desc" }, { id: "desc" }],
    take: rowsForPage(input.limit),
  });
  const categories = new Map(
    (
      await latestReplyCategories(
        db,
        campaign.id,
        enrollments.map((e) => e.id),
      )
    ).map((row) => [row.enrollmentId, row.category]),
  );
  return enrollments.map((e) => ({
    enrollmentId: e.id,
    contactId: e.contactId,
    email: e.contact.email,
    sentAt: e.sentAt,
    repliedAt: e.repliedAt!,
    hoursToReply: e.sentAt ? Math.round((e.repliedAt!.getTime() - e.sentAt.getTime()) / 36_000) / 100 : null,
    category: categories.get(e.id) ?? null,
  }));
}
