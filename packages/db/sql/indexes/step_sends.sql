-- Partial indexes of step_sends (schema.prisma cannot declare a WHERE): each holds only the
-- rows in one state, so it stays small however many sends are done.

-- step_sends_inflight_idx: sends queued or sending by age, for the sweep that finds sends
-- whose job was lost (a crashed process, a job gone from Redis).
-- Used by: packages/domain/src/sending/requeue-lost-sends.ts (staleQueuedSends)
-- Last changed by migration: 20261121223000_feeder_indexes
CREATE INDEX "step_sends_inflight_idx" ON "step_sends" ("updatedAt") WHERE state IN ('queued', 'sending');

-- step_sends_due_campaign_idx: scheduled sends by (account, campaign, due time, id). The
-- feeder's skip scan walks the distinct (account, campaign) pairs, one probe each (a pair's
-- first entry is its earliest due send), stepping over campaigns that are not active with
-- that one probe; the release reads an account's due sends campaign by campaign from it.
-- Replaced step_sends_due_idx ("accountId", "dueAt", id).
-- Used by: packages/domain/src/sending/release-due-sends.ts (accountsWithDueSends),
--   packages/db/sql/functions/release_due_sends.sql, packages/domain/src/sending/backlog-metrics.ts
--   (scheduleLagSeconds), packages/domain/src/operations/schedule-overview.ts,
--   k8s/components/keda/sender-scaledobject.yaml
-- Last changed by migration: 20261124052956_feeder_idempotency_retention
CREATE INDEX "step_sends_due_campaign_idx" ON "step_sends" ("accountId", "campaignId", "dueAt", id) WHERE state = 'scheduled';

-- step_sends_inflight_account_idx: an account's sends in flight. Through ("accountId", state,
-- "dueAt") the planner may read every send the account ever had and filter on state (seen:
-- 6,000 rows read for a count of 0); this index holds only sends in flight.
-- Used by: packages/db/sql/functions/release_due_sends.sql (the account's load),
--   packages/domain/src/operations/schedule-overview.ts, k8s/components/keda/sender-scaledobject.yaml
-- Last changed by migration: 20261124052956_feeder_idempotency_retention
CREATE INDEX "step_sends_inflight_account_idx" ON "step_sends" ("accountId") WHERE state IN ('queued', 'sending');

-- step_sends_held_step1_idx: a campaign's held step-1 sends in due order: the chunks of a
-- re-plan (a resume, a disabled inbox, changed send settings) and the count a resume answers with.
-- Used by: packages/domain/src/sending/schedule-enrollments.ts, apps/api/src/services/resume-campaign.ts,
--   apps/api/src/services/replan-after-settings-change.ts
-- Last changed by migration: 20261124053043_held_sends_replan
CREATE INDEX "step_sends_held_step1_idx" ON "step_sends" ("campaignId", "dueAt", id)
  WHERE state = 'scheduled' AND "stepPosition" = 1;

-- step_sends_delivered_idx: a campaign's sends delivered to SMTP (sent, or bounced after being
-- sent: a send refused during the SMTP session has no Message-ID) by send time, with the step and
-- A/B variant: GET /campaigns/:id/analytics counts them per step, variant and day (a range per day)
-- with an index-only scan instead of reading every send of the table's pages (measured at 1M sends:
-- bench/results/campaign-analytics.json).
-- Used by: packages/db/src/queries/campaign-analytics.ts (campaignSendCounts, campaignDailySendCounts)
-- Last changed by migration: 20261126153503_issue27_analytics_indexes
CREATE INDEX "step_sends_delivered_idx" ON "step_sends" ("campaignId", "sentAt") INCLUDE ("stepPosition", "variantId")
  WHERE "sentAt" IS NOT NULL AND (state = 'sent' OR (state = 'bounced' AND "messageId" IS NOT NULL));

-- step_sends_sent_enrollment_idx: an enrollment's sends that reached SMTP by send time, with the
-- step and A/B variant: the analytics credit each open, click, reply, bounce and unsubscribe to the
-- step last sent before it, one index-only probe per event (through the unique
-- ("enrollmentId", "stepPosition") index every probe read and sorted the enrollment's rows).
-- Used by: packages/db/src/queries/campaign-analytics.ts (campaignEventCounts)
-- Last changed by migration: 20261126153503_issue27_analytics_indexes
CREATE INDEX "step_sends_sent_enrollment_idx" ON "step_sends" ("enrollmentId", "sentAt") INCLUDE ("stepPosition", "variantId")
  WHERE "sentAt" IS NOT NULL;

-- step_sends_campaign_sent_day_idx: a campaign's sends that reached SMTP (sent or bounced) by send
-- time, with the inbox and step: GET /campaigns/:id counts today's sends per inbox (and step 1's)
-- from the day's range, an index-only scan as long as the day's sends. Its totals come from
-- campaign_inbox_counts (step_sends_count_changes), so no read grows with the campaign.
-- Used by: packages/db/src/queries/campaign-stats.ts (stepSendCredentialStats)
-- Last changed by migration: 20261127032821_campaign_counts
CREATE INDEX "step_sends_campaign_sent_day_idx" ON "step_sends" ("campaignId", "sentAt") INCLUDE ("credentialId", "stepPosition")
  WHERE state IN ('sent', 'bounced');

-- step_sends_recent_failures_idx: a campaign's failed sends, the most recent first, as
-- GET /campaigns/:id lists them (recent_failures): the first 20 entries, however many failed
-- (their number comes from campaign_inbox_counts).
-- Used by: packages/db/src/queries/campaign-stats.ts (recentFailedSends)
-- Last changed by migration: 20261127034857_campaign_stats_recent_indexes
CREATE INDEX "step_sends_recent_failures_idx" ON "step_sends" ("campaignId", "updatedAt" DESC, id DESC)
  WHERE state = 'failed';
