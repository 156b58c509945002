import { jobId, type TypedQueue } from "@outreach/core";

export interface DeliveryAttemptRef {
  id: string;
  accountId: string;
  attempt: number;
}

/** One job per attempt of a delivery: a repeated add of the same attempt is a no-op. */
export const deliveryJobId = (deliveryId: string, attempt: number) => jobId("delivery", deliveryId, attempt);

export async function enqueueDeliveryAttempts(queue: TypedQueue<"webhook-delivery">, attempts: DeliveryAttemptRef[], delayMs = 0): Promise<void> {
  if (attempts.length === 0) return;
  await queue.addBulk(
    attempts.map((a) => ({ payload: { accountId: a.accountId, deliveryId: a.id, attempt: a.attempt }, options: { jobId: deliveryJobId(a.id, a.attempt), delay: delayMs } })),
  );
}

/**
 * Queues the attempts whose job is gone or finished without acting (Redis was
 * away when they were to be queued, or a job ended early): a job that is
 * waiting, delayed or running is left alone.
 */
export async function requeueLostAttempts(queue: TypedQueue<"webhook-delivery">, attempts: DeliveryAttemptRef[]): Promise<number> {
  let requeued = 0;
  for (const attempt of attempts) {
    const id = deliveryJobId(attempt.id, attempt.attempt);
    const state = await queue.queue.getJobState(id);
    if (state !== "unknown" && state !== "completed" && state !== "failed") continue;
    if (state !== "unknown") await queue.queue.remove(id).catch(() => undefined);
    await enqueueDeliveryAttempts(queue, [attempt]);
    requeued += 1;
  }
  return requeued;
}
