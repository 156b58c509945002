import { jobId, type TypedQueue } from "@outreach/core";

export interface DeliveryAttemptRef {
  deliveryId: string;
  accountId: string;
  /** the attempt's number, 1-based */
  attempt: number;
}

/**
 * Queues one attempt of a delivery to run now. The job id names the attempt
 * exactly as the webhook deliverer names it (deliveryJobId in
 * apps/webhook-deliverer/src/delivery-jobs.ts), so the deliverer's own job for
 * the same attempt and this one are the same job: a job that waits for its
 * retry time is promoted, one that is waiting or running is left alone, and
 * one that already finished without acting (the webhook was disabled when it
 * ran) is replaced.
 */
export async function queueDeliveryAttempt(queue: TypedQueue<"webhook-delivery">, ref: DeliveryAttemptRef): Promise<void> {
  const id = jobId("delivery", ref.deliveryId, ref.attempt);
  const existing = await queue.queue.getJob(id);
  if (existing) {
    const state = await existing.getState();
    if (state === "delayed") {
      // it may have started meanwhile, which is as good
      await existing.promote().catch(() => undefined);
      return;
    }
    if (state !== "completed" && state !== "failed" && state !== "unknown") return;
    await existing.remove();
  }
  await queue.add({ accountId: ref.accountId, deliveryId: ref.deliveryId, attempt: ref.attempt }, { jobId: id });
}
