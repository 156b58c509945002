-- packages/db/sql: the current definitions of what changed there (see packages/db/sql/README.md)
-- packages/db/sql/indexes/step_sends.sql: index step_sends_delivered_idx
DROP INDEX IF EXISTS "step_sends_delivered_idx";
CREATE INDEX "step_sends_delivered_idx" ON "step_sends" ("campaignId", "sentAt") INCLUDE ("stepPosition", "variantId")
  WHERE "sentAt" IS NOT NULL AND (state = 'sent' OR (state = 'bounced' AND "messageId" IS NOT NULL));

-- packages/db/sql/indexes/step_sends.sql: index step_sends_sent_enrollment_idx
DROP INDEX IF EXISTS "step_sends_sent_enrollment_idx";
CREATE INDEX "step_sends_sent_enrollment_idx" ON "step_sends" ("enrollmentId", "sentAt") INCLUDE ("stepPosition", "variantId")
  WHERE "sentAt" IS NOT NULL;
