-- Check constraints of sequence_steps.

-- sequence_steps_condition_check: what a step of position 2 or later waits for when it falls due.
-- Used by: apps/api/src/schemas/campaign.ts (the allowed values),
--   packages/domain/src/sending (evaluates it when the step is claimed)
-- Last changed by migration: 20261126151750_issue27_sequences_read_replies
ALTER TABLE "sequence_steps" ADD CONSTRAINT "sequence_steps_condition_check" CHECK ("condition" IN ('none', 'opened', 'not_opened', 'clicked', 'not_clicked') AND ("condition" = 'none' OR position >= 2));
