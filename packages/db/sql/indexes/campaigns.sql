-- Partial indexes of campaigns (schema.prisma cannot declare a WHERE).

-- campaigns_active_idx: an account's active campaigns, the only ones whose sends are released.
-- Used by: packages/db/sql/functions/release_due_sends.sql,
--   packages/domain/src/sending/backlog-metrics.ts (scheduleLagSeconds),
--   k8s/components/keda/sender-scaledobject.yaml, k8s/components/keda/imap-poller-scaledobject.yaml
-- Last changed by migration: 20261124052956_feeder_idempotency_retention
CREATE INDEX "campaigns_active_idx" ON "campaigns" ("accountId") WHERE status = 'active';

-- campaigns_resume_replan_idx: the few campaigns whose held sends are being re-planned after a
-- resume, for the sweep that (re-)enqueues unfinished re-plans.
-- Used by: apps/dispatcher/src/replan-sweep.ts
-- Last changed by migration: 20261124053043_held_sends_replan
CREATE INDEX "campaigns_resume_replan_idx" ON "campaigns" ("resumeReplanBefore") WHERE "resumeReplanBefore" IS NOT NULL;
