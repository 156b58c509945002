import { AppError } from "@outreach/core";
import { findInboundReply, type Db, type Prisma } from "@outreach/db";
import type { AnswerRow, ReplyRow } from "../serializers/reply.js";
import { isUuid } from "../validation.js";

type Tx = Db | Prisma.TransactionClient;

/** The kinds of inbound message served as replies. */
export const REPLY_KINDS = ["reply", "auto_reply"] as const;
export type ReplyKind = (typeof REPLY_KINDS)[number];

/**
 * One of the account's replies (a reply or auto-reply matched to one of its
 * enrollments). A malformed id, an unknown one, another account's and a
 * message that is not a listed reply are the same 404 reply_not_found.
 */
export async function findReply(db: Tx, accountId: string, id: string): Promise<ReplyRow & { references: string[] | null }> {
  if (!isUuid(id)) throw new AppError("reply_not_found");
  const row = await findInboundReply(db, accountId, id, REPLY_KINDS);
  if (!row) throw new AppError("reply_not_found");
  return row;
}

/** GET /replies/:id: the reply and the answers given to it, oldest first. */
export async function getReply(db: Db, accountId: string, id: string): Promise<{ reply: ReplyRow; answers: AnswerRow[] }> {
  const reply = await findReply(db, accountId, id);
  const answers = await db.replyAnswer.findMany({ where: { inboundMessageId: reply.id, accountId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return { reply, answers };
}
