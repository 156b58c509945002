-- AlterEnum
ALTER TYPE "SkipKind" ADD VALUE 'condition_not_met';

-- AlterEnum
ALTER TYPE "StepSendState" ADD VALUE 'skipped';

-- AlterTable
ALTER TABLE "campaigns" ADD COLUMN     "onCompletion" JSONB,
ADD COLUMN     "oooDaysAfterReturn" INTEGER NOT NULL DEFAULT 1,
ADD COLUMN     "oooDefaultDelayDays" INTEGER NOT NULL DEFAULT 3,
ADD COLUMN     "replyActions" JSONB,
ADD COLUMN     "stopOnClick" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "stopOnWrongPerson" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "unsubscribeOnRequest" BOOLEAN NOT NULL DEFAULT true;

-- AlterTable
ALTER TABLE "sequence_steps" ADD COLUMN     "condition" TEXT NOT NULL DEFAULT 'none';

-- AlterTable
ALTER TABLE "enrollments" ADD COLUMN     "completedAt" TIMESTAMPTZ(3),
ADD COLUMN     "movedFromEnrollmentId" UUID,
ADD COLUMN     "movedOnAt" TIMESTAMPTZ(3),
ADD COLUMN     "movedOnResult" TEXT,
ADD COLUMN     "resumeAt" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "inbound_messages" ADD COLUMN     "categorizedAt" TIMESTAMPTZ(3),
ADD COLUMN     "category" TEXT,
ADD COLUMN     "categorySource" TEXT;

-- CreateIndex
CREATE INDEX "inbound_messages_accountId_category_receivedAt_idx" ON "inbound_messages"("accountId", "category", "receivedAt");


-- packages/db/sql: the current definitions of what changed there (see packages/db/sql/README.md)
-- packages/db/sql/functions/release_due_sends.sql: function release_due_sends(p_account uuid,p_now timestamptz,p_limit int,p_prefer uuid,p_window int) returns table(id uuid,"accountId" uuid,"releasedAt" timestamptz,"credentialId" uuid,"accountWasIdle" boolean)
CREATE OR REPLACE FUNCTION release_due_sends(p_account uuid, p_now timestamptz, p_limit int, p_prefer uuid, p_window int)
RETURNS TABLE (id uuid, "accountId" uuid, "releasedAt" timestamptz, "credentialId" uuid, "accountWasIdle" boolean)
LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
BEGIN
  IF NOT pg_try_advisory_xact_lock(hashtext('release-sends'), hashtext(p_account::text)) THEN
    RETURN;
  END IF;
  IF EXISTS (SELECT 1 FROM accounts a WHERE a.id = p_account AND a."suspendedAt" IS NOT NULL) THEN
    RETURN;
  END IF;
  RETURN QUERY
    WITH load AS (
      SELECT s."credentialId", count(*)::int AS n FROM step_sends s
      WHERE s."accountId" = p_account AND s.state IN ('queued', 'sending') GROUP BY s."credentialId"),
    inflight AS (
      SELECT COALESCE(sum(load.n), 0)::int AS n FROM load),
    due AS (
      SELECT d.id, d."credentialId", d."dueAt"
      FROM campaigns c
      CROSS JOIN LATERAL (
        SELECT s.id, s."credentialId", s."dueAt" FROM step_sends s
        WHERE s."accountId" = p_account AND s."campaignId" = c.id AND s.state = 'scheduled' AND s."dueAt" <= p_now
          AND NOT EXISTS (
            SELECT 1 FROM step_sends p
            WHERE p."enrollmentId" = s."enrollmentId" AND p."stepPosition" < s."stepPosition" AND p.state NOT IN ('sent', 'skipped'))
        ORDER BY s."dueAt", s.id
        LIMIT GREATEST(p_window, p_limit)) d
      WHERE c."accountId" = p_account AND c.status = 'active' AND c."resumeReplanBefore" IS NULL
      ORDER BY d."dueAt", d.id
      LIMIT GREATEST(p_window, p_limit)),
    ranked AS (
      SELECT d.id, d."credentialId", d."dueAt",
        COALESCE((SELECT load.n FROM load WHERE load."credentialId" IS NOT DISTINCT FROM d."credentialId"), 0)
          + row_number() OVER (PARTITION BY d."credentialId" ORDER BY d."dueAt", d.id) AS slot
      FROM due d),
    picked AS (
      SELECT s.id FROM step_sends s JOIN ranked r ON r.id = s.id
      ORDER BY r.slot, (r."credentialId" IS NOT NULL AND r."credentialId" = p_prefer) DESC, r."dueAt", r.id
      LIMIT (SELECT GREATEST(0, p_limit - n) FROM inflight)
      FOR UPDATE OF s SKIP LOCKED)
    UPDATE step_sends AS u SET state = 'queued', "updatedAt" = p_now
    WHERE u.id IN (SELECT picked.id FROM picked)
    RETURNING u.id, u."accountId", u."updatedAt", u."credentialId", (SELECT inflight.n = 0 FROM inflight);
END
$$;

-- packages/db/sql/indexes/enrollments.sql: index enrollments_completed_idx
DROP INDEX IF EXISTS "enrollments_completed_idx";
CREATE INDEX "enrollments_completed_idx" ON "enrollments" ("campaignId", "completedAt")
  WHERE "completedAt" IS NOT NULL AND "movedOnAt" IS NULL AND "stoppedAt" IS NULL AND status IN ('sent', 'opened');

-- packages/db/sql/constraints/campaigns.sql: constraint campaigns.campaigns_ooo_days_check
ALTER TABLE IF EXISTS "campaigns" DROP CONSTRAINT IF EXISTS "campaigns_ooo_days_check";
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_ooo_days_check" CHECK ("oooDaysAfterReturn" BETWEEN 0 AND 365 AND "oooDefaultDelayDays" BETWEEN 0 AND 365);

-- packages/db/sql/constraints/inbound_messages.sql: constraint inbound_messages.inbound_messages_category_check
ALTER TABLE IF EXISTS "inbound_messages" DROP CONSTRAINT IF EXISTS "inbound_messages_category_check";
ALTER TABLE "inbound_messages" ADD CONSTRAINT "inbound_messages_category_check" CHECK (
  ("category" IS NULL OR "category" IN ('interested', 'not_interested', 'out_of_office', 'unsubscribe_request', 'wrong_person', 'other'))
  AND ("categorySource" IS NULL OR "categorySource" IN ('rules', 'model', 'manual')));

-- packages/db/sql/constraints/sequence_steps.sql: constraint sequence_steps.sequence_steps_condition_check
ALTER TABLE IF EXISTS "sequence_steps" DROP CONSTRAINT IF EXISTS "sequence_steps_condition_check";
ALTER TABLE "sequence_steps" ADD CONSTRAINT "sequence_steps_condition_check" CHECK ("condition" IN ('none', 'opened', 'not_opened', 'clicked', 'not_clicked') AND ("condition" = 'none' OR position >= 2));

-- Replies and auto-replies stored before categories: "other" by the rules (the classifier
-- reads what is stored, but an earlier reply's actions are not run again).
UPDATE "inbound_messages" SET "category" = 'other', "categorySource" = 'rules', "categorizedAt" = "receivedAt"
WHERE "kind" IN ('reply', 'auto_reply') AND "category" IS NULL;
