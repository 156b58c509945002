-- smtp_credentials_held_move_idx: the few inboxes whose held sends must move to the campaign's
-- other inboxes (the inbox was disabled), for the sweep that (re-)enqueues unfinished moves.
-- A partial index: schema.prisma cannot declare its WHERE.
--
-- Used by: apps/dispatcher/src/replan-sweep.ts
-- Last changed by migration: 20261124053043_held_sends_replan
CREATE INDEX "smtp_credentials_held_move_idx" ON "smtp_credentials" ("heldSendsMoveRequestedAt") WHERE "heldSendsMoveRequestedAt" IS NOT NULL;
