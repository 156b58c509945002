import { HeartbeatFailures, redisKeys, RedisSemaphore, runWithJobSlot, type Config, type DelayableJob, type SlottedQueue, type WarnLogger, type RedisClient } from "@outreach/core";

/** A slot's lease: renewed while its job runs, so a sender that dies gives its slots back within this long. */
const SLOT_LEASE_MS = 30_000;

/**
 * Per-account slots of a shared queue, across every sender replica
 * (TEST_SEND_/SEND_ANSWER_CONCURRENCY_PER_ACCOUNT): a job whose account already holds all its slots goes
 * back to delayed for a second or so and the worker takes the next job. So an
 * account whose SMTP server is slow (a tarpit answering a byte at a time) holds
 * at most its share of the queue's workers, and other accounts' jobs go
 * through meanwhile, rather than waiting behind it in the queue's FIFO.
 */
export class AccountQueueSlots {
  private readonly semaphores: Record<SlottedQueue, RedisSemaphore>;

  constructor(
    redis: RedisClient,
    private readonly config: Pick<Config, "queuePrefix">,
    limits: Record<SlottedQueue, number>,
    private readonly logger?: WarnLogger,
  ) {
    this.semaphores = {
      "test-send": new RedisSemaphore(redis, limits["test-send"], SLOT_LEASE_MS),
      "send-answer": new RedisSemaphore(redis, limits["send-answer"], SLOT_LEASE_MS),
    };
  }

  /** Runs `work` holding one of the account's slots of `queue`; with none free, delays the job (BullMQ's DelayedError: not an attempt). */
  run<T>(queue: SlottedQueue, accountId: string, job: DelayableJob, token: string | undefined, work: () => Promise<T>): Promise<T> {
    return runWithJobSlot(this.semaphores[queue], redisKeys.accountSlot(this.config, queue, accountId), job, token, async (renew) => {
      // an SMTP transaction may outlast the lease: renewed while it runs
      const failures = new HeartbeatFailures(this.logger, `renewing a ${queue} slot lease`, { accountId, jobId: job.id });
      const renewing = setInterval(() => void failures.run(renew), SLOT_LEASE_MS / 3);
      renewing.unref();
      try {
        return await work();
      } finally {
        clearInterval(renewing);
      }
    });
  }
}
