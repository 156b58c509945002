import type { Db } from "@outreach/db";
import { findCampaign } from "./find-campaign.js";

export interface Reply {
  enrollmentId: string;
  contactId: string;
  email: string;
  sentAt: Date | null;
  repliedAt: Date;
  /** from the first send to the reply, 2 decimals; null when no send time is known */
  hoursToReply: number | null;
}

/** The campaign's replied enrollments, newest reply first. */
export async function listReplies(db: Db, accountId: string, campaignId: string, limit: number): Promise<Reply[]> {
  const campaign = await findCampaign(db, accountId, campaignId);
  const enrollments = await db.enrollment.findMany({
    where: { campaignId: campaign.id, accountId, repliedAt: { not: null } },
    include: { contact: { select: { email: true } } },
    orderBy: [{ repliedAt: "desc" }, { id: "desc" }],
    take: limit,
  });
  return enrollments.map((e) => ({
    enrollmentId: e.id,
    contactId: e.contactId,
    email: e.contact.email,
    sentAt: e.sentAt,
    repliedAt: e.repliedAt!,
    hoursToReply: e.sentAt ? Math.round((e.repliedAt!.getTime() - e.sentAt.getTime()) / 36_000) / 100 : null,
  }));
}
