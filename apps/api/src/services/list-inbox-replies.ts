import type { ReplyCategory } from "@outreach/core";
import { listInboxReplyPage, type Db } from "@outreach/db";
import { resolveCursor, rowsForPage, type PageInput } from "../pagination.js";
import type { ReplyRow } from "../serializers/reply.js";
import { findCampaign } from "./find-campaign.js";
import { REPLY_KINDS, type ReplyKind } from "./get-reply.js";

export interface ListInboxRepliesInput extends PageInput {
  /** only this campaign's (404 campaign_not_found when it is not one of the account's) */
  campaignId?: string;
  kind?: ReplyKind;
  category?: ReplyCategory;
}

/** The list needs the start of each text only (for its snippet), not up to 16 KiB per row. */
const LIST_TEXT_CHARS = 400;

/**
 * The account's replies and auto-replies matched to its enrollments, newest
 * received first, a page at a time (starting_after: a reply id), optionally
 * of one campaign, of one kind and of one category. Reads inbound_messages by
 * (accountId, receivedAt) or (campaignId, receivedAt).
 */
export async function listInboxReplies(db: Db, accountId: string, input: ListInboxRepliesInput): Promise<ReplyRow[]> {
  const campaign = input.campaignId === undefined ? null : await findCampaign(db, accountId, input.campaignId);
  const cursor = await resolveCursor(input.startingAfter, "reply", async (id) => {
    const row = await db.inboundMessage.findFirst({ where: { id, accountId, kind: { in: [...REPLY_KINDS] }, enrollmentId: { not: null } }, select: { id: true, receivedAt: true } });
    return row && { id: row.id, createdAt: row.receivedAt };
  });
  const kinds = input.kind ? [input.kind] : [...REPLY_KINDS];
  return listInboxReplyPage(db, {
    accountId,
    kinds,
    campaignId: campaign ? campaign.id : null,
    category: input.category ?? null,
    cursor: cursor ? { createdAt: cursor.createdAt, id: cursor.id } : null,
    textChars: LIST_TEXT_CHARS,
    limit: rowsForPage(input.limit),
  });
}
