import type { Job, JobType } from "bullmq";
import { ownerOf, TypedQueue, type Config, type SenderRegistry, type RedisClient } from "@outreach/core";
import type { Db } from "@outreach/db";
import { sendJobId, sendPayload, type EnqueueSends } from "./feed-account.js";
import type { ReleasedSend } from "./release-due-sends.js";
import { requeueSends, type LostRelease } from "./requeue-lost-sends.js";

/** How long a read of the live senders is reused: routing follows a join or a death within this. */
const LIVE_SENDERS_CACHE_MS = 500;

/** BullMQ serves jobs without a priority before prioritized ones: continuations wait behind accounts' first sends. */
const CONTINUATION_PRIORITY = 1;

/** The job states in which a send-email job still holds its send (it has not run to its end). */
const PENDING_STATES: JobType[] = ["waiting", "prioritized", "delayed", "active", "waiting-children"];

/**
 * Routes released sends to the sender process that holds their inbox's SMTP
 * sessions: each sender works its own shard of the send-email queue, and an
 * inbox belongs to one live sender by rendezvous hashing (ownerOf), so
 * consecutive sends of an inbox reuse one session instead of opening one per
 * process. With no sender registered, sends go to the shared queue, which
 * every sender also works.
 */
export class SendRouter {
  private readonly shards = new Map<string, TypedQueue<"send-email">>();
  private readonly shared: TypedQueue<"send-email">;
  private live: { at: number; senders: Promise<string[]> } | undefined;

  constructor(
    private readonly redis: RedisClient,
    private readonly config: Pick<Config, "queuePrefix">,
    readonly registry: SenderRegistry,
  ) {
    this.shared = new TypedQueue("send-email", config, redis);
  }

  /**
   * An EnqueueSends that routes (for the feeder and dispatch): the first send
   * of an account that had nothing in flight goes ahead of every continuation
   * (see enqueueContinuation), so an account that just got due sends is served
   * before the next sends of accounts already sending.
   */
  readonly enqueue: EnqueueSends = (released) => {
    const seen = new Set<string>();
    return this.route(released, (send) => {
      const first = send.accountWasIdle !== false && !seen.has(send.accountId);
      seen.add(send.accountId);
      return first ? undefined : CONTINUATION_PRIORITY;
    });
  };

  /** An EnqueueSends for an account's next sends after its earlier ones ended (a sender's release): behind every account's first. */
  readonly enqueueContinuation: EnqueueSends = (released) => this.route(released, () => CONTINUATION_PRIORITY);

  private async route(released: ReleasedSend[], priorityOf: (send: ReleasedSend) => number | undefined): Promise<void> {
    const senders = await this.liveSenders();
    const byQueue = new Map<TypedQueue<"send-email">, ReleasedSend[]>();
    for (const send of released) {
      const owner = ownerOf(send.credentialId ?? send.accountId, senders);
      const queue = owner ? this.shard(owner) : this.shared;
      const list = byQueue.get(queue) ?? [];
      list.push(send);
      byQueue.set(queue, list);
    }
    await Promise.all(
      [...byQueue].map(([queue, sends]) =>
        queue.addBulk(
          sends.map((send) => {
            const priority = priorityOf(send);
            return { payload: sendPayload(send), options: priority ? { jobId: sendJobId(send), priority } : { jobId: sendJobId(send) } };
          }),
        ),
      ),
    );
  }

  /** The job of this release of a send, wherever it was routed (the shared queue or a live sender's); undefined when gone. */
  async findJob(send: ReleasedSend): Promise<Job | undefined> {
    const id = sendJobId(send);
    for (const queue of [this.shared, ...(await this.liveSenders()).map((s) => this.shard(s))]) {
      const job = await queue.queue.getJob(id);
      if (job) return job;
    }
    return undefined;
  }

  /**
   * A sender that left (its heartbeat ran out, or it stopped): the sends
   * waiting in its queue go back to the schedule without counting as a failed
   * release, and are released again to the live senders; its queue is removed.
   * Sends it had claimed ("sending") are not touched: the liveness sweep fails
   * those, never resending. Returns how many sends went back.
   */
  async handBack(db: Db, senderId: string, options: { removeQueue?: boolean; now?: Date } = {}): Promise<number> {
    const now = options.now ?? new Date();
    const queue = this.shard(senderId);
    let returned = 0;
    for (let start = 0; ; start += 500) {
      const jobs = (await queue.queue.getJobs(PENDING_STATES, start, start + 499)).filter((job): job is Job => Boolean(job));
      if (jobs.length === 0) break;
      const lost: LostRelease[] = [];
      for (const job of jobs) {
        const released = releaseOfJob(job);
        if (released) lost.push({ ...released, reason: "its sender stopped before taking it" });
      }
      returned += await db.$transaction((tx) => requeueSends(tx, lost, now, false));
    }
    if (options.removeQueue ?? true) {
      // a job routed here after this (a router's cached view), or one this failed to remove, is found by the lost-job sweep
      await queue.queue.obliterate({ force: true }).catch(() => undefined);
      await queue.close();
      this.shards.delete(senderId);
    } else {
      // handed back: out of the queue, so the next pass does not count them again
      // (a job left behind points at a send already back on the schedule: claiming it finds the send no longer queued)
      await queue.queue.drain(true).catch(() => undefined);
    }
    return returned;
  }

  async close(): Promise<void> {
    await Promise.all([this.shared, ...this.shards.values()].map((q) => q.close()));
    this.shards.clear();
  }

  private shard(senderId: string): TypedQueue<"send-email"> {
    let queue = this.shards.get(senderId);
    if (!queue) {
      queue = new TypedQueue("send-email", this.config, this.redis, senderId);
      this.shards.set(senderId, queue);
    }
    return queue;
  }

  private liveSenders(): Promise<string[]> {
    const now = Date.now();
    if (!this.live || now - this.live.at > LIVE_SENDERS_CACHE_MS) {
      const senders = this.registry.live();
      this.live = { at: now, senders };
      // a failed read is not cached
      senders.catch(() => {
        if (this.live?.senders === senders) this.live = undefined;
      });
    }
    return this.live.senders;
  }
}

/** The send and release a send-email job carries (its id is sendJobId: send_<id>_<releasedAt ms>). */
function releaseOfJob(job: Job): { id: string; releasedAt: Date } | undefined {
  const match = /^send_([0-9a-f-]{36})_(\d+)$/.exec(job.id ?? "");
  if (!match) return undefined;
  return { id: match[1]!, releasedAt: new Date(Number(match[2])) };
}
