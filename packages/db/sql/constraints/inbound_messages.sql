-- Check constraints of inbound_messages.

-- inbound_messages_category_check: the category of a reply or auto-reply, and who set it.
-- Used by: packages/domain/src/inbound (the rules and the model), apps/api/src/routes/replies.ts (PATCH)
-- Last changed by migration: 20261126151750_issue27_sequences_read_replies
ALTER TABLE "inbound_messages" ADD CONSTRAINT "inbound_messages_category_check" CHECK (
  ("category" IS NULL OR "category" IN ('interested', 'not_interested', 'out_of_office', 'unsubscribe_request', 'wrong_person', 'other'))
  AND ("categorySource" IS NULL OR "categorySource" IN ('rules', 'model', 'manual')));
