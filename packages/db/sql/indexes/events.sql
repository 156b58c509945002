-- events_undispatched_idx: the events not yet fanned out into webhook deliveries, oldest
-- first, which the outbox relay drains. A partial index: schema.prisma cannot declare its WHERE.
--
-- Used by: packages/domain/src/webhooks/relay-outbox.ts (relayOutboxBatch),
--   packages/domain/src/sending/backlog-metrics.ts (countOutboxBacklog)
-- Last changed by migration: 20261124001437_webhook_delivery
CREATE INDEX "events_undispatched_idx" ON "events"("createdAt", id) WHERE "dispatchedAt" IS NULL;
