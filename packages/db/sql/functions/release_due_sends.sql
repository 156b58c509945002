-- release_due_sends(account, now, limit, prefer, window): moves an account's due sends from
-- scheduled to queued, at most as many as the account has free send slots (limit minus its
-- sends queued or sending), and returns them (id, account, release time, inbox, whether the
-- account had nothing in flight) so the caller enqueues one send job each.
-- - Serialized per account by a transaction-scoped advisory lock taken by the first
--   statement; the release runs as a second statement, which in a VOLATILE function under
--   READ COMMITTED gets a snapshot taken after the lock, so it sees every release committed
--   before it and never exceeds the limit. Whoever does not get the lock releases nothing.
-- - A suspended account releases nothing (its sends stay scheduled, held).
-- - Due sends come from the account's active campaigns only (not re-planning after a
--   resume: resumeReplanBefore set), at most `window` per campaign through
--   step_sends_due_campaign_idx, merged in (dueAt, id) order; a later step only once the
--   earlier steps of its enrollment were sent or skipped (a condition not met).
-- - The free slots are spread over the account's inboxes: a send's rank is its inbox's
--   sends in flight plus its place among that inbox's due sends; among equals the inbox
--   just used (`prefer`) first, then due order.
--
-- Used by: packages/domain/src/sending/release-due-sends.ts (releaseDueSends, through
--   packages/domain/src/sending/feed-account.ts after each send, apps/sender/src/account-releases.ts;
--   releaseDueSendsOfAccounts, the feeder's pass in apps/dispatcher/src/feeder.ts)
-- Last changed by migration: 20261126151750_issue27_sequences_read_replies
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
