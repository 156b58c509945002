import { columns, type RowOf } from "./columns.js";
import { executor, type Queryable } from "./executor.js";

/*
 * The aggregate reads of a campaign's statistics (GET /campaigns/:id/stats):
 * enrollments per batch, step sends per inbox, the recent bounces and
 * failures, the skips, the A/B variants. The caller reads them in one
 * snapshot (a REPEATABLE READ transaction).
 */

export const batchStatsColumns = columns({
  batch_number: "int4",
  total: "int4",
  pending: "int4",
  sent: "int4",
  opened: "int4",
  replied: "int4",
  bounced: "int4",
  unsubscribed: "int4",
  delivered: "int4",
  ever_opened: "int4",
  ever_replied: "int4",
  ever_clicked: "int4",
  stopped: "int4",
});
export type BatchStatsRow = RowOf<typeof batchStatsColumns>;

/** The campaign's enrollments per batch (in batch order): by current status, sent, ever opened, replied and clicked, stopped. */
export async function enrollmentBatchStats(q: Queryable, campaignId: string): Promise<BatchStatsRow[]> {
  return executor(q).rows<BatchStatsRow>(
    `
        SELECT "batchNumber" AS batch_number,
          count(*)::int AS total,
          count(*) FILTER (WHERE status = 'pending' AND "stoppedAt" IS NULL)::int AS pending,
          count(*) FILTER (WHERE status = 'sent')::int AS sent,
          count(*) FILTER (WHERE status = 'opened')::int AS opened,
          count(*) FILTER (WHERE status = 'replied')::int AS replied,
          count(*) FILTER (WHERE status = 'bounced')::int AS bounced,
          count(*) FILTER (WHERE status = 'unsubscribed')::int AS unsubscribed,
          count(*) FILTER (WHERE "sentAt" IS NOT NULL)::int AS delivered,
          count(*) FILTER (WHERE "sentAt" IS NOT NULL AND ("openedAt" IS NOT NULL OR "repliedAt" IS NOT NULL))::int AS ever_opened,
          count(*) FILTER (WHERE "sentAt" IS NOT NULL AND "repliedAt" IS NOT NULL)::int AS ever_replied,
          count(*) FILTER (WHERE "sentAt" IS NOT NULL AND "clickedAt" IS NOT NULL)::int AS ever_clicked,
          count(*) FILTER (WHERE "stoppedAt" IS NOT NULL)::int AS stopped
        FROM enrollments
        WHERE "campaignId" = $1::uuid
        GROUP BY "batchNumber"
        ORDER BY "batchNumber"`,
    [campaignId],
  );
}

export const sendStatsColumns = columns({
  credential_id: "uuid?",
  sends: "int4",
  unconfirmed: "int4",
  bounces: "int4",
  verified_bounces: "int4",
  sends_today: "int4",
  step1_sends_today: "int4",
});
export type SendStatsRow = RowOf<typeof sendStatsColumns>;

/** The campaign's step sends that reached SMTP, per inbox: unconfirmed, bounced (all, verified), and those sent in [dayStart, dayEnd) (all, step 1). */
export async function stepSendCredentialStats(q: Queryable, campaignId: string, dayStart: Date, dayEnd: Date): Promise<SendStatsRow[]> {
  return executor(q).rows<SendStatsRow>(
    `
        SELECT "credentialId" AS credential_id,
          count(*)::int AS sends,
          count(*) FILTER (WHERE outcome = 'unknown')::int AS unconfirmed,
          count(*) FILTER (WHERE state = 'bounced')::int AS bounces,
          count(*) FILTER (WHERE state = 'bounced' AND NOT "bounceUnverified")::int AS verified_bounces,
          count(*) FILTER (WHERE "sentAt" >= $1::timestamptz AND "sentAt" < $2::timestamptz)::int AS sends_today,
          count(*) FILTER (WHERE "stepPosition" = 1 AND "sentAt" >= $3::timestamptz AND "sentAt" < $4::timestamptz)::int AS step1_sends_today
        FROM step_sends
        WHERE "campaignId" = $5::uuid AND state IN ('sent', 'bounced')
        GROUP BY "credentialId"`,
    [dayStart, dayEnd, dayStart, dayEnd, campaignId],
  );
}

export const recentBounceColumns = columns({ enrollment_id: "uuid", contact_id: "uuid", email: "text", bounce_reason: "text?", bounced_at: "timestamptz?" });
export type RecentBounceRow = RowOf<typeof recentBounceColumns>;

