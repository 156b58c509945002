-- Same release as before (migration release_waits_for_resume_replan); it also returns each
-- send's inbox, so the send is routed to the sender process holding that inbox's SMTP sessions.
-- The return type changes, hence DROP first.
DROP FUNCTION release_due_sends(uuid, timestamptz, int, uuid, int);
CREATE OR REPLACE FUNCTION release_due_sends(p_account uuid, p_now timestamptz, p_limit int, p_prefer uuid, p_window int)
RETURNS TABLE (id uuid, "accountId" uuid, "releasedAt" timestamptz, "credentialId" uuid)
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
    RETURNING u.id, u."accountId", u."updatedAt", u."credentialId";
END
$$;
