-- AlterTable
ALTER TABLE "campaigns" ADD COLUMN     "planVersion" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "resumeReplanBefore" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "smtp_credentials" ADD COLUMN     "heldSendsMoveRequestedAt" TIMESTAMPTZ(3);


-- Dispatch plans a batch in pages: the next page is the first rows of this index
-- (the batch's order), and a dispatched enrollment leaves it, so a page costs
-- its own size however far the batch has gone and a restarted job starts where
-- the committed pages stopped.
CREATE INDEX "enrollments_dispatch_page_idx" ON "enrollments" ("campaignId", "batchNumber", priority DESC, "createdAt", id)
  WHERE status = 'pending' AND "dispatchedAt" IS NULL;

-- Held step-1 sends of a campaign in due order: the chunks of a re-plan (resume,
-- a disabled inbox) and the count a resume answers with.
CREATE INDEX "step_sends_held_step1_idx" ON "step_sends" ("campaignId", "dueAt", id)
  WHERE state = 'scheduled' AND "stepPosition" = 1;

-- The sweep that (re-)enqueues unfinished re-plans looks only at these few rows.
CREATE INDEX "campaigns_resume_replan_idx" ON "campaigns" ("resumeReplanBefore") WHERE "resumeReplanBefore" IS NOT NULL;
CREATE INDEX "smtp_credentials_held_move_idx" ON "smtp_credentials" ("heldSendsMoveRequestedAt") WHERE "heldSendsMoveRequestedAt" IS NOT NULL;
