import { Queue, type JobsOptions } from "bullmq";
import type { Redis } from "ioredis";
import type { Config } from "./config.js";
import { QUEUES, parseJobPayload, type QueueName, type QueuePayloads } from "./queues.js";

/** A typed producer for one queue of the catalog. */
export class TypedQueue<N extends QueueName> {
  readonly queue: Queue;

  constructor(
    readonly name: N,
    config: Pick<Config, "queuePrefix">,
    connection: Redis,
  ) {
    this.queue = new Queue(name, { connection, prefix: config.queuePrefix, defaultJobOptions: QUEUES[name].jobOptions });
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

/** Job ids must not contain ":" in BullMQ; build deterministic ones from parts. */
export function jobId(...parts: Array<string | number>): string {
  return parts.join("_");
}

/** A job failure that retrying cannot fix: BullMQ fails the job at once. */
export { UnrecoverableError } from "bullmq";
