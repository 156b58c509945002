import { DelayedError, redisKey, RedisSemaphore, type Config } from "@outreach/core";
import type { Redis } from "ioredis";

/** The queues shared by every account whose jobs each hold one SMTP session for as long as the server takes. */
export type SlottedQueue = "test-send" | "send-answer";

/** What this needs of the BullMQ job: its id, and moving it back to delayed while its account's slots are all held. */
export interface SlottedJob {
  id?: string;
  moveToDelayed(timestamp: number, token?: string): Promise<void>;
}

/** A slot's lease: renewed while its job runs, so a sender that dies gives its slots back within this long. */
const SLOT_LEASE_MS = 30_000;

/**
 * Per-account slots of a shared queue, across every sender replica
 * (ACCOUNT_CONCURRENCY): a job whose account already holds all its slots goes
 * back to delayed for a second or so and the worker takes the next job. So an
 * account whose SMTP server is slow (a tarpit answering a byte at a time) holds
 * at most its share of the queue's workers, and other accounts' jobs go
 * through meanwhile, rather than waiting behind it in the queue's FIFO.
 */
export class AccountQueueSlots {
  private readonly semaphores: Record<SlottedQueue, RedisSemaphore>;

  constructor(
    redis: Redis,
    private readonly config: Pick<Config, "queuePrefix">,
    limits: Record<SlottedQueue, number>,
  ) {
    this.semaphores = {
      "test-send": new RedisSemaphore(redis, limits["test-send"], SLOT_LEASE_MS),
      "send-answer": new RedisSemaphore(redis, limits["send-answer"], SLOT_LEASE_MS),
    };
  }

  /** Runs `work` holding one of the account's slots of `queue`; with none free, delays the job (BullMQ's DelayedError: not an attempt). */
  async run<T>(queue: SlottedQueue, accountId: string, job: SlottedJob, token: string | undefined, work: () => Promise<T>): Promise<T> {
    const semaphore = this.semaphores[queue];
    const key = redisKey(this.config, "sem", queue, accountId);
    const holder = `${job.id}`;
    if (!(await semaphore.tryAcquire(key, holder))) {
      await job.moveToDelayed(Date.now() + 500 + Math.floor(Math.random() * 1000), token);
      throw new DelayedError();
    }
    // taking the slot again with the same holder renews its lease
    const renew = setInterval(() => void semaphore.tryAcquire(key, holder).catch(() => undefined), SLOT_LEASE_MS / 3);
    renew.unref();
    try {
      return await work();
    } finally {
      clearInterval(renew);
      await semaphore.release(key, holder).catch(() => undefined);
    }
  }
}
