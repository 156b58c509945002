-- GET /campaigns/:id counts a campaign's sends that reached SMTP per inbox (stepSendCredentialStats).
-- Through the ("campaignId", ...) indexes it read every one of those sends from the heap, a cost
-- that grows with the campaign: 220-320 ms for a campaign of 200,000 sends in a table of 1M
-- (bench/schedule-table.ts). This covering partial index answers it with an index-only scan in
-- inbox order (40-75 ms there); finished sends no longer change, so their pages stay all-visible.
-- Partitioning step_sends was not needed: every other hot statement already reads a partial index
-- of open sends or a range of one campaign (packages/db/test/hot-query-plans.test.ts).
-- The build holds writes to step_sends while it runs (about a minute per 20M rows): apply it in a quiet period.
-- packages/db/sql: the current definitions of what changed there (see packages/db/sql/README.md)
-- packages/db/sql/indexes/step_sends.sql: index step_sends_campaign_inbox_stats_idx
DROP INDEX IF EXISTS "step_sends_campaign_inbox_stats_idx";
CREATE INDEX "step_sends_campaign_inbox_stats_idx" ON "step_sends" ("campaignId", "credentialId")
  INCLUDE (state, outcome, "bounceUnverified", "sentAt", "stepPosition") WHERE state IN ('sent', 'bounced');
