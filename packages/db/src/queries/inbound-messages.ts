import { columns, type RowOf } from "./columns.js";
import { executor, type Queryable } from "./executor.js";

/*
 * Statements on inbound_messages: a message found in a watched inbox, stored
 * once per inbox, UIDVALIDITY and UID (the unique key its inserts conflict on).
 */

/** Where a message was found and what identifies it. */
export interface InboundMessageKey {
  credentialId: string;
  accountId: string | null;
  uidValidity: bigint;
  uid: bigint;
}

export const insertedInboundMessageColumns = columns({ id: "uuid" });

/** Records a message as unmatched (its outcome is set by classifyInboundMessage): its id, undefined when it was recorded already. */
export async function insertInboundMessage(
  q: Queryable,
  key: InboundMessageKey,
  message: { messageId: string | null; inReplyTo: string | null; fromEmail: string | null },
  receivedAt: Date,
): Promise<string | undefined> {
  const [row] = await executor(q).rows<RowOf<typeof insertedInboundMessageColumns>>(
    `
    INSERT INTO inbound_messages (id, "credentialId", "accountId", "uidValidity", uid, "messageId", "inReplyTo", "fromEmail", kind, "receivedAt")
    VALUES (gen_random_uuid(), $1::uuid, $2::uuid, $3, $4, $5, $6, $7, 'unmatched', $8)
    ON CONFLICT ("credentialId", "uidValidity", uid) DO NOTHING
    RETURNING id`,
    [key.credentialId, key.accountId, key.uidValidity, key.uid, message.messageId, message.inReplyTo, message.fromEmail, receivedAt],
  );
  return row?.id;
}

/** What became of a recorded message, and what is kept of it (null where nothing is). */
export interface InboundMessageOutcome {
  kind: string;
  enrollmentId: string | null;
  fromName: string | null;
  subject: string | null;
  sentAt: Date | null;
  bodyText: string | null;
  references: string[];
  /** a reply's or auto-reply's category by the rules (null for every other kind) */
  category: string | null;
}

/** Sets a recorded message's outcome: its kind, its enrollment (and that enrollment's campaign), what is kept of it, and its category by the rules. */
export async function classifyInboundMessage(q: Queryable, id: string, outcome: InboundMessageOutcome, now: Date): Promise<void> {
  await executor(q).execute(
    `
    UPDATE inbound_messages SET kind = $1, "enrollmentId" = $2::uuid,
      "campaignId" = (SELECT e."campaignId" FROM enrollments e WHERE e.id = $3::uuid),
      "fromName" = $4,
      subject = $5,
      "sentAt" = $6,
      "bodyText" = $7,
      "references" = $8::text[],
      category = $9,
      "categorySource" = CASE WHEN $10::text IS NULL THEN NULL ELSE 'rules' END,
      "categorizedAt" = CASE WHEN $11::text IS NULL THEN NULL ELSE $12::timestamptz END
    WHERE id = $13::uuid`,
    [
      outcome.kind,
      outcome.enrollmentId,
      outcome.enrollmentId,
      outcome.fromName,
      outcome.subject,
      outcome.sentAt,
      outcome.bodyText,
      outcome.references,
      outcome.category,
      outcome.category,
      outcome.category,
      now,
      id,
    ],
  );
}

export const replyForCategoryColumns = columns({
  id: "text",
  accountId: "text",
  kind: "text",
  enrollmentId: "text",
  category: "text?",
  categorySource: "text?",
  subject: "text?",
  bodyText: "text?",
  receivedAt: "timestamptz",
});
export type ReplyForCategoryRow = RowOf<typeof replyForCategoryColumns>;

/** Locks a reply or auto-reply matched to an enrollment FOR UPDATE, with what categorizing it reads: undefined when there is none (or it is another kind). */
export async function lockReplyForCategory(q: Queryable, id: string): Promise<ReplyForCategoryRow | undefined> {
  const [row] = await executor(q).rows<ReplyForCategoryRow>(
    `
    SELECT m.id::text AS id, m."accountId"::text AS "accountId", m.kind, m."enrollmentId"::text AS "enrollmentId", m.category, m."categorySource",
      m.subject, m."bodyText", m."receivedAt"
    FROM inbound_messages m
    WHERE m.id = $1::uuid AND m.kind IN ('reply', 'auto_reply') AND m."enrollmentId" IS NOT NULL AND m."accountId" IS NOT NULL
    FOR UPDATE`,
    [id],
  );
  return row;
}

/** Sets a reply's category and who set it. */
export async function setReplyCategory(q: Queryable, id: string, category: string, source: string, now: Date): Promise<void> {
  await executor(q).execute(`UPDATE inbound_messages SET category = $1, "categorySource" = $2, "categorizedAt" = $3 WHERE id = $4::uuid`, [category, source, now, id]);
}

export const latestReplyCategoryColumns = columns({ enrollmentId: "text", category: "text?" });
export type LatestReplyCategoryRow = RowOf<typeof latestReplyCategoryColumns>;

/** The category of the latest reply or auto-reply of each of these enrollments of the campaign (read through its (campaignId, receivedAt) index). */
export async function latestReplyCategories(q: Queryable, campaignId: string, enrollmentIds: string[]): Promise<LatestReplyCategoryRow[]> {
  return executor(q).rows<LatestReplyCategoryRow>(
    `
    SELECT DISTINCT ON (m."enrollmentId") m."enrollmentId"::text AS "enrollmentId", m.category
    FROM inbound_messages m
    WHERE m."campaignId" = $1::uuid AND m."enrollmentId" = ANY($2::uuid[]) AND m.kind IN ('reply', 'auto_reply')
    ORDER BY m."enrollmentId", m."receivedAt" DESC, m.id DESC`,
    [campaignId, enrollmentIds],
  );
}

