-- Check constraints of campaigns: text columns that take a few values (schema.prisma has no
-- CHECK). The API validates the same values first; these keep any other writer honest.

-- campaigns_jitterScope_check: the random wait between step-1 sends is drawn per batch or per inbox.
-- Used by: apps/api/src/schemas/send-settings.ts (the allowed values),
--   apps/api/src/services/create-campaign.ts, apps/api/src/services/update-campaign.ts,
--   packages/domain/src/sending/schedule-enrollments.ts (reads it)
-- Last changed by migration: 20261124061250_send_schedule_and_ramp
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_jitterScope_check" CHECK ("jitterScope" IN ('batch', 'inbox'));

-- campaigns_stopOnReplyScope_check: a reply stops the replying contact's sequence, or every
-- contact of the same domain.
-- Used by: apps/api/src/schemas/campaign.ts (the allowed values),
--   apps/api/src/services/create-campaign.ts, apps/api/src/services/update-campaign.ts,
--   packages/domain/src/inbound/record-inbound-message.ts (reads it)
-- Last changed by migration: 20261124102930_issue15_sequence_features
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_stopOnReplyScope_check" CHECK ("stopOnReplyScope" IN ('contact', 'domain'));

-- campaigns_ooo_days_check: the out-of-office waits are whole days, at most a year.
-- Used by: apps/api/src/schemas/campaign.ts (the allowed range),
--   packages/domain/src/inbound/record-inbound-message.ts (reads them)
-- Last changed by migration: 20261126151750_issue27_sequences_read_replies
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_ooo_days_check" CHECK ("oooDaysAfterReturn" BETWEEN 0 AND 365 AND "oooDefaultDelayDays" BETWEEN 0 AND 365);

-- campaigns_daily_limit_check: the campaign-wide cap of step-1 sends per day is off (null) or at least 1.
-- Used by: apps/api/src/schemas/campaign.ts (the allowed range),
--   packages/domain/src/sending/daily-limit.ts (reads it)
-- Last changed by migration: 20261126185902_issue28_careful_sender_controls
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_daily_limit_check" CHECK ("dailyLimit" IS NULL OR "dailyLimit" >= 1);
