-- webhook_deliveries_pending_idx: pending deliveries by (account, next attempt). The deliverer
-- finds the accounts with pending deliveries by skipping through it (one probe per account)
-- and claims an account's due ones from it. A partial index: schema.prisma cannot declare its WHERE.
--
-- Used by: packages/domain/src/webhooks/delivery-feed.ts,
--   packages/domain/src/sending/backlog-metrics.ts (countOutboxBacklog)
-- Last changed by migration: 20261124025812_webhook_feed
CREATE INDEX "webhook_deliveries_pending_idx" ON "webhook_deliveries"("accountId", "nextAttemptAt") WHERE state = 'pending';
