import { AppError } from "@outreach/core";
import { Prisma, type Db } from "@outreach/db";
import type { AnswerRow, ReplyRow } from "../serializers/reply.js";
import { isUuid } from "../validation.js";

type Tx = Db | Prisma.TransactionClient;

/** The kinds of inbound message served as replies. */
export const REPLY_KINDS = ["reply", "auto_reply"] as const;
export type ReplyKind = (typeof REPLY_KINDS)[number];

/**
 * The columns of a reply (inbound_messages m, matched to an enrollment e of the
 * account); `body` is the expression its text is read with (the list reads only
 * the start of it).
 */
export function replyColumns(body: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`m.id::text AS id, m.kind, m."campaignId"::text AS "campaignId", m."enrollmentId"::text AS "enrollmentId", e."contactId"::text AS "contactId",
    m."credentialId"::text AS "credentialId", m."fromEmail", m."fromName", m.subject, m."receivedAt", m."sentAt", ${body} AS "bodyText", m."messageId"`;
}

/**
 * One of the account's replies (a reply or auto-reply matched to one of its
 * enrollments). A malformed id, an unknown one, another account's and a
 * message that is not a listed reply are the same 404 reply_not_found.
 */
export async function findReply(db: Tx, accountId: string, id: string): Promise<ReplyRow & { references: string[] }> {
  if (!isUuid(id)) throw new AppError("reply_not_found");
  const rows = await db.$queryRaw<Array<ReplyRow & { references: string[] }>>`
    SELECT ${replyColumns(Prisma.sql`m."bodyText"`)}, m."references"
    FROM inbound_messages m JOIN enrollments e ON e.id = m."enrollmentId"
    WHERE m.id = ${id}::uuid AND m."accountId" = ${accountId}::uuid AND e."accountId" = ${accountId}::uuid
      AND m.kind = ANY(${[...REPLY_KINDS]}::text[])`;
  const row = rows[0];
  if (!row) throw new AppError("reply_not_found");
  return row;
}

/** GET /replies/:id: the reply and the answers given to it, oldest first. */
export async function getReply(db: Db, accountId: string, id: string): Promise<{ reply: ReplyRow; answers: AnswerRow[] }> {
  const reply = await findReply(db, accountId, id);
  const answers = await db.replyAnswer.findMany({ where: { inboundMessageId: reply.id, accountId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return { reply, answers };
}
