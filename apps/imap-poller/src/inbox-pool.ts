import { errorFields, ignoreFailure, type RedisClient } from "@outreach/core";
import { setTimeout as delay } from "node:timers/promises";
import type { InboxLeases, Logger } from "@outreach/core";
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
  /** the most of one account's inboxes this replica holds (IMAP_MAX_INBOXES_PER_ACCOUNT; 0: only the fair share) */
  maxPerAccount?: number;
  /** how often the inbox list and the assignment are refreshed; leases are renewed this often too */
  everyMs?: number;
  /** marks an inbox as wanted by its preferred replica: a replica holding it for lack of room elsewhere hands it back */
  wantKey: (inboxId: string) => string;
}

/**
 * The inboxes this replica watches: those it is the preferred replica of
 * (rendezvous hashing over the live replicas) up to its connection cap, plus
 * inboxes nobody holds when it has room (their preferred replica is full).
 * Every watched inbox holds its lease, all renewed in one round trip on a
 * timer of their own (a third of the lease's life), apart from the rounds; a
 * lost lease stops its watcher at once, and so does a lease that could not be
 * renewed in time (Redis stalling this replica), before it can expire and
 * another replica connect. Leases are taken a few hundred per round trip, so
 * a replica starting with hundreds of inboxes holds them all within moments.
 * New credentials are picked up and removed or paused ones dropped on the
 * next round, without a restart. When there are more inboxes than room, the
 * room is shared between accounts in turn (see fairShare): an account with
 * thousands of inboxes holds at most its share while another's inbox waits.
 */
