import { setTimeout as delay } from "node:timers/promises";
import type { Redis } from "ioredis";
import type { Logger } from "@outreach/core";
import type { InboxLeases } from "./inbox-lease.js";
import type { InboxEndpoint } from "./inbox-watcher.js";
import type { ReplicaRing } from "./replica-ring.js";

/** A watcher as the pool sees it (InboxWatcher, or a stand-in in tests). */
export interface Watcher {
  readonly credentialId: string;
  matches(endpoint: InboxEndpoint): boolean;
  start(): void;
  stop(): Promise<void>;
}

export interface InboxPoolOptions {
  /** the inboxes that should be watched now (IMAP settings, campaign active) */
  listInboxes: () => Promise<InboxEndpoint[]>;
  createWatcher: (endpoint: InboxEndpoint) => Watcher;
  /** the most connections this replica holds (IMAP_MAX_CONNECTIONS) */
  maxConnections: number;
  /** how often the inbox list and the assignment are refreshed; leases are renewed this often too */
  everyMs?: number;
  /** marks an inbox as wanted by its preferred replica: a replica holding it for lack of room elsewhere hands it back */
  wantKey: (inboxId: string) => string;
}

/**
 * The inboxes this replica watches: those it is the preferred replica of
 * (rendezvous hashing over the live replicas) up to its connection cap, plus
 * inboxes nobody holds when it has room (their preferred replica is full).
 * Every watched inbox holds its lease, renewed first thing each round; a lost
 * lease stops its watcher at once, and so does a lease that could not be
 * renewed in time (Redis or the database stalling this replica), before it
 * can expire and another replica connect. New credentials are picked up and
 * removed or paused ones dropped on the next round, without a restart.
 */
export class InboxPool {
  private readonly watchers = new Map<string, Watcher>();
  /** when each held lease was last taken or renewed (the time the request was sent) */
  private readonly renewedAt = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private watchdog: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly redis: Redis,
    private readonly ring: ReplicaRing,
    private readonly leases: InboxLeases,
    private readonly logger: Logger,
    private readonly options: InboxPoolOptions,
  ) {}

  watching(): string[] {
    return [...this.watchers.keys()];
  }

  async start(): Promise<void> {
    await this.ring.start();
    await this.round();
    this.timer = setInterval(() => {
      this.running ??= this.round().finally(() => (this.running = undefined));
    }, this.options.everyMs ?? 3_000);
    this.timer.unref();
    // apart from the rounds: a round stuck on the database or Redis must not keep a connection past its lease
    this.watchdog = setInterval(() => this.dropUnrenewed(), this.leases.ttlMs / 10);
    this.watchdog.unref();
  }

  /** Closes every connection and gives the leases back; a round under way creates no watcher after this. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    clearInterval(this.watchdog);
    // a round under way finishes first, unless it is stuck (on the database)
    await Promise.race([this.running, delay(2_000, undefined, { ref: false })]);
    await Promise.all([...this.watchers.keys()].map((id) => this.drop(id)));
    await this.ring.stop();
  }

  /** One refresh: who is alive, which inboxes exist, which to hold. */
  async round(): Promise<void> {
    if (this.stopped) return;
    try {
      await this.ring.beat();
      // renew what we hold before anything else (the database) can delay it
      await Promise.all([...this.watchers.keys()].map((id) => this.renew(id)));
      const inboxes = await this.options.listInboxes();
      const byId = new Map(inboxes.map((inbox) => [inbox.credentialId, inbox]));
      // gone, paused, or changed settings: stop watching
      for (const [id, watcher] of this.watchers) {
        const endpoint = byId.get(id);
        if (!endpoint || !watcher.matches(endpoint)) await this.drop(id);
      }
      // hand back what its preferred replica wants
      for (const id of [...this.watchers.keys()]) {
        if (!this.ring.prefers(id) && (await this.redis.exists(this.options.wantKey(id))) === 1) await this.drop(id);
      }
      const preferred = inboxes.filter((inbox) => this.ring.prefers(inbox.credentialId));
      const others = inboxes.filter((inbox) => !this.ring.prefers(inbox.credentialId));
      for (const inbox of [...preferred, ...others]) {
        if (this.watchers.has(inbox.credentialId)) continue;
        if (this.watchers.size >= this.options.maxConnections) break;
        const isPreferred = this.ring.prefers(inbox.credentialId);
        // another replica's inbox is taken only while nobody holds it and its preferred replica is not asking for it
        if (!isPreferred && (await this.redis.exists(this.options.wantKey(inbox.credentialId))) === 1) continue;
        const requestedAt = Date.now();
        if (await this.leases.acquire(inbox.credentialId)) {
          if (this.stopped) {
            await this.leases.release(inbox.credentialId);
            return;
          }
          const watcher = this.options.createWatcher(inbox);
          this.watchers.set(inbox.credentialId, watcher);
          this.renewedAt.set(inbox.credentialId, requestedAt);
          watcher.start();
        } else if (isPreferred) {
          await this.redis.set(this.options.wantKey(inbox.credentialId), this.ring.replicaId, "PX", (this.options.everyMs ?? 3_000) * 3);
        }
      }
    } catch (err) {
      this.logger.warn("inbox assignment round failed", { error: (err as Error).message });
    }
  }

  private async renew(id: string): Promise<void> {
    const requestedAt = Date.now();
    if (!(await this.leases.acquire(id))) return this.drop(id);
    if (this.watchers.has(id)) this.renewedAt.set(id, requestedAt);
    // dropped meanwhile (the watchdog): not ours to keep
    else await this.leases.release(id);
  }

  /**
   * A lease expires in Redis `ttl` after its last renewal was sent at the earliest; its watcher
   * stops a quarter of the TTL before that (two rounds of failed renewals), whatever the rounds
   * are doing, so no other replica can connect while this one still is.
   */
  private dropUnrenewed(now = Date.now()): void {
    const deadline = now - this.leases.ttlMs * 0.75;
    for (const id of [...this.watchers.keys()]) {
      if ((this.renewedAt.get(id) ?? 0) > deadline) continue;
      this.logger.warn("inbox lease not renewed in time; closing its connection", { credentialId: id });
      void this.drop(id);
    }
  }

  private async drop(id: string): Promise<void> {
    const watcher = this.watchers.get(id);
    this.watchers.delete(id);
    this.renewedAt.delete(id);
    await watcher?.stop().catch(() => undefined);
    await this.leases.release(id);
  }
}
