-- enrollments_count_changes: keeps campaign_batch_counts, a campaign's enrollments counted per
-- batch (what GET /campaigns/:id shows), so reading them costs the same at any campaign size.
-- Every statement that inserts, updates or deletes enrollments adds one row per (campaign,
-- batch) whose counts it changed: the sum of what its rows count now less what they counted
-- before (a statement that changes no count adds nothing). The three branches differ only in
-- the transition tables an INSERT, UPDATE or DELETE trigger has. A campaign being deleted is
-- skipped (its counts go with it). The rows are summed per batch by rollUpCampaignCounts.
--
-- Used by: packages/db/src/queries/campaign-stats.ts (enrollmentBatchStats reads the counts,
--   rollUpCampaignCounts sums them), apps/dispatcher/src/campaign-counts-loop.ts
-- Last changed by migration: 20261127032821_campaign_counts
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

CREATE TRIGGER "enrollments_count_inserts" AFTER INSERT ON "enrollments" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "count_enrollment_changes"();
CREATE TRIGGER "enrollments_count_updates" AFTER UPDATE ON "enrollments" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "count_enrollment_changes"();
CREATE TRIGGER "enrollments_count_deletes" AFTER DELETE ON "enrollments" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "count_enrollment_changes"();

-- campaigns_drop_counts: a deleted campaign's count rows go with it (the count tables have no
-- foreign key, see CampaignBatchCount in schema.prisma; the enrollments and step_sends triggers
-- add none for a campaign being deleted).
-- Used by: apps/api/src/services/delete-campaign.ts (the campaign's DELETE)
-- Last changed by migration: 20261127032821_campaign_counts
CREATE OR REPLACE FUNCTION "drop_campaign_counts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM campaign_batch_counts WHERE "campaignId" IN (SELECT id FROM old_rows);
  DELETE FROM campaign_inbox_counts WHERE "campaignId" IN (SELECT id FROM old_rows);
  RETURN NULL;
END;
$$;
CREATE TRIGGER "campaigns_drop_counts" AFTER DELETE ON "campaigns" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "drop_campaign_counts"();
