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

/**
 * The campaign's enrollments per batch (in batch order): by current status, sent, ever opened,
 * replied and clicked, stopped. Read from campaign_batch_counts (kept by the enrollments
 * triggers, packages/db/sql/triggers/enrollments_count_changes.sql): the rows of the campaign,
 * one per batch once rolled up, so the cost does not grow with the campaign.
 */
export async function enrollmentBatchStats(q: Queryable, campaignId: string): Promise<BatchStatsRow[]> {
  return executor(q).rows<BatchStatsRow>(
    `
        SELECT "batchNumber" AS batch_number,
          sum(total)::int AS total, sum(pending)::int AS pending, sum(sent)::int AS sent, sum(opened)::int AS opened,
          sum(replied)::int AS replied, sum(bounced)::int AS bounced, sum(unsubscribed)::int AS unsubscribed,
          sum(delivered)::int AS delivered, sum("everOpened")::int AS ever_opened, sum("everReplied")::int AS ever_replied,
          sum("everClicked")::int AS ever_clicked, sum(stopped)::int AS stopped
        FROM campaign_batch_counts
        WHERE "campaignId" = $1::uuid
        GROUP BY "batchNumber"
        HAVING sum(total) <> 0
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
  failed: "int4",
  sends_today: "int4",
  step1_sends_today: "int4",
});
export type SendStatsRow = RowOf<typeof sendStatsColumns>;

/** The key of an inbox's counts: sends whose inbox was deleted (credentialId null) are counted together. */
const NO_INBOX = "'00000000-0000-0000-0000-000000000000'::uuid";

/**
 * The campaign's step sends per inbox: those that reached SMTP (sent or bounced), unconfirmed,
 * bounced (all, verified) and failed, from campaign_inbox_counts (kept by the step_sends
 * triggers), and those sent in [dayStart, dayEnd) (all, step 1) from that day's range of
 * step_sends_campaign_sent_day_idx: the cost is the day's sends, not the campaign's.
 */
export async function stepSendCredentialStats(q: Queryable, campaignId: string, dayStart: Date, dayEnd: Date): Promise<SendStatsRow[]> {
  return executor(q).rows<SendStatsRow>(
    `
        WITH counted AS (
          SELECT COALESCE("credentialId", ${NO_INBOX}) AS inbox, sum(sends)::int AS sends, sum(unconfirmed)::int AS unconfirmed,
            sum(bounces)::int AS bounces, sum("verifiedBounces")::int AS verified_bounces, sum(failed)::int AS failed
          FROM campaign_inbox_counts
          WHERE "campaignId" = $1::uuid
          GROUP BY 1
          HAVING sum(sends) <> 0 OR sum(failed) <> 0),
        today AS (
          SELECT COALESCE("credentialId", ${NO_INBOX}) AS inbox, count(*)::int AS sends_today, count(*) FILTER (WHERE "stepPosition" = 1)::int AS step1_sends_today
          FROM step_sends
          WHERE "campaignId" = $2::uuid AND state IN ('sent', 'bounced') AND "sentAt" >= $3::timestamptz AND "sentAt" < $4::timestamptz
          GROUP BY 1)
        SELECT NULLIF(COALESCE(c.inbox, t.inbox), ${NO_INBOX}) AS credential_id,
          COALESCE(c.sends, 0) AS sends, COALESCE(c.unconfirmed, 0) AS unconfirmed, COALESCE(c.bounces, 0) AS bounces,
          COALESCE(c.verified_bounces, 0) AS verified_bounces, COALESCE(c.failed, 0) AS failed,
          COALESCE(t.sends_today, 0) AS sends_today, COALESCE(t.step1_sends_today, 0) AS step1_sends_today
        FROM counted c FULL JOIN today t ON t.inbox = c.inbox`,
    [campaignId, campaignId, dayStart, dayEnd],
  );
}

export const campaignCountRollUpColumns = columns({ campaigns: "int4" });

/**
 * Sums the count rows of up to `limit` campaigns with rows added since their last roll-up
 * (campaign_batch_counts, campaign_inbox_counts) into one row per batch and per inbox, in one
 * statement: the rows it deletes are the ones it sums, so a row is never counted twice, and
 * rows a statement adds meanwhile wait for the next one; what the deleted rows add up to is
 * inserted whatever it is, so a roll-up that took part of a campaign's rows (its snapshot came
 * before another's commit) loses nothing. One roll-up at a time (a transaction advisory lock,
 * tried: every dispatcher replica runs them, and two deleting the same rows in different
 * orders could deadlock); one that finds it taken does nothing. Rows of a deleted campaign, or
 * summing to nothing in every count, are dropped. Returns the number of campaigns rolled up (of
 * both tables).
 */
export async function rollUpCampaignCounts(q: Queryable, limit: number): Promise<number> {
  const [row] = await executor(q).rows<RowOf<typeof campaignCountRollUpColumns>>(
    `
    WITH turn AS (SELECT pg_try_advisory_xact_lock(hashtext('campaign_counts_roll_up')) AS mine),
    batch_due AS (SELECT DISTINCT "campaignId" FROM (SELECT "campaignId" FROM campaign_batch_counts WHERE NOT rolled LIMIT $1) f WHERE (SELECT mine FROM turn)),
    batch_moved AS (
      DELETE FROM campaign_batch_counts t USING batch_due d WHERE t."campaignId" = d."campaignId"
      RETURNING t.*),
    batch_summed AS (
      INSERT INTO campaign_batch_counts ("campaignId", "batchNumber", total, pending, sent, opened, replied, bounced, unsubscribed,
        delivered, "everOpened", "everReplied", "everClicked", stopped, rolled)
      SELECT m."campaignId", m."batchNumber", sum(total), sum(pending), sum(sent), sum(opened), sum(replied), sum(bounced), sum(unsubscribed),
        sum(delivered), sum("everOpened"), sum("everReplied"), sum("everClicked"), sum(stopped), true
      FROM batch_moved m
      WHERE EXISTS (SELECT 1 FROM campaigns k WHERE k.id = m."campaignId")
      GROUP BY m."campaignId", m."batchNumber"
      -- only rows summing to nothing in every count are dropped: the rows deleted may be part of a
      -- batch only (another roll-up, whose snapshot came first, took the rest), and what they add
      -- up to is kept whatever it is
      HAVING sum(total) <> 0 OR sum(pending) <> 0 OR sum(sent) <> 0 OR sum(opened) <> 0 OR sum(replied) <> 0 OR sum(bounced) <> 0
        OR sum(unsubscribed) <> 0 OR sum(delivered) <> 0 OR sum("everOpened") <> 0 OR sum("everReplied") <> 0 OR sum("everClicked") <> 0 OR sum(stopped) <> 0
      RETURNING 1),
    inbox_due AS (SELECT DISTINCT "campaignId" FROM (SELECT "campaignId" FROM campaign_inbox_counts WHERE NOT rolled LIMIT $2) f WHERE (SELECT mine FROM turn)),
    inbox_moved AS (
      DELETE FROM campaign_inbox_counts t USING inbox_due d WHERE t."campaignId" = d."campaignId"
      RETURNING t.*),
    inbox_summed AS (
      INSERT INTO campaign_inbox_counts ("campaignId", "credentialId", sends, unconfirmed, bounces, "verifiedBounces", failed, rolled)
      SELECT m."campaignId", m."credentialId", sum(sends), sum(unconfirmed), sum(bounces), sum("verifiedBounces"), sum(failed), true
      FROM inbox_moved m
      WHERE EXISTS (SELECT 1 FROM campaigns k WHERE k.id = m."campaignId")
      GROUP BY m."campaignId", m."credentialId"
      HAVING sum(sends) <> 0 OR sum(unconfirmed) <> 0 OR sum(bounces) <> 0 OR sum("verifiedBounces") <> 0 OR sum(failed) <> 0
      RETURNING 1)
    SELECT ((SELECT count(*) FROM batch_due) + (SELECT count(*) FROM inbox_due))::int AS campaigns`,
    [limit, limit],
  );
  return row?.campaigns ?? 0;
}

/**
 * Counts every campaign's enrollments and step sends whole into campaign_batch_counts and
 * campaign_inbox_counts (rolled up), replacing what they held: what the migration
 * campaign_counts did, for a bulk load made with the count triggers disabled. Run it with
 * writes to enrollments and step_sends held (the caller's lock), or the counts miss them.
 */
export async function recountCampaignCounts(q: Queryable): Promise<void> {
  const ex = executor(q);
  await ex.execute(`DELETE FROM campaign_batch_counts`);
  await ex.execute(`DELETE FROM campaign_inbox_counts`);
  await ex.execute(
    `
    INSERT INTO campaign_batch_counts ("campaignId", "batchNumber", total, pending, sent, opened, replied, bounced, unsubscribed,
      delivered, "everOpened", "everReplied", "everClicked", stopped, rolled)
    SELECT "campaignId", "batchNumber", count(*),
      count(*) FILTER (WHERE status = 'pending' AND "stoppedAt" IS NULL), count(*) FILTER (WHERE status = 'sent'),
      count(*) FILTER (WHERE status = 'opened'), count(*) FILTER (WHERE status = 'replied'), count(*) FILTER (WHERE status = 'bounced'),
      count(*) FILTER (WHERE status = 'unsubscribed'), count(*) FILTER (WHERE "sentAt" IS NOT NULL),
      count(*) FILTER (WHERE "sentAt" IS NOT NULL AND ("openedAt" IS NOT NULL OR "repliedAt" IS NOT NULL)),
      count(*) FILTER (WHERE "sentAt" IS NOT NULL AND "repliedAt" IS NOT NULL), count(*) FILTER (WHERE "sentAt" IS NOT NULL AND "clickedAt" IS NOT NULL),
      count(*) FILTER (WHERE "stoppedAt" IS NOT NULL), true
    FROM enrollments
    GROUP BY "campaignId", "batchNumber"`,
  );
  await ex.execute(
    `
    INSERT INTO campaign_inbox_counts ("campaignId", "credentialId", sends, unconfirmed, bounces, "verifiedBounces", failed, rolled)
    SELECT "campaignId", "credentialId", count(*) FILTER (WHERE state IN ('sent', 'bounced')),
      count(*) FILTER (WHERE state IN ('sent', 'bounced') AND outcome = 'unknown'), count(*) FILTER (WHERE state = 'bounced'),
      count(*) FILTER (WHERE state = 'bounced' AND NOT "bounceUnverified"), count(*) FILTER (WHERE state = 'failed'), true
    FROM step_sends
    WHERE state IN ('sent', 'bounced', 'failed')
    GROUP BY "campaignId", "credentialId"`,
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

export const recentFailureColumns = columns({
  enrollment_id: "uuid",
  contact_id: "uuid",
  email: "text",
  step_position: "int4",
  reason: "text?",
  failed_at: "timestamptz",
});
export type RecentFailureRow = RowOf<typeof recentFailureColumns>;

/** The campaign's failed step sends, the most recent `limit` first, with the reason and the contacts' addresses. */
export async function recentFailedSends(q: Queryable, campaignId: string, limit: number): Promise<RecentFailureRow[]> {
  return executor(q).rows<RecentFailureRow>(
    `
        SELECT s."enrollmentId" AS enrollment_id, e."contactId" AS contact_id, c.email, s."stepPosition" AS step_position,
          s."lastError" AS reason, s."updatedAt" AS failed_at
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
