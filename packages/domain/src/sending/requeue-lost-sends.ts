import { queuedSendsReleasedBefore, requeueLostReleases } from "@outreach/db";
import { cancelPendingSends } from "./cancel-pending-sends.js";
import type { Tx } from "../tx.js";

/**
 * Releases of one send whose job ended without claiming it (the job failed for
 * good, vanished, or returned) before the send fails for good: a job that
 * fails every time (its data cannot be read, ...) must not take one of the
 * account's slots forever.
 */
export const MAX_RELEASE_FAILURES = 5;

/** A queued send whose job will not act on it, and why. */
export interface LostRelease {
  id: string;
  /** the release the job belonged to (the send's updatedAt when it was queued) */
  releasedAt: Date;
  /** the job's failedReason, or what happened to the job */
  reason: string;
}

/** Sends released (queued) before `releasedBefore` and still queued: candidates for a lost job. */
export async function staleQueuedSends(tx: Tx, releasedBefore: Date, limit = 500): Promise<Array<{ id: string; accountId: string; releasedAt: Date }>> {
  return queuedSendsReleasedBefore(tx, releasedBefore, limit);
}

/**
 * Gives queued sends whose job will not run (failed, or gone from Redis) back to
 * the schedule, unless they were released again since (`releasedAt` no longer
 * matches). The claim still admits one sender, so a late job finds nothing to do.
 * The MAX_RELEASE_FAILURES-th lost release fails the send instead, with the
 * reason, and cancels its later steps as other failures do. A release handed
 * back because its sender left (countFailure false) is not the send's failure.
 */
export async function requeueSends(tx: Tx, sends: LostRelease[], now = new Date(), countFailure = true): Promise<number> {
  if (sends.length === 0) return 0;
  const lost = { ids: sends.map((r) => r.id), releasedAts: sends.map((r) => r.releasedAt.toISOString()), reasons: sends.map((r) => r.reason) };
  const rows = await requeueLostReleases(tx, lost, countFailure, MAX_RELEASE_FAILURES, now);
  const failed = rows.filter((r) => r.failed).map((r) => r.enrollmentId);
  if (failed.length) await cancelPendingSends(tx, failed, "an earlier step failed");
  return rows.length;
}

/**
 * Sends left in "queued" whose job vanished (Redis lost it, the enqueue failed
 * after the release committed) go back to the schedule, counted like any lost
 * release; their claim is still the only way to send, so a late job finds nothing to do.
 */
export async function requeueLostSends(tx: Tx, olderThanMs: number, now = new Date(), limit = 500): Promise<number> {
  const stale = await staleQueuedSends(tx, new Date(now.getTime() - olderThanMs), limit);
  return requeueSends(
    tx,
    stale.map((send) => ({ ...send, reason: `its job did not run within ${Math.round(olderThanMs / 60_000)} minutes` })),
    now,
  );
}
