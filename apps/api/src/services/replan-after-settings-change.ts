import { countHeldSendsAndSteps, markResumeReplan, type Prisma } from "@outreach/db";
import { rescheduleHeldSends, type RecipientProvider } from "@outreach/domain";

/**
 * After a PATCH of the schedule, jitter scope or wait range of an active
 * campaign: its held sends (step 1 still scheduled) are planned again under the
 * new settings. A small backlog (up to one chunk of step rows) is planned in the
 * caller's transaction; a bigger one is marked like a resume
 * (campaigns.resumeReplanBefore, which holds back the release of the campaign's
 * sends) and handed to the replan-held-sends job: returns the mark to enqueue
 * the job with after the commit, or null when done here. `recipientProviders`:
 * looked up before the transaction (match_recipient_provider), kept by the re-plan.
 */
export async function replanAfterSettingsChange(tx: Prisma.TransactionClient, campaignId: string, chunkSize: number, recipientProviders?: Map<string, RecipientProvider>): Promise<Date | null> {
  const row = await countHeldSendsAndSteps(tx, campaignId);
  if (row.held === 0) return null;
  if (row.held * Math.max(1, row.steps) <= chunkSize) {
    await rescheduleHeldSends(tx, campaignId, { recipientProviders });
    return null;
  }
  // a newer mark makes a re-plan still running stop, and the new job plan everything again
  return markResumeReplan(tx, campaignId);
}
