// The benchmarks' side of the queues: campaign-dispatch jobs enqueued as the API
// does and their timings, and dropping a run's keys.
import { Queue, Job } from "bullmq";
import { Redis } from "ioredis";
import { waitFor } from "@outreach/testing";
import { REDIS_URL } from "./settings.js";

export interface Dispatcher {
  queue: Queue;
  redis: Redis;
  /** enqueues a campaign-dispatch job as the API does; returns its id and Date.now() of the enqueue */
  dispatch(payload: { accountId: string; campaignId: string; batchNumber: number }): Promise<{ jobId: string; enqueuedAt: number }>;
  /** processedOn / finishedOn of a dispatch job once it finished */
  jobTimes(jobId: string, timeoutMs?: number): Promise<{ processedOn: number; finishedOn: number; returnvalue: unknown; attemptsMade: number }>;
  close(): Promise<void>;
}

export async function dispatchClient(queuePrefix: string): Promise<Dispatcher> {
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  // the same options as the catalog (packages/core queues.ts) gives campaign-dispatch jobs
  const queue = new Queue("campaign-dispatch", {
    connection: redis,
    prefix: queuePrefix,
    defaultJobOptions: { attempts: 5, backoff: { type: "exponential", delay: 2_000 }, removeOnComplete: { age: 86_400, count: 10_000 } },
  });
  let n = 0;
  return {
    queue,
    redis,
    async dispatch(payload) {
      const jobId = `bench_${++n}_${payload.batchNumber}`;
      const enqueuedAt = Date.now();
      await queue.add("campaign-dispatch", payload, { jobId });
      return { jobId, enqueuedAt };
    },
    async jobTimes(jobId, timeoutMs = 600_000) {
      return waitFor(
        async () => {
          const job = await Job.fromId(queue, jobId);
          if (!job?.finishedOn || !job.processedOn) return undefined;
          if (job.failedReason) throw new Error(`dispatch job failed: ${job.failedReason}`);
          return { processedOn: job.processedOn, finishedOn: job.finishedOn, returnvalue: job.returnvalue, attemptsMade: job.attemptsMade };
        },
        { timeoutMs, intervalMs: 50, what: `dispatch job ${jobId}` },
      );
    },
    async close() {
      await queue.close();
      await redis.quit().catch(() => undefined);
    },
  };
}

/** Deletes every Redis key of this queue prefix (only ours). */
export async function dropQueuePrefix(prefix: string): Promise<number> {
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  let deleted = 0;
  try {
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 1000);
      cursor = next;
      if (keys.length) deleted += await redis.unlink(...keys);
    } while (cursor !== "0");
  } finally {
    await redis.quit().catch(() => undefined);
  }
  return deleted;
}
