-- reply_answers_state_check: the states of an answer to a reply (queued -> sending -> sent |
-- failed). schema.prisma has no CHECK.
--
-- Used by: apps/api/src/services/answer-reply.ts (queues answers),
--   apps/sender/src/send-answer.ts (claims and finishes them)
-- Last changed by migration: 20261124102930_issue15_sequence_features
ALTER TABLE "reply_answers" ADD CONSTRAINT "reply_answers_state_check" CHECK ("state" IN ('queued', 'sending', 'sent', 'failed'));
