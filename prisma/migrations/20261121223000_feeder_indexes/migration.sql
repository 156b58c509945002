-- The feeder looks for accounts with due scheduled sends (a skip scan) and then
-- for one account's due sends in order; only scheduled rows matter, so the
-- index covers only them and stays small however many sends are done.
CREATE INDEX "step_sends_due_idx" ON "step_sends" ("accountId", "dueAt") WHERE state = 'scheduled';

-- Sends stuck in queued/sending (crashed process, lost job) are found by the sweepers.
CREATE INDEX "step_sends_inflight_idx" ON "step_sends" ("updatedAt") WHERE state IN ('queued', 'sending');
