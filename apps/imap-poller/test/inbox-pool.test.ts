import assert from "node:assert/strict";
import { after, test } from "node:test";
import { createLogger, createRedis, InboxLeases, type Config, type RedisClient } from "@outreach/core";
import { captureLogs, startTcpProxy, uniqueQueuePrefix, waitFor, type TcpProxy } from "@outreach/testing";
import { InboxPool, type Watcher } from "../src/inbox-pool.js";
import type { InboxEndpoint } from "../src/inbox-watcher.js";
import { ReplicaRing } from "../src/replica-ring.js";

// Two replicas' pools in one process, real Redis, stand-in watchers that record who watches
// what: a replica that can no longer renew its leases (its database or Redis stalls) must stop
// watching before another replica may take its inboxes over.
const LEASE_TTL_MS = 1_500;
const ROUND_MS = 200;
const INBOXES: InboxEndpoint[] = ["a", "b", "c", "d"].map((name, i) => ({
  credentialId: `00000000-0000-4000-8000-00000000000${i}`,
  host: "imap.example.com",
  port: 993,
  secure: true,
  username: `${name}@example.com`,
  password: "secret",
}));

const cleanup: Array<() => Promise<unknown>> = [];
after(async () => {
  for (const fn of cleanup.reverse()) await fn().catch(() => undefined);
});

/** Who watches which inbox right now, and every time two watched the same one. */
class WatchLog {
  readonly watching = new Map<string, Set<string>>();
  readonly overlaps: string[] = [];

  watcherFor(replica: string, endpoint: InboxEndpoint): Watcher {
    const holders = () => {
      let set = this.watching.get(endpoint.credentialId);
      if (!set) this.watching.set(endpoint.credentialId, (set = new Set()));
      return set;
    };
    return {
      credentialId: endpoint.credentialId,
      matches: () => true,
      start: () => {
        const set = holders();
        if (set.size > 0) this.overlaps.push(`${endpoint.username}: ${replica} started while ${[...set].join(", ")} watched`);
        set.add(replica);
      },
      stop: async () => void holders().delete(replica),
    };
  }

  watchedBy(replica: string): number {
    return [...this.watching.values()].filter((set) => set.has(replica)).length;
  }
}

function startPool(
  name: string,
  redis: RedisClient,
  prefix: string,
  log: WatchLog,
  listInboxes: () => Promise<InboxEndpoint[]>,
  maxConnections = 100,
  logger = createLogger({ service: "imap-poller", level: "error" }),
): InboxPool {
  const ring = new ReplicaRing(redis, `${prefix}:replicas`, LEASE_TTL_MS);
  const leases = new InboxLeases(redis, (id) => `${prefix}:lease:${id}`, ring.replicaId, LEASE_TTL_MS);
  const pool = new InboxPool(redis, ring, leases, logger, {
    listInboxes,
    createWatcher: (endpoint) => log.watcherFor(name, endpoint),
    maxConnections,
    everyMs: ROUND_MS,
    wantKey: (id) => `${prefix}:want:${id}`,
  });
  cleanup.push(() => pool.stop());
  return pool;
}

function redisClient(url = "redis://127.0.0.1:6379"): RedisClient {
  const redis = createRedis({ redisUrl: url } as Pick<Config, "redisUrl">, "producer");
  redis.on("error", () => undefined);
  cleanup.push(() => redis.quit().catch(() => redis.disconnect()));
  return redis;
}

test("a replica whose rounds stall (its database hangs) stops watching before its leases expire", async () => {
  const prefix = uniqueQueuePrefix();
  const log = new WatchLog();
  let calls = 0;
  const stalled = startPool("stalled", redisClient(), prefix, log, async () => {
    calls += 1;
    if (calls === 1) return INBOXES;
    return new Promise<InboxEndpoint[]>(() => undefined); // never answers again
  });
  await stalled.start();
  assert.equal(log.watchedBy("stalled"), INBOXES.length);

  const healthy = startPool("healthy", redisClient(), prefix, log, async () => INBOXES);
  await healthy.start();
  await waitFor(() => log.watchedBy("healthy") === INBOXES.length, { what: "the healthy replica to take every inbox", timeoutMs: 20_000 });
  assert.deepEqual(log.overlaps, []);
  assert.equal(log.watchedBy("stalled"), 0);
});

test("a replica that cannot reach Redis stops watching before its leases expire", async () => {
  const prefix = uniqueQueuePrefix();
  const log = new WatchLog();
  const proxy: TcpProxy = await startTcpProxy("127.0.0.1", 6379);
  cleanup.push(() => proxy.close());
  const cut = startPool("cut-off", redisClient(proxy.url("redis")), prefix, log, async () => INBOXES);
  await cut.start();
  assert.equal(log.watchedBy("cut-off"), INBOXES.length);

  proxy.cut();
  const healthy = startPool("healthy", redisClient(), prefix, log, async () => INBOXES);
  await healthy.start();
  await waitFor(() => log.watchedBy("healthy") === INBOXES.length, { what: "the healthy replica to take every inbox", timeoutMs: 20_000 });
  assert.deepEqual(log.overlaps, []);
  assert.equal(log.watchedBy("cut-off"), 0);
});

test("a replica starting with 500 inboxes holds them all after its first round, and its renewals keep every one", async () => {
  const prefix = uniqueQueuePrefix();
  const log = new WatchLog();
  const many: InboxEndpoint[] = Array.from({ length: 500 }, (_, i) => ({ ...INBOXES[0]!, credentialId: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`, username: `u${i}@example.com` }));
  const redis = redisClient();
  const pool = startPool("big", redis, prefix, log, async () => many, 1_000);
  await pool.start();
  assert.equal(log.watchedBy("big"), 500, "every inbox watched after the first round");
  let dropped = 0;
  // three lease lifetimes: a watcher whose lease was not renewed in time would have been stopped
  for (let i = 0; i < 9; i++) {
    await new Promise((resolve) => setTimeout(resolve, LEASE_TTL_MS / 3));
    dropped = Math.max(dropped, 500 - log.watchedBy("big"));
  }
  assert.equal(dropped, 0, "no watcher was dropped");
  const holders = await redis.mget(...many.map((inbox) => `${prefix}:lease:${inbox.credentialId}`));
  assert.equal(new Set(holders).size, 1, "one replica holds every lease");
  assert.notEqual(holders[0], null);
});

test("a full replica says in its log how many inboxes it leaves unwatched, and when they are watched again", async () => {
  const prefix = uniqueQueuePrefix();
  const log = new WatchLog();
  const logger = createLogger({ service: "imap-poller", level: "error" });
  const logs = captureLogs(logger, "info");
  cleanup.push(async () => logs.stop());
  let inboxes = INBOXES;
  const pool = startPool("full", redisClient(), prefix, log, async () => inboxes, 3, logger);
  await pool.start();
  assert.equal(log.watchedBy("full"), 3);
  const warnings = () => logs.entries.filter((e) => e.message.startsWith("inboxes left unwatched"));
  assert.equal(warnings().length, 1);
  assert.deepEqual([warnings()[0]!.unwatched, warnings()[0]!.watching, warnings()[0]!.maxConnections], [1, 3, 3]);
  await new Promise((resolve) => setTimeout(resolve, ROUND_MS * 3));
  assert.equal(warnings().length, 1, "not repeated at every round while nothing changes");
  inboxes = INBOXES.slice(0, 3);
  await waitFor(async () => logs.entries.some((e) => e.message === "every inbox this replica should watch is watched again"), { what: "the all-clear", timeoutMs: 5_000 });
});
