import { columns, type RowOf } from "./columns.js";
import { executor, type Queryable } from "./executor.js";

/* Statements on enrollments that move a contact on to a follow-on campaign (reply_actions, on_completion). */

/** The wait after the last step when on_completion names none (days). */
export const DEFAULT_COMPLETION_WAIT_DAYS = 3;

export const moveOriginColumns = columns({
  id: "uuid",
  accountId: "uuid",
  campaignId: "uuid",
  contactId: "uuid",
  status: "text",
  movedOnAt: "timestamptz?",
  replyActions: "jsonb?",
  onCompletion: "jsonb?",
});
export type MoveOrigin = RowOf<typeof moveOriginColumns>;

/** Locks the enrollment a contact is moved from, FOR UPDATE: with its campaign's follow-on settings; undefined when it is gone. */
export async function lockMoveOrigin(q: Queryable, enrollmentId: string): Promise<MoveOrigin | undefined> {
  const [row] = await executor(q).rows<MoveOrigin>(
    `
    SELECT e.id, e."accountId", e."campaignId", e."contactId", e.status::text AS status, e."movedOnAt", c."replyActions", c."onCompletion"
    FROM enrollments e JOIN campaigns c ON c.id = e."campaignId"
    WHERE e.id = $1::uuid
    FOR UPDATE OF e`,
    [enrollmentId],
  );
  return row;
}

export const moveChainDepthColumns = columns({ depth: "int4" });

/** How many moves led to this enrollment (its chain of movedFromEnrollmentId), counted up to `limit`. */
export async function moveChainDepth(q: Queryable, enrollmentId: string, limit: number): Promise<number> {
  const [row] = await executor(q).rows<RowOf<typeof moveChainDepthColumns>>(
    `
    WITH RECURSIVE chain(id, depth) AS (
      SELECT "movedFromEnrollmentId", 1 FROM enrollments WHERE id = $1::uuid AND "movedFromEnrollmentId" IS NOT NULL
      UNION ALL
      SELECT e."movedFromEnrollmentId", chain.depth + 1 FROM chain JOIN enrollments e ON e.id = chain.id
      WHERE e."movedFromEnrollmentId" IS NOT NULL AND chain.depth < $2::int)
    SELECT COALESCE(max(depth), 0)::int4 AS depth FROM chain`,
    [enrollmentId, limit],
  );
  return row?.depth ?? 0;
}

/** Records the outcome of moving the enrollment's contact on ("moved" or why not), once: an enrollment keeps its first outcome. */
export async function markEnrollmentMovedOn(q: Queryable, enrollmentId: string, result: string, now: Date): Promise<number> {
  return executor(q).execute(
    `
    UPDATE enrollments SET "movedOnAt" = $1, "movedOnResult" = $2, "updatedAt" = $3
    WHERE id = $4::uuid AND "movedOnAt" IS NULL`,
    [now, result, now, enrollmentId],
  );
}

export const movedContactBatchColumns = columns({ batchNumber: "int4" });

/** The batch a moved contact joins: the campaign's lowest batch still waiting for its dispatch, else its latest, else 1. */
export async function batchForMovedContact(q: Queryable, campaignId: string): Promise<number> {
  const [row] = await executor(q).rows<RowOf<typeof movedContactBatchColumns>>(
    `
    SELECT COALESCE(
      (SELECT "batchNumber" FROM enrollments
       WHERE "campaignId" = $1::uuid AND status = 'pending' AND "dispatchedAt" IS NULL AND "stoppedAt" IS NULL
       ORDER BY "batchNumber" LIMIT 1),
      (SELECT max("batchNumber") FROM enrollments WHERE "campaignId" = $2::uuid),
      1)::int4 AS "batchNumber"`,
    [campaignId, campaignId],
  );
  return row?.batchNumber ?? 1;
}

/** SQL: an enrollment (alias e) of campaign c that finished its steps at least c's on_completion wait before $1, without an answer, not stopped nor moved on. */
const DUE_AFTER_COMPLETION = `e."completedAt" IS NOT NULL AND e."movedOnAt" IS NULL AND e."stoppedAt" IS NULL AND e.status IN ('sent', 'opened')
  AND e."completedAt" <= $1::timestamptz - make_interval(days => COALESCE((c."onCompletion"->>'waitDays')::int, ${DEFAULT_COMPLETION_WAIT_DAYS}))`;

export const dueCompletedEnrollmentColumns = columns({ id: "uuid", accountId: "uuid", targetCampaignId: "text" });
export type DueCompletedEnrollment = RowOf<typeof dueCompletedEnrollmentColumns>;

/**
 * Locks FOR UPDATE one enrollment due to move on after completion, with the campaign to move
 * it to: the oldest completion of the first campaign with on_completion that has one
 * (enrollments_completed_idx), skipping rows another transaction holds, so replicas sweeping
 * at once each take a different one. Undefined when none is left.
 */
export async function lockNextDueCompletedEnrollment(q: Queryable, now: Date): Promise<DueCompletedEnrollment | undefined> {
  const [row] = await executor(q).rows<DueCompletedEnrollment>(
    `
    SELECT d.id, d."accountId", c."onCompletion"->>'moveToCampaignId' AS "targetCampaignId"
    FROM campaigns c CROSS JOIN LATERAL (
      SELECT e.id, e."accountId" FROM enrollments e
      WHERE e."campaignId" = c.id AND ${DUE_AFTER_COMPLETION}
      ORDER BY e."completedAt" LIMIT 1
      FOR UPDATE OF e SKIP LOCKED) d
    WHERE jsonb_typeof(c."onCompletion") = 'object'
    LIMIT 1`,
    [now],
  );
  return row;
}