export class InboxPool {
  private readonly watchers = new Map<string, Watcher>();
  /** when each held lease was last taken or renewed (the time the request was sent) */
  private readonly renewedAt = new Map<string, number>();
  /** when a round last completed: a replica whose rounds stall (its database hangs) stops renewing, so it lets go */
  private lastRoundAt = Date.now();
  /** inboxes this replica should watch but has no room for, and when that was last logged */
  private overCapacity = { count: 0, loggedAt: 0 };
  private timer: NodeJS.Timeout | undefined;
  private renewTimer: NodeJS.Timeout | undefined;
  private renewing: Promise<void> | undefined;
  private watchdog: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly redis: RedisClient,
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
    this.renewTimer = setInterval(() => {
      this.renewing ??= this.renewAll().finally(() => (this.renewing = undefined));
    }, this.leases.ttlMs / 3);
    this.renewTimer.unref();
    // apart from the renewals: a renewal stuck on Redis must not keep a connection past its lease
    this.watchdog = setInterval(() => this.dropUnrenewed(), this.leases.ttlMs / 10);
    this.watchdog.unref();
  }

  /** Closes every connection and gives the leases back; a round under way creates no watcher after this. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    clearInterval(this.renewTimer);
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
      const inboxes = await this.options.listInboxes();
      const byId = new Map(inboxes.map((inbox) => [inbox.credentialId, inbox]));
      // gone, paused, or changed settings: stop watching
      for (const [id, watcher] of this.watchers) {
        const endpoint = byId.get(id);
        if (!endpoint || !watcher.matches(endpoint)) await this.drop(id);
      }
      // hand back what its preferred replica wants
      const notPreferred = [...this.watchers.keys()].filter((id) => !this.ring.prefers(id));
      for (const id of await this.wanted(notPreferred)) await this.drop(id);

      const unwatched = inboxes.filter((inbox) => !this.watchers.has(inbox.credentialId));
      const preferred = unwatched.filter((inbox) => this.ring.prefers(inbox.credentialId));
      // another replica's inbox is taken only while nobody holds it and its preferred replica is not asking for it
      const othersWanted = await this.wanted(unwatched.filter((inbox) => !this.ring.prefers(inbox.credentialId)).map((inbox) => inbox.credentialId));
      const others = unwatched.filter((inbox) => !this.ring.prefers(inbox.credentialId) && !othersWanted.has(inbox.credentialId));
      const watched = inboxes.filter((inbox) => this.watchers.has(inbox.credentialId));
      const keep = fairShare([...watched, ...preferred, ...others], this.options.maxConnections, this.options.maxPerAccount ?? 0);
      // an account over its share while another account's inbox waits gives room back
      for (const inbox of watched) if (!keep.has(inbox.credentialId)) await this.drop(inbox.credentialId);
      this.reportOverCapacity(preferred.filter((inbox) => !keep.has(inbox.credentialId)).length, keep.size);
      const candidates = [...preferred, ...others].filter((inbox) => keep.has(inbox.credentialId));
      if (candidates.length === 0) {
        this.lastRoundAt = Date.now();
        return;
      }
      const requestedAt = Date.now();
      const taken = await this.leases.acquireMany(candidates.map((inbox) => inbox.credentialId));
      if (this.stopped) {
        await Promise.all([...taken].map((id) => this.leases.release(id)));
        return;
      }
      for (const inbox of candidates) {
        if (!taken.has(inbox.credentialId)) continue;
        const watcher = this.options.createWatcher(inbox);
        this.watchers.set(inbox.credentialId, watcher);
        this.renewedAt.set(inbox.credentialId, requestedAt);
        watcher.start();
      }
      // a preferred inbox held elsewhere (the replica that took it while this one was away or full): ask for it back
      const askFor = preferred.filter((inbox) => candidates.includes(inbox) && !taken.has(inbox.credentialId));
      if (askFor.length > 0) {
        const pipeline = this.redis.pipeline();
        for (const inbox of askFor) pipeline.set(this.options.wantKey(inbox.credentialId), this.ring.replicaId, "PX", (this.options.everyMs ?? 3_000) * 3);
        await pipeline.exec();
      }
      this.lastRoundAt = Date.now();
    } catch (err) {
      this.logger.warn("inbox assignment round failed", { ...errorFields(err) });
    }
  }

  /**
   * Inboxes this replica should watch but cannot (IMAP_MAX_CONNECTIONS, or an
   * account's share) stay unwatched until another replica has room: said in the
   * log when their number changes, and again every 5 minutes while any remain
   * (the outreach_imap_inboxes_unwatched gauge counts them too).
   */
  private reportOverCapacity(left: number, holding: number, now = Date.now()): void {
    const changed = left !== this.overCapacity.count;
    if (left === 0) {
      if (changed) this.logger.info("every inbox this replica should watch is watched again");
      this.overCapacity = { count: 0, loggedAt: 0 };
      return;
    }
    if (!changed && now - this.overCapacity.loggedAt < 5 * 60_000) return;
    this.logger.warn("inboxes left unwatched: this replica is full; add imap-poller replicas or raise IMAP_MAX_CONNECTIONS", {
      unwatched: left,
      watching: holding,
      maxConnections: this.options.maxConnections,
      maxPerAccount: this.options.maxPerAccount ?? 0,
    });
    this.overCapacity = { count: left, loggedAt: now };
  }

  /** Of these inboxes, those whose preferred replica has asked for them. */
  private async wanted(ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const values = await this.redis.mget(...ids.map((id) => this.options.wantKey(id)));
    return new Set(ids.filter((_, i) => values[i] !== null));
  }

  /** Renews every lease held, in one round trip; a watcher whose lease was lost stops. */
  private async renewAll(): Promise<void> {
    const ids = [...this.watchers.keys()];
    if (ids.length === 0 || this.stopped) return;
    const requestedAt = Date.now();
    if (requestedAt - this.lastRoundAt > this.leases.ttlMs * 2) {
      // rounds have stalled: keep renewing and this replica would hold inboxes it may no longer serve
      this.logger.warn("inbox rounds stalled; letting the leases lapse", { stalledMs: requestedAt - this.lastRoundAt });
      return;
    }
    try {
      const held = await this.leases.acquireMany(ids);
      for (const id of ids) {
        if (!held.has(id)) await this.drop(id);
        else if (this.watchers.has(id)) this.renewedAt.set(id, requestedAt);
        // dropped meanwhile (the watchdog): not ours to keep
        else await this.leases.release(id);
      }
    } catch (err) {
      this.logger.warn("renewing inbox leases failed; trying again", { ...errorFields(err) });
    }
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
    if (!this.watchers.has(id)) return;
    const watcher = this.watchers.get(id);
    this.watchers.delete(id);
    this.renewedAt.delete(id);
    await watcher?.stop().catch(ignoreFailure(this.logger, "stopping an inbox watcher", "its connection is dropped and its lease lapses"));
    await this.leases.release(id);
  }
}

/**
 * The inboxes to hold, of these in order of preference: up to `capacity`,
 * taken one per account in turn (an account's own in the order given), and
 * at most `perAccount` of one account when that is set. With room for all,
 * all are held; without, every account that has inboxes gets an equal share
 * (the rest of an account's turn goes to those with more).
 */
export function fairShare(inboxes: InboxEndpoint[], capacity: number, perAccount = 0): Set<string> {
  const byAccount = new Map<string, InboxEndpoint[]>();
  for (const inbox of inboxes) {
    const key = inbox.accountId ?? "";
    const list = byAccount.get(key);
    if (list) list.push(inbox);
    else byAccount.set(key, [inbox]);
  }
  const limit = perAccount > 0 ? perAccount : Infinity;
  const queues = [...byAccount.values()].map((list) => list.slice(0, limit));
  const kept = new Set<string>();
  for (let turn = 0; kept.size < capacity; turn++) {
    let any = false;
    for (const queue of queues) {
      const inbox = queue[turn];
      if (!inbox) continue;
      any = true;
      kept.add(inbox.credentialId);
      if (kept.size >= capacity) break;
    }
    if (!any) break;
  }
  return kept;
}