/** The campaign's bounced enrollments, the most recent `limit` first, with the contacts' addresses. */
export async function recentBouncedEnrollments(q: Queryable, campaignId: string, limit: number): Promise<RecentBounceRow[]> {
  return executor(q).rows<RecentBounceRow>(
    `
        SELECT e.id AS enrollment_id, e."contactId" AS contact_id, c.email, e."bounceReason" AS bounce_reason, e."bouncedAt" AS bounced_at
        FROM enrollments e
        JOIN contacts c ON c.id = e."contactId"
        WHERE e."campaignId" = $1::uuid AND (e.status = 'bounced' OR e."bouncedAt" IS NOT NULL)
        ORDER BY e."bouncedAt" DESC NULLS LAST, e.id DESC
        LIMIT $2`,
    [campaignId, limit],
  );
}

/** failed_total: all of the campaign's failed step sends (on every row). */
export const recentFailureColumns = columns({
  enrollment_id: "uuid",
  contact_id: "uuid",
  email: "text",
  step_position: "int4",
  reason: "text?",
  failed_at: "timestamptz",
  failed_total: "int4",
});
export type RecentFailureRow = RowOf<typeof recentFailureColumns>;

/** The campaign's failed step sends, the most recent `limit` first, with the reason and the contacts' addresses. */
export async function recentFailedSends(q: Queryable, campaignId: string, limit: number): Promise<RecentFailureRow[]> {
  return executor(q).rows<RecentFailureRow>(
    `
        SELECT s."enrollmentId" AS enrollment_id, e."contactId" AS contact_id, c.email, s."stepPosition" AS step_position,
          s."lastError" AS reason, s."updatedAt" AS failed_at, (count(*) OVER ())::int AS failed_total
        FROM step_sends s
        JOIN enrollments e ON e.id = s."enrollmentId"
        JOIN contacts c ON c.id = e."contactId"
        WHERE s."campaignId" = $1::uuid AND s.state = 'failed'
        ORDER BY s."updatedAt" DESC, s.id DESC
        LIMIT $2`,
    [campaignId, limit],
  );
}

export const skipCountColumns = columns({ kind: "text", count: "int4" });
export type SkipCountRow = RowOf<typeof skipCountColumns>;

/** The campaign's enrollment skips per kind. */
export async function enrollmentSkipCounts(q: Queryable, campaignId: string): Promise<SkipCountRow[]> {
  return executor(q).rows<SkipCountRow>(
    `
        SELECT kind::text AS kind, count(*)::int AS count
        FROM enrollment_skips
        WHERE "campaignId" = $1::uuid
        GROUP BY kind`,
    [campaignId],
  );
}

export const variantStatsColumns = columns({ step_position: "int4", variant_id: "text", sent: "int4", bounced: "int4", opened: "int4", replied: "int4", clicked: "int4" });
export type VariantStatsRow = RowOf<typeof variantStatsColumns>;

/**
 * Per A/B variant of the campaign's steps: its sends that reached SMTP
 * (bounced among them) and the opens, replies and clicks credited to it (an
 * enrollment's first open, or its reply, its reply and its first click go to
 * the last step sent to it before that moment). A window over all its sends.
 */
export async function variantSendStats(q: Queryable, campaignId: string): Promise<VariantStatsRow[]> {
  return executor(q).rows<VariantStatsRow>(
    `
        WITH s AS (
          SELECT "enrollmentId", "stepPosition", "variantId", state, "sentAt",
            lead("sentAt") OVER (PARTITION BY "enrollmentId" ORDER BY "sentAt", "stepPosition") AS next_sent
          FROM step_sends
          WHERE "campaignId" = $1::uuid AND state IN ('sent', 'bounced') AND "sentAt" IS NOT NULL),
        credited AS (
          SELECT s."stepPosition", s."variantId", s.state, s."sentAt", s.next_sent,
            least(e."openedAt", e."repliedAt") AS opened_at, e."repliedAt" AS replied_at, e."clickedAt" AS clicked_at
          FROM s JOIN enrollments e ON e.id = s."enrollmentId"
          WHERE s."variantId" IS NOT NULL)
        SELECT "stepPosition" AS step_position, "variantId"::text AS variant_id,
          count(*)::int AS sent,
          count(*) FILTER (WHERE state = 'bounced')::int AS bounced,
          count(*) FILTER (WHERE opened_at >= "sentAt" AND (next_sent IS NULL OR opened_at < next_sent))::int AS opened,
          count(*) FILTER (WHERE replied_at >= "sentAt" AND (next_sent IS NULL OR replied_at < next_sent))::int AS replied,
          count(*) FILTER (WHERE clicked_at >= "sentAt" AND (next_sent IS NULL OR clicked_at < next_sent))::int AS clicked
        FROM credited
        GROUP BY 1, 2`,
    [campaignId],
  );
}
