-- GET /campaigns/:id lists a campaign's 20 latest bounces and failures: through indexes led by
-- ("campaignId", ...) it read and sorted all of them, a cost that grew with the campaign. These
-- partial indexes hold them in the order listed. Each build reads its table once (about 20 s per 20M
-- step sends) and holds writes to it meanwhile.
-- packages/db/sql: the current definitions of what changed there (see packages/db/sql/README.md)
-- packages/db/sql/indexes/enrollments.sql: index enrollments_recent_bounces_idx
DROP INDEX IF EXISTS "enrollments_recent_bounces_idx";
CREATE INDEX "enrollments_recent_bounces_idx" ON "enrollments" ("campaignId", "bouncedAt" DESC NULLS LAST, id DESC)
  WHERE status = 'bounced' OR "bouncedAt" IS NOT NULL;

-- packages/db/sql/indexes/step_sends.sql: index step_sends_recent_failures_idx
DROP INDEX IF EXISTS "step_sends_recent_failures_idx";
CREATE INDEX "step_sends_recent_failures_idx" ON "step_sends" ("campaignId", "updatedAt" DESC, id DESC)
  WHERE state = 'failed';
