import type { ReplyCategory } from "@outreach/core";
import type { Db } from "@outreach/db";
import { applyReplyCategory } from "@outreach/domain";
import type { AnswerRow, ReplyRow } from "../serializers/reply.js";
import { findReply, getReply } from "./get-reply.js";

/**
 * PATCH /replies/:id: a person's category for a reply (source manual), with
 * reply.categorized and what the new category does (see applyReplyCategory).
 * The same category again changes nothing. 404 reply_not_found as GET.
 */
export async function setReplyCategory(db: Db, accountId: string, id: string, category: ReplyCategory): Promise<{ reply: ReplyRow; answers: AnswerRow[] }> {
  await db.$transaction(async (tx) => {
    const reply = await findReply(tx, accountId, id);
    await applyReplyCategory(tx, { replyId: reply.id, category, source: "manual" });
  });
  return getReply(db, accountId, id);
}
