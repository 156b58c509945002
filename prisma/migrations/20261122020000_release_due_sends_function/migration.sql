-- Releases an account's due sends in one round trip (see packages/domain/src/release-due-sends.ts).
-- The per-account advisory lock is taken by the first statement; the release runs as a second
-- statement, which in a VOLATILE function under READ COMMITTED gets a snapshot taken after the
-- lock, so it sees every release committed before it and never exceeds the account's limit.
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
      SELECT s.id, s."credentialId", s."dueAt" FROM step_sends s
      JOIN campaigns c ON c.id = s."campaignId" AND c.status = 'active'
      WHERE s."accountId" = p_account AND s.state = 'scheduled' AND s."dueAt" <= p_now
        AND NOT EXISTS (
          SELECT 1 FROM step_sends p
          WHERE p."enrollmentId" = s."enrollmentId" AND p."stepPosition" < s."stepPosition" AND p.state <> 'sent')
      ORDER BY s."dueAt", s.id
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
