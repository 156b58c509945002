import { jobId } from "@outreach/core";

/**
 * Job ids of the replan-held-sends queue, one per request to re-plan: the API,
 * and the dispatcher's sweep that re-adds what a lost enqueue missed, add the
 * same job, so it runs once per resume or per disabling.
 */
export function resumeReplanJobId(campaignId: string, replanBefore: Date): string {
  return jobId("replan", "resume", campaignId, replanBefore.getTime());
}

export function heldSendsMoveJobId(credentialId: string, requestedAt: Date): string {
  return jobId("replan", "move", credentialId, requestedAt.getTime());
}
