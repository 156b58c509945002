-- enrollments_dispatch_page_idx: a batch's enrollments still to dispatch, in the batch's order
-- (priority first). Dispatch plans a batch in pages: the next page is the first rows of this
-- index, and a dispatched or stopped enrollment (a colleague's reply, a block) leaves it, so a
-- page costs its own size however far the batch has gone, and a restarted job starts where
-- the committed pages stopped. Partial and with a DESC column: schema.prisma cannot declare it.
--
-- Used by: apps/dispatcher/src/dispatch-batch.ts (PENDING_IN_ORDER),
--   apps/api/src/services/forecast-sends.ts
-- Last changed by migration: 20261124102930_issue15_sequence_features
CREATE INDEX "enrollments_dispatch_page_idx" ON "enrollments" ("campaignId", "batchNumber", priority DESC, "createdAt", id)
  WHERE status = 'pending' AND "dispatchedAt" IS NULL AND "stoppedAt" IS NULL;

-- enrollments_completed_idx: enrollments that finished every step without an answer and were
-- not moved on yet, by campaign: the on_completion sweep reads the due ones of the campaigns
-- that have on_completion, and an enrollment leaves the index when it is moved (or replies,
-- bounces, unsubscribes, stops).
-- Used by: packages/db/src/queries/enrollment-moves.ts (lockNextDueCompletedEnrollment, the on_completion sweep's statement)
-- Last changed by migration: 20261126151750_issue27_sequences_read_replies
CREATE INDEX "enrollments_completed_idx" ON "enrollments" ("campaignId", "completedAt")
  WHERE "completedAt" IS NOT NULL AND "movedOnAt" IS NULL AND "stoppedAt" IS NULL AND status IN ('sent', 'opened');

-- enrollments_recent_bounces_idx: a campaign's bounced enrollments, the most recent first, as
-- GET /campaigns/:id lists them (recent_bounces): the first 20 entries, however many bounced.
-- Used by: packages/db/src/queries/campaign-stats.ts (recentBouncedEnrollments)
-- Last changed by migration: 20261127034857_campaign_stats_recent_indexes
CREATE INDEX "enrollments_recent_bounces_idx" ON "enrollments" ("campaignId", "bouncedAt" DESC NULLS LAST, id DESC)
  WHERE status = 'bounced' OR "bouncedAt" IS NOT NULL;