export const replyCategoryCountColumns = columns({ category: "text", count: "int4" });
export type ReplyCategoryCountRow = RowOf<typeof replyCategoryCountColumns>;

/** The campaign's replies and auto-replies counted by category (one not categorized counts as other). */
export async function replyCategoryCounts(q: Queryable, campaignId: string): Promise<ReplyCategoryCountRow[]> {
  return executor(q).rows<ReplyCategoryCountRow>(
    `
    SELECT COALESCE(m.category, 'other') AS category, count(*)::int AS count
    FROM inbound_messages m
    WHERE m."campaignId" = $1::uuid AND m.kind IN ('reply', 'auto_reply') AND m."enrollmentId" IS NOT NULL
    GROUP BY 1`,
    [campaignId],
  );
}

/** Records a message passed over (kind skipped) with the reason, unless it was recorded already. */
export async function insertSkippedInboundMessage(q: Queryable, key: InboundMessageKey, reason: string, receivedAt: Date): Promise<void> {
  await executor(q).execute(
    `
      INSERT INTO inbound_messages (id, "credentialId", "accountId", "uidValidity", uid, kind, "skipReason", "receivedAt")
      VALUES (gen_random_uuid(), $1::uuid, $2::uuid, $3, $4, 'skipped', $5, $6)
      ON CONFLICT ("credentialId", "uidValidity", uid) DO NOTHING`,
    [key.credentialId, key.accountId, key.uidValidity, key.uid, reason, receivedAt],
  );
}

/*
 * The API's replies: inbound messages of a listed kind (reply, auto_reply)
 * matched to one of the account's enrollments (m, joined to enrollments e).
 */

/** The columns of a reply, its text read with `body` (the list reads only the start of it). */
function replyColumnsSql(body: string): string {
  return `m.id::text AS id, m.kind, m."campaignId"::text AS "campaignId", m."enrollmentId"::text AS "enrollmentId", e."contactId"::text AS "contactId",
    m."credentialId"::text AS "credentialId", m."fromEmail", m."fromName", m.subject, m."receivedAt", m."sentAt", ${body} AS "bodyText", m."messageId",
    m.category, m."categorySource"`;
}

const REPLY_COLUMNS = {
  id: "text",
  kind: "text",
  campaignId: "text?",
  enrollmentId: "text",
  contactId: "text",
  credentialId: "text",
  fromEmail: "text?",
  fromName: "text?",
  subject: "text?",
  receivedAt: "timestamptz",
  sentAt: "timestamptz?",
  bodyText: "text?",
  messageId: "text?",
  category: "text?",
  categorySource: "text?",
} as const;

/** A reply (ids as text, the Message-ID as stored, without <>), with the start of its text in a list. */
export const inboundReplyColumns = columns(REPLY_COLUMNS);
export type InboundReplyRow = RowOf<typeof inboundReplyColumns>;

/** A reply with its whole text and its References. */
export const inboundReplyDetailColumns = columns({ ...REPLY_COLUMNS, references: "_text?" });
export type InboundReplyDetailRow = RowOf<typeof inboundReplyDetailColumns>;

/** The account's reply with this id (a uuid), when it is of one of `kinds`: undefined when there is none. */
export async function findInboundReply(q: Queryable, accountId: string, id: string, kinds: readonly string[]): Promise<InboundReplyDetailRow | undefined> {
  const [row] = await executor(q).rows<InboundReplyDetailRow>(
    `
    SELECT ${replyColumnsSql(`m."bodyText"`)}, m."references"
    FROM inbound_messages m JOIN enrollments e ON e.id = m."enrollmentId"
    WHERE m.id = $1::uuid AND m."accountId" = $2::uuid AND e."accountId" = $3::uuid
      AND m.kind = ANY($4::text[])`,
    [id, accountId, accountId, [...kinds]],
  );
  return row;
}

/**
 * A page of the account's replies of these kinds, newest received first
 * (after the cursor when given), of one campaign when `campaignId`, each with
 * the first `textChars` characters of its text.
 */
export async function listInboxReplyPage(
  q: Queryable,
  page: { accountId: string; kinds: readonly string[]; campaignId: string | null; category?: string | null; cursor: { createdAt: Date; id: string } | null; textChars: number; limit: number },
): Promise<InboundReplyRow[]> {
  const { accountId, kinds, campaignId, cursor, textChars, limit } = page;
  const category = page.category ?? null;
  const params: unknown[] = [textChars, accountId, accountId, [...kinds]];
  const next = (value: unknown): string => `$${params.push(value)}`;
  const ofCampaign = campaignId !== null ? `AND m."campaignId" = ${next(campaignId)}::uuid` : "";
  const ofCategory = category !== null ? `AND m.category = ${next(category)}` : "";
  const afterCursor = cursor !== null ? `AND (m."receivedAt", m.id) < (${next(cursor.createdAt)}::timestamptz, ${next(cursor.id)}::uuid)` : "";
  return executor(q).rows<InboundReplyRow>(
    `
    SELECT ${replyColumnsSql(`left(m."bodyText", $1::int)`)}
    FROM inbound_messages m JOIN enrollments e ON e.id = m."enrollmentId"
    WHERE m."accountId" = $2::uuid AND e."accountId" = $3::uuid AND m.kind = ANY($4::text[])
      ${ofCampaign}
      ${ofCategory}
      ${afterCursor}
    ORDER BY m."receivedAt" DESC, m.id DESC
    LIMIT ${next(limit)}`,
    params,
  );
}
