-- AlterTable
ALTER TABLE "idempotency_records" ADD COLUMN     "heartbeatAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- AlterTable
ALTER TABLE "step_sends" ADD COLUMN     "releaseFailures" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex
CREATE INDEX "request_logs_createdAt_idx" ON "request_logs"("createdAt");

-- CreateIndex
CREATE INDEX "webhook_deliveries_eventId_idx" ON "webhook_deliveries"("eventId");

-- CreateIndex
CREATE INDEX "webhook_deliveries_completedAt_idx" ON "webhook_deliveries"("completedAt");


-- The feeder's skip scan walks the distinct (account, campaign) pairs that have
-- scheduled sends, one index probe each (the first entry of a pair is its
-- earliest due send), and skips pairs of campaigns that are not active: a
-- paused campaign costs one probe per tick, not a scan of its due sends. The
-- release then reads an account's due sends campaign by campaign, active
-- campaigns only. This index replaces step_sends_due_idx ("accountId", "dueAt", id).
CREATE INDEX "step_sends_due_campaign_idx" ON "step_sends" ("accountId", "campaignId", "dueAt", id) WHERE state = 'scheduled';
DROP INDEX IF EXISTS "step_sends_due_idx";
CREATE INDEX "campaigns_active_idx" ON "campaigns" ("accountId") WHERE status = 'active';
-- The release counts the account's sends in flight. Through ("accountId", state, "dueAt")
-- the planner may read every send the account ever had and filter on state
-- (seen: 6,000 rows read for a count of 0); this index holds only sends in flight.
CREATE INDEX "step_sends_inflight_account_idx" ON "step_sends" ("accountId") WHERE state IN ('queued', 'sending');

-- release_due_sends reads through these indexes: see migration release_waits_for_resume_replan.
