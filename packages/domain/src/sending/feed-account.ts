import { SEND_CONCURRENCY_PER_ACCOUNT, type TypedQueue } from "@outreach/core";
import type { Db } from "@outreach/db";
import { releaseDueSends, type ReleasedSend } from "./release-due-sends.js";

export type EnqueueSends = (released: ReleasedSend[]) => Promise<void>;

/** The job id of one release of a send: a send released again after a retry gets a new job. */
export function sendJobId(send: ReleasedSend): string {
  return `send_${send.id}_${send.releasedAt.getTime()}`;
}

/** Enqueues released sends as send-email jobs on this queue. */
export function enqueueSendsWith(queue: TypedQueue<"send-email">): EnqueueSends {
  return (released) => queue.addBulk(released.map((send) => ({ payload: sendPayload(send), options: { jobId: sendJobId(send) } })));
}

/** A released send's job payload (the inbox it is planned on, when known). */
export function sendPayload(send: ReleasedSend): { accountId: string; stepSendId: string; credentialId?: string } {
  return send.credentialId ? { accountId: send.accountId, stepSendId: send.id, credentialId: send.credentialId } : { accountId: send.accountId, stepSendId: send.id };
}

/**
 * Releases what the account may send now and enqueues it. Called by the
 * dispatcher's feeder on a timer and by the sender after every send, so an
 * account with work keeps its slots busy without waiting for the timer.
 * If the enqueue fails, the rows stay queued and the lost-send sweeper gives
 * them back to the schedule. A sender passes the inbox it just used as
 * `preferCredentialId` (see releaseDueSends).
 */
export async function feedAccount(db: Db, accountId: string, enqueue: EnqueueSends, now = new Date(), preferCredentialId: string | null = null): Promise<number> {
  const released = await releaseDueSends(db, accountId, now, SEND_CONCURRENCY_PER_ACCOUNT, preferCredentialId);
  if (released.length) await enqueue(released);
  return released.length;
}
