-- step_sends_count_changes: keeps campaign_inbox_counts, a campaign's step sends counted per
-- inbox: those that reached SMTP (sent or bounced), unconfirmed among them (outcome unknown),
-- bounced (all, and verified), failed. Like enrollments_count_changes: one row per (campaign,
-- inbox) whose counts a statement changed; a statement that moves sends between states that
-- count nothing (planning, release, claim) adds nothing.
--
-- Used by: packages/db/src/queries/campaign-stats.ts (stepSendCredentialStats reads the counts,
--   rollUpCampaignCounts sums them), apps/dispatcher/src/campaign-counts-loop.ts
-- Last changed by migration: 20261127032821_campaign_counts
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

CREATE TRIGGER "step_sends_count_inserts" AFTER INSERT ON "step_sends" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "count_step_send_changes"();
CREATE TRIGGER "step_sends_count_updates" AFTER UPDATE ON "step_sends" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "count_step_send_changes"();
CREATE TRIGGER "step_sends_count_deletes" AFTER DELETE ON "step_sends" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "count_step_send_changes"();
