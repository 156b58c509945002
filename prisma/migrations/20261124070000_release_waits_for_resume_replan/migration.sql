-- Same contract as before (see migration release_due_sends_function), with two changes:
-- 1. the due sends are taken from the account's active campaigns only, at most p_window
--    per campaign (index step_sends_due_campaign_idx), merged in (dueAt, id) order, so a
--    paused campaign's due rows are never read;
-- 2. a campaign resumed with a backlog bigger than one chunk is active at once while the
--    replan-held-sends job plans its held sends again (campaigns.resumeReplanBefore set
--    until the job's last chunk): nothing of it is released meanwhile, so no held send
--    goes out at its stale time.
CREATE OR REPLACE FUNCTION release_due_sends(p_account uuid, p_now timestamptz, p_limit int, p_prefer uuid, p_window int)
RETURNS TABLE (id uuid, "accountId" uuid, "releasedAt" timestamptz)
LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
BEGIN
  IF NOT pg_try_advisory_xact_lock(hashtext('release-sends'), hashtext(p_account::text)) THEN
    RETURN;
  END IF;
  RETURN QUERY
    WITH inflight AS (
      SELECT count(*)::int AS n FROM step_sends WHERE "accountId" = p_account AND state IN ('queued', 'sending')),
    due AS (
      SELECT d.id, d."credentialId", d."dueAt"
      FROM campaigns c
      CROSS JOIN LATERAL (
        SELECT s.id, s."credentialId", s."dueAt" FROM step_sends s
        WHERE s."accountId" = p_account AND s."campaignId" = c.id AND s.state = 'scheduled' AND s."dueAt" <= p_now
          AND NOT EXISTS (
            SELECT 1 FROM step_sends p
            WHERE p."enrollmentId" = s."enrollmentId" AND p."stepPosition" < s."stepPosition" AND p.state <> 'sent')
        ORDER BY s."dueAt", s.id
        LIMIT GREATEST(p_window, p_limit)) d
      WHERE c."accountId" = p_account AND c.status = 'active' AND c."resumeReplanBefore" IS NULL
      ORDER BY d."dueAt", d.id
      LIMIT GREATEST(p_window, p_limit)),
    picked AS (
      SELECT s.id FROM step_sends s JOIN due d ON d.id = s.id
      ORDER BY (d."credentialId" IS NOT NULL AND d."credentialId" = p_prefer) DESC, d."dueAt", d.id
      LIMIT (SELECT GREATEST(0, p_limit - n) FROM inflight)
      FOR UPDATE OF s SKIP LOCKED)
    UPDATE step_sends AS u SET state = 'queued', "updatedAt" = p_now
    WHERE u.id IN (SELECT picked.id FROM picked)
    RETURNING u.id, u."accountId", u."updatedAt";
END
$$;
