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
}

/** Sets a recorded message's outcome: its kind, its enrollment (and that enrollment's campaign) and what is kept of it. */
export async function classifyInboundMessage(q: Queryable, id: string, outcome: InboundMessageOutcome): Promise<void> {
  await executor(q).execute(
    `
    UPDATE inbound_messages SET kind = $1, "enrollmentId" = $2::uuid,
      "campaignId" = (SELECT e."campaignId" FROM enrollments e WHERE e.id = $3::uuid),
      "fromName" = $4,
      subject = $5,
      "sentAt" = $6,
      "bodyText" = $7,
      "references" = $8::text[]
    WHERE id = $9::uuid`,
    [outcome.kind, outcome.enrollmentId, outcome.enrollmentId, outcome.fromName, outcome.subject, outcome.sentAt, outcome.bodyText, outcome.references, id],
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
    m."credentialId"::text AS "credentialId", m."fromEmail", m."fromName", m.subject, m."receivedAt", m."sentAt", ${body} AS "bodyText", m."messageId"`;
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
  page: { accountId: string; kinds: readonly string[]; campaignId: string | null; cursor: { createdAt: Date; id: string } | null; textChars: number; limit: number },
): Promise<InboundReplyRow[]> {
  const { accountId, kinds, campaignId, cursor, textChars, limit } = page;
  const params: unknown[] = [textChars, accountId, accountId, [...kinds]];
  const next = (value: unknown): string => `$${params.push(value)}`;
  const ofCampaign = campaignId !== null ? `AND m."campaignId" = ${next(campaignId)}::uuid` : "";
  const afterCursor = cursor !== null ? `AND (m."receivedAt", m.id) < (${next(cursor.createdAt)}::timestamptz, ${next(cursor.id)}::uuid)` : "";
  return executor(q).rows<InboundReplyRow>(
    `
    SELECT ${replyColumnsSql(`left(m."bodyText", $1::int)`)}
    FROM inbound_messages m JOIN enrollments e ON e.id = m."enrollmentId"
    WHERE m."accountId" = $2::uuid AND e."accountId" = $3::uuid AND m.kind = ANY($4::text[])
      ${ofCampaign}
      ${afterCursor}
    ORDER BY m."receivedAt" DESC, m.id DESC
    LIMIT ${next(limit)}`,
    params,
  );
}
