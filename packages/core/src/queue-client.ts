import { Queue, type JobsOptions } from "bullmq";
import type { RedisClient } from "./redis.js";
import type { Config } from "./config.js";
import { QUEUES, parseJobPayload, type QueueName, type QueuePayloads } from "./queues.js";

/**
 * A typed producer for one queue of the catalog. `shard` names one of its
 * per-process queues (e.g. a sender's own send-email queue): same payloads and
 * job options, under the BullMQ name `<name>.<shard>` (see shardQueueName).
 */
export class TypedQueue<N extends QueueName> {
  readonly queue: Queue;

  constructor(
    readonly name: N,
    config: Pick<Config, "queuePrefix">,
    connection: RedisClient,
    shard?: string,
  ) {
    this.queue = new Queue(shardQueueName(name, shard), { connection, prefix: config.queuePrefix, defaultJobOptions: QUEUES[name].jobOptions });
  }

  async add(payload: QueuePayloads[N], options: JobsOptions & { jobId?: string } = {}): Promise<void> {
    parseJobPayload(this.name, payload);
    await this.queue.add(this.name, payload, options);
  }

  async addBulk(jobs: Array<{ payload: QueuePayloads[N]; options?: JobsOptions }>): Promise<void> {
    for (const job of jobs) parseJobPayload(this.name, job.payload);
    await this.queue.addBulk(jobs.map((job) => ({ name: this.name, data: job.payload, opts: job.options })));
  }

  close(): Promise<void> {
    return this.queue.close();
  }
}

/** The BullMQ name of a catalog queue, or of one of its per-process shards. */
export function shardQueueName(name: QueueName, shard?: string): string {
  return shard ? `${name}.${shard}` : name;
}

/** Job ids must not contain ":" in BullMQ; build deterministic ones from parts. */
export function jobId(...parts: Array<string | number>): string {
  return parts.join("_");
}

/** A job failure that retrying cannot fix: BullMQ fails the job at once. */
export { UnrecoverableError } from "bullmq";
/** Thrown by a handler that moved its job back to delayed (job.moveToDelayed): not a failure, no attempt spent. */
export { DelayedError } from "bullmq";
