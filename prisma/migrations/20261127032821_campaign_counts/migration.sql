-- GET /campaigns/:id counted a campaign's enrollments and sends on every read, a cost that grew
-- with the campaign (2M sends: 3.2 s; bench/results/schedule-table.json). The counts are now kept
-- by statement-level triggers on enrollments and step_sends (one row per changed batch or inbox
-- per statement, summed by the dispatcher's roll-up), so a read sums a handful of rows.
-- The triggers are created, and the counts of the rows already there taken, in this migration's
-- transaction: CREATE TRIGGER holds writes to both tables until it commits, so no change is
-- counted twice or missed. About a minute per 20M step sends: apply it in a quiet period.
-- packages/db/sql: objects no longer defined there
-- was in packages/db/sql/indexes/step_sends.sql: index step_sends_campaign_inbox_stats_idx
DROP INDEX IF EXISTS "step_sends_campaign_inbox_stats_idx";

-- CreateTable
CREATE TABLE "campaign_batch_counts" (
    "id" BIGSERIAL NOT NULL,
    "campaignId" UUID NOT NULL,
    "batchNumber" INTEGER NOT NULL,
    "total" INTEGER NOT NULL,
    "pending" INTEGER NOT NULL,
    "sent" INTEGER NOT NULL,
    "opened" INTEGER NOT NULL,
    "replied" INTEGER NOT NULL,
    "bounced" INTEGER NOT NULL,
    "unsubscribed" INTEGER NOT NULL,
    "delivered" INTEGER NOT NULL,
    "everOpened" INTEGER NOT NULL,
    "everReplied" INTEGER NOT NULL,
    "everClicked" INTEGER NOT NULL,
    "stopped" INTEGER NOT NULL,
    "rolled" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "campaign_batch_counts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "campaign_inbox_counts" (
    "id" BIGSERIAL NOT NULL,
    "campaignId" UUID NOT NULL,
    "credentialId" UUID,
    "sends" INTEGER NOT NULL,
    "unconfirmed" INTEGER NOT NULL,
    "bounces" INTEGER NOT NULL,
    "verifiedBounces" INTEGER NOT NULL,
    "failed" INTEGER NOT NULL,
    "rolled" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "campaign_inbox_counts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "campaign_batch_counts_campaignId_idx" ON "campaign_batch_counts"("campaignId");

-- CreateIndex
CREATE INDEX "campaign_inbox_counts_campaignId_idx" ON "campaign_inbox_counts"("campaignId");


-- packages/db/sql: the current definitions of what changed there (see packages/db/sql/README.md)
-- packages/db/sql/indexes/campaign_counts.sql: index campaign_batch_counts_fresh_idx
DROP INDEX IF EXISTS "campaign_batch_counts_fresh_idx";
CREATE INDEX "campaign_batch_counts_fresh_idx" ON "campaign_batch_counts" ("campaignId") WHERE NOT rolled;

-- packages/db/sql/indexes/campaign_counts.sql: index campaign_inbox_counts_fresh_idx
DROP INDEX IF EXISTS "campaign_inbox_counts_fresh_idx";
CREATE INDEX "campaign_inbox_counts_fresh_idx" ON "campaign_inbox_counts" ("campaignId") WHERE NOT rolled;

-- packages/db/sql/indexes/step_sends.sql: index step_sends_campaign_sent_day_idx
DROP INDEX IF EXISTS "step_sends_campaign_sent_day_idx";
CREATE INDEX "step_sends_campaign_sent_day_idx" ON "step_sends" ("campaignId", "sentAt") INCLUDE ("credentialId", "stepPosition")
  WHERE state IN ('sent', 'bounced');

-- packages/db/sql/triggers/enrollments_count_changes.sql: function count_enrollment_changes() returns trigger
CREATE OR REPLACE FUNCTION "count_enrollment_changes"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO campaign_batch_counts ("campaignId", "batchNumber", "total", "pending", "sent", "opened", "replied", "bounced", "unsubscribed", "delivered", "everOpened", "everReplied", "everClicked", "stopped")
    SELECT c."campaignId", c."batchNumber", sum(sign * "total"), sum(sign * "pending"), sum(sign * "sent"), sum(sign * "opened"), sum(sign * "replied"), sum(sign * "bounced"), sum(sign * "unsubscribed"), sum(sign * "delivered"), sum(sign * "everOpened"), sum(sign * "everReplied"), sum(sign * "everClicked"), sum(sign * "stopped")
    FROM (
      SELECT 1 AS sign, "campaignId", "batchNumber", 1 AS "total", (status = 'pending' AND "stoppedAt" IS NULL)::int AS "pending", (status = 'sent')::int AS "sent", (status = 'opened')::int AS "opened", (status = 'replied')::int AS "replied", (status = 'bounced')::int AS "bounced", (status = 'unsubscribed')::int AS "unsubscribed", ("sentAt" IS NOT NULL)::int AS "delivered", ("sentAt" IS NOT NULL AND ("openedAt" IS NOT NULL OR "repliedAt" IS NOT NULL))::int AS "everOpened", ("sentAt" IS NOT NULL AND "repliedAt" IS NOT NULL)::int AS "everReplied", ("sentAt" IS NOT NULL AND "clickedAt" IS NOT NULL)::int AS "everClicked", ("stoppedAt" IS NOT NULL)::int AS "stopped" FROM new_rows
    ) c
    WHERE EXISTS (SELECT 1 FROM campaigns k WHERE k.id = c."campaignId")
    GROUP BY c."campaignId", c."batchNumber"
    HAVING sum(sign * "total") <> 0 OR sum(sign * "pending") <> 0 OR sum(sign * "sent") <> 0 OR sum(sign * "opened") <> 0 OR sum(sign * "replied") <> 0 OR sum(sign * "bounced") <> 0 OR sum(sign * "unsubscribed") <> 0 OR sum(sign * "delivered") <> 0 OR sum(sign * "everOpened") <> 0 OR sum(sign * "everReplied") <> 0 OR sum(sign * "everClicked") <> 0 OR sum(sign * "stopped") <> 0;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO campaign_batch_counts ("campaignId", "batchNumber", "total", "pending", "sent", "opened", "replied", "bounced", "unsubscribed", "delivered", "everOpened", "everReplied", "everClicked", "stopped")
    SELECT c."campaignId", c."batchNumber", sum(sign * "total"), sum(sign * "pending"), sum(sign * "sent"), sum(sign * "opened"), sum(sign * "replied"), sum(sign * "bounced"), sum(sign * "unsubscribed"), sum(sign * "delivered"), sum(sign * "everOpened"), sum(sign * "everReplied"), sum(sign * "everClicked"), sum(sign * "stopped")
    FROM (
      SELECT 1 AS sign, "campaignId", "batchNumber", 1 AS "total", (status = 'pending' AND "stoppedAt" IS NULL)::int AS "pending", (status = 'sent')::int AS "sent", (status = 'opened')::int AS "opened", (status = 'replied')::int AS "replied", (status = 'bounced')::int AS "bounced", (status = 'unsubscribed')::int AS "unsubscribed", ("sentAt" IS NOT NULL)::int AS "delivered", ("sentAt" IS NOT NULL AND ("openedAt" IS NOT NULL OR "repliedAt" IS NOT NULL))::int AS "everOpened", ("sentAt" IS NOT NULL AND "repliedAt" IS NOT NULL)::int AS "everReplied", ("sentAt" IS NOT NULL AND "clickedAt" IS NOT NULL)::int AS "everClicked", ("stoppedAt" IS NOT NULL)::int AS "stopped" FROM new_rows
      UNION ALL
      SELECT -1 AS sign, "campaignId", "batchNumber", 1 AS "total", (status = 'pending' AND "stoppedAt" IS NULL)::int AS "pending", (status = 'sent')::int AS "sent", (status = 'opened')::int AS "opened", (status = 'replied')::int AS "replied", (status = 'bounced')::int AS "bounced", (status = 'unsubscribed')::int AS "unsubscribed", ("sentAt" IS NOT NULL)::int AS "delivered", ("sentAt" IS NOT NULL AND ("openedAt" IS NOT NULL OR "repliedAt" IS NOT NULL))::int AS "everOpened", ("sentAt" IS NOT NULL AND "repliedAt" IS NOT NULL)::int AS "everReplied", ("sentAt" IS NOT NULL AND "clickedAt" IS NOT NULL)::int AS "everClicked", ("stoppedAt" IS NOT NULL)::int AS "stopped" FROM old_rows
    ) c
    WHERE EXISTS (SELECT 1 FROM campaigns k WHERE k.id = c."campaignId")
    GROUP BY c."campaignId", c."batchNumber"
    HAVING sum(sign * "total") <> 0 OR sum(sign * "pending") <> 0 OR sum(sign * "sent") <> 0 OR sum(sign * "opened") <> 0 OR sum(sign * "replied") <> 0 OR sum(sign * "bounced") <> 0 OR sum(sign * "unsubscribed") <> 0 OR sum(sign * "delivered") <> 0 OR sum(sign * "everOpened") <> 0 OR sum(sign * "everReplied") <> 0 OR sum(sign * "everClicked") <> 0 OR sum(sign * "stopped") <> 0;
  ELSE
    INSERT INTO campaign_batch_counts ("campaignId", "batchNumber", "total", "pending", "sent", "opened", "replied", "bounced", "unsubscribed", "delivered", "everOpened", "everReplied", "everClicked", "stopped")
    SELECT c."campaignId", c."batchNumber", sum(sign * "total"), sum(sign * "pending"), sum(sign * "sent"), sum(sign * "opened"), sum(sign * "replied"), sum(sign * "bounced"), sum(sign * "unsubscribed"), sum(sign * "delivered"), sum(sign * "everOpened"), sum(sign * "everReplied"), sum(sign * "everClicked"), sum(sign * "stopped")
    FROM (
      SELECT -1 AS sign, "campaignId", "batchNumber", 1 AS "total", (status = 'pending' AND "stoppedAt" IS NULL)::int AS "pending", (status = 'sent')::int AS "sent", (status = 'opened')::int AS "opened", (status = 'replied')::int AS "replied", (status = 'bounced')::int AS "bounced", (status = 'unsubscribed')::int AS "unsubscribed", ("sentAt" IS NOT NULL)::int AS "delivered", ("sentAt" IS NOT NULL AND ("openedAt" IS NOT NULL OR "repliedAt" IS NOT NULL))::int AS "everOpened", ("sentAt" IS NOT NULL AND "repliedAt" IS NOT NULL)::int AS "everReplied", ("sentAt" IS NOT NULL AND "clickedAt" IS NOT NULL)::int AS "everClicked", ("stoppedAt" IS NOT NULL)::int AS "stopped" FROM old_rows
    ) c
    WHERE EXISTS (SELECT 1 FROM campaigns k WHERE k.id = c."campaignId")
    GROUP BY c."campaignId", c."batchNumber"
    HAVING sum(sign * "total") <> 0 OR sum(sign * "pending") <> 0 OR sum(sign * "sent") <> 0 OR sum(sign * "opened") <> 0 OR sum(sign * "replied") <> 0 OR sum(sign * "bounced") <> 0 OR sum(sign * "unsubscribed") <> 0 OR sum(sign * "delivered") <> 0 OR sum(sign * "everOpened") <> 0 OR sum(sign * "everReplied") <> 0 OR sum(sign * "everClicked") <> 0 OR sum(sign * "stopped") <> 0;
  END IF;
  RETURN NULL;
END;
$$;

-- packages/db/sql/triggers/enrollments_count_changes.sql: trigger enrollments.enrollments_count_inserts
DROP TRIGGER IF EXISTS "enrollments_count_inserts" ON "enrollments";
CREATE TRIGGER "enrollments_count_inserts" AFTER INSERT ON "enrollments" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "count_enrollment_changes"();

-- packages/db/sql/triggers/enrollments_count_changes.sql: trigger enrollments.enrollments_count_updates
DROP TRIGGER IF EXISTS "enrollments_count_updates" ON "enrollments";
CREATE TRIGGER "enrollments_count_updates" AFTER UPDATE ON "enrollments" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "count_enrollment_changes"();

-- packages/db/sql/triggers/enrollments_count_changes.sql: trigger enrollments.enrollments_count_deletes
DROP TRIGGER IF EXISTS "enrollments_count_deletes" ON "enrollments";
CREATE TRIGGER "enrollments_count_deletes" AFTER DELETE ON "enrollments" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "count_enrollment_changes"();

-- packages/db/sql/triggers/enrollments_count_changes.sql: function drop_campaign_counts() returns trigger
CREATE OR REPLACE FUNCTION "drop_campaign_counts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM campaign_batch_counts WHERE "campaignId" IN (SELECT id FROM old_rows);
  DELETE FROM campaign_inbox_counts WHERE "campaignId" IN (SELECT id FROM old_rows);
  RETURN NULL;
END;
$$;

-- packages/db/sql/triggers/enrollments_count_changes.sql: trigger campaigns.campaigns_drop_counts
DROP TRIGGER IF EXISTS "campaigns_drop_counts" ON "campaigns";
CREATE TRIGGER "campaigns_drop_counts" AFTER DELETE ON "campaigns" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "drop_campaign_counts"();

-- packages/db/sql/triggers/step_sends_count_changes.sql: function count_step_send_changes() returns trigger
CREATE OR REPLACE FUNCTION "count_step_send_changes"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO campaign_inbox_counts ("campaignId", "credentialId", "sends", "unconfirmed", "bounces", "verifiedBounces", "failed")
    SELECT c."campaignId", c."credentialId", sum(sign * "sends"), sum(sign * "unconfirmed"), sum(sign * "bounces"), sum(sign * "verifiedBounces"), sum(sign * "failed")
    FROM (
      SELECT 1 AS sign, "campaignId", "credentialId", (state IN ('sent', 'bounced'))::int AS "sends", (state IN ('sent', 'bounced') AND outcome IS NOT DISTINCT FROM 'unknown')::int AS "unconfirmed", (state = 'bounced')::int AS "bounces", (state = 'bounced' AND NOT "bounceUnverified")::int AS "verifiedBounces", (state = 'failed')::int AS "failed" FROM new_rows
    ) c
    WHERE EXISTS (SELECT 1 FROM campaigns k WHERE k.id = c."campaignId")
    GROUP BY c."campaignId", c."credentialId"
    HAVING sum(sign * "sends") <> 0 OR sum(sign * "unconfirmed") <> 0 OR sum(sign * "bounces") <> 0 OR sum(sign * "verifiedBounces") <> 0 OR sum(sign * "failed") <> 0;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO campaign_inbox_counts ("campaignId", "credentialId", "sends", "unconfirmed", "bounces", "verifiedBounces", "failed")
    SELECT c."campaignId", c."credentialId", sum(sign * "sends"), sum(sign * "unconfirmed"), sum(sign * "bounces"), sum(sign * "verifiedBounces"), sum(sign * "failed")
    FROM (
      SELECT 1 AS sign, "campaignId", "credentialId", (state IN ('sent', 'bounced'))::int AS "sends", (state IN ('sent', 'bounced') AND outcome IS NOT DISTINCT FROM 'unknown')::int AS "unconfirmed", (state = 'bounced')::int AS "bounces", (state = 'bounced' AND NOT "bounceUnverified")::int AS "verifiedBounces", (state = 'failed')::int AS "failed" FROM new_rows
      UNION ALL
      SELECT -1 AS sign, "campaignId", "credentialId", (state IN ('sent', 'bounced'))::int AS "sends", (state IN ('sent', 'bounced') AND outcome IS NOT DISTINCT FROM 'unknown')::int AS "unconfirmed", (state = 'bounced')::int AS "bounces", (state = 'bounced' AND NOT "bounceUnverified")::int AS "verifiedBounces", (state = 'failed')::int AS "failed" FROM old_rows
    ) c
    WHERE EXISTS (SELECT 1 FROM campaigns k WHERE k.id = c."campaignId")
    GROUP BY c."campaignId", c."credentialId"
    HAVING sum(sign * "sends") <> 0 OR sum(sign * "unconfirmed") <> 0 OR sum(sign * "bounces") <> 0 OR sum(sign * "verifiedBounces") <> 0 OR sum(sign * "failed") <> 0;
  ELSE
    INSERT INTO campaign_inbox_counts ("campaignId", "credentialId", "sends", "unconfirmed", "bounces", "verifiedBounces", "failed")
    SELECT c."campaignId", c."credentialId", sum(sign * "sends"), sum(sign * "unconfirmed"), sum(sign * "bounces"), sum(sign * "verifiedBounces"), sum(sign * "failed")
    FROM (
      SELECT -1 AS sign, "campaignId", "credentialId", (state IN ('sent', 'bounced'))::int AS "sends", (state IN ('sent', 'bounced') AND outcome IS NOT DISTINCT FROM 'unknown')::int AS "unconfirmed", (state = 'bounced')::int AS "bounces", (state = 'bounced' AND NOT "bounceUnverified")::int AS "verifiedBounces", (state = 'failed')::int AS "failed" FROM old_rows
    ) c
    WHERE EXISTS (SELECT 1 FROM campaigns k WHERE k.id = c."campaignId")
    GROUP BY c."campaignId", c."credentialId"
    HAVING sum(sign * "sends") <> 0 OR sum(sign * "unconfirmed") <> 0 OR sum(sign * "bounces") <> 0 OR sum(sign * "verifiedBounces") <> 0 OR sum(sign * "failed") <> 0;
  END IF;
  RETURN NULL;
END;
$$;

-- packages/db/sql/triggers/step_sends_count_changes.sql: trigger step_sends.step_sends_count_inserts
DROP TRIGGER IF EXISTS "step_sends_count_inserts" ON "step_sends";
CREATE TRIGGER "step_sends_count_inserts" AFTER INSERT ON "step_sends" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "count_step_send_changes"();

-- packages/db/sql/triggers/step_sends_count_changes.sql: trigger step_sends.step_sends_count_updates
DROP TRIGGER IF EXISTS "step_sends_count_updates" ON "step_sends";
CREATE TRIGGER "step_sends_count_updates" AFTER UPDATE ON "step_sends" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "count_step_send_changes"();

-- packages/db/sql/triggers/step_sends_count_changes.sql: trigger step_sends.step_sends_count_deletes
DROP TRIGGER IF EXISTS "step_sends_count_deletes" ON "step_sends";
CREATE TRIGGER "step_sends_count_deletes" AFTER DELETE ON "step_sends" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "count_step_send_changes"();

-- The counts of the rows already there, rolled up.
INSERT INTO "campaign_batch_counts" ("campaignId", "batchNumber", total, pending, sent, opened, replied, bounced, unsubscribed,
  delivered, "everOpened", "everReplied", "everClicked", stopped, rolled)
SELECT "campaignId", "batchNumber", count(*),
  count(*) FILTER (WHERE status = 'pending' AND "stoppedAt" IS NULL), count(*) FILTER (WHERE status = 'sent'),
  count(*) FILTER (WHERE status = 'opened'), count(*) FILTER (WHERE status = 'replied'), count(*) FILTER (WHERE status = 'bounced'),
  count(*) FILTER (WHERE status = 'unsubscribed'), count(*) FILTER (WHERE "sentAt" IS NOT NULL),
  count(*) FILTER (WHERE "sentAt" IS NOT NULL AND ("openedAt" IS NOT NULL OR "repliedAt" IS NOT NULL)),
  count(*) FILTER (WHERE "sentAt" IS NOT NULL AND "repliedAt" IS NOT NULL), count(*) FILTER (WHERE "sentAt" IS NOT NULL AND "clickedAt" IS NOT NULL),
  count(*) FILTER (WHERE "stoppedAt" IS NOT NULL), true
FROM "enrollments"
GROUP BY "campaignId", "batchNumber";

INSERT INTO "campaign_inbox_counts" ("campaignId", "credentialId", sends, unconfirmed, bounces, "verifiedBounces", failed, rolled)
SELECT "campaignId", "credentialId", count(*) FILTER (WHERE state IN ('sent', 'bounced')),
  count(*) FILTER (WHERE state IN ('sent', 'bounced') AND outcome = 'unknown'), count(*) FILTER (WHERE state = 'bounced'),
  count(*) FILTER (WHERE state = 'bounced' AND NOT "bounceUnverified"), count(*) FILTER (WHERE state = 'failed'), true
FROM "step_sends"
WHERE state IN ('sent', 'bounced', 'failed')
GROUP BY "campaignId", "credentialId";
