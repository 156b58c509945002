import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, test } from "node:test";
import { Worker } from "bullmq";
import { Cluster } from "ioredis";
import { redisClusterUnavailableReason, skipWithoutSystemServer, startRedisCluster, uniqueQueuePrefix, type RedisClusterTestServer } from "@outreach/testing";
import { RedisSemaphore } from "../src/account-semaphore.js";
import { announceAccountAccessChange } from "../src/api-key-events.js";
import { loadConfig, type Config } from "../src/config.js";
import { InboxLeases } from "../src/inbox-leases.js";
import { withTimeout } from "../src/deadline.js";
import { createLogger } from "../src/logger.js";
import { MetricsLease } from "../src/metrics.js";
import { absentProcesses, LivenessBeacon } from "../src/process-liveness.js";
import { TypedQueue } from "../src/queue-client.js";
import { createRedis, keyspaceNodes, pingRedis, type RedisClient } from "../src/redis.js";
import { redisKeys } from "../src/redis-keys.js";
import { SenderRegistry } from "../src/sender-registry.js";

// Every class of this package that runs a script, a pipeline or MULTI, and
// BullMQ, against a three-master Redis Cluster: one deployment per master (its
// hash-tagged prefix decides which), so each works whichever node it lands on.
const skip = skipWithoutSystemServer("redis-server", redisClusterUnavailableReason(), process.env);
const logger = createLogger({ service: "dispatcher", level: "error" });
let cluster: RedisClusterTestServer;
let redis: RedisClient;
const opened: RedisClient[] = [];

function connect(config: Config, role: "worker" | "producer" | "command" = "producer"): RedisClient {
  const client = createRedis(config, role);
  opened.push(client);
  return client;
}

/** One deployment's config on the cluster whose keys live on the master at `port`. */
async function deploymentOn(port: number): Promise<Config> {
  for (;;) {
    const config = loadConfig("dispatcher", { REDIS_CLUSTER_NODES: cluster.nodes, QUEUE_PREFIX: uniqueQueuePrefix() });
    if ((await cluster.portOfKey(redisKeys.senderRegistry(config))) === port) return config;
  }
}

/** Every key of a prefix, with the port of the master that holds it (SCAN of each master). */
async function keysOf(client: RedisClient, prefix: string): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  for (const node of keyspaceNodes(client)) {
    let cursor = "0";
    do {
      const [next, keys] = await node.scan(cursor, "MATCH", `${prefix.replace(/[*?[\]\\]/g, "\\$&")}*`, "COUNT", 1000);
      for (const key of keys) found.set(key, node.options.port!);
      cursor = next;
    } while (cursor !== "0");
  }
  return found;
}

before(async () => {
  if (skip) return;
  cluster = await startRedisCluster();
  redis = connect(loadConfig("dispatcher", { REDIS_CLUSTER_NODES: cluster.nodes }), "command");
  await pingRedis(redis, 10_000);
});
after(async () => {
  for (const client of opened) client.disconnect();
  await cluster?.stop();
});

test("REDIS_CLUSTER_NODES gives a cluster connection, ready for PING, whose keyspace is its three masters", { skip }, async () => {
  assert.ok(redis instanceof Cluster);
  assert.equal(redis.status, "ready");
  assert.equal(await redis.ping(), "PONG");
  assert.deepEqual(
    keyspaceNodes(redis)
      .map((node) => node.options.port)
      .sort(),
    [...cluster.ports].sort(),
  );
});

test("readiness pings every master: one that stops answering fails it, and it passes again once back", { skip }, async () => {
  const client = connect(loadConfig("dispatcher", { REDIS_CLUSTER_NODES: cluster.nodes }), "command");
  await pingRedis(client, 10_000);
  for (const port of cluster.ports) {
    cluster.pause(port);
    try {
      // several times: a single PING of the cluster would reach a random node, and pass now and then
      for (let i = 0; i < 5; i++) await assert.rejects(withTimeout(pingRedis(client), 300, "redis"), /redis/, `master on ${port} away`);
    } finally {
      cluster.resume(port);
    }
    await pingRedis(client);
  }
});

for (const master of [0, 1, 2]) {
  test(`a deployment whose keys live on master ${master + 1}: semaphores, leases, registries, liveness, pub/sub and BullMQ work, every key in its one slot`, { skip }, async () => {
    const port = cluster.ports[master]!;
    const config = await deploymentOn(port);
    assert.match(config.queuePrefix, /^\{test-[0-9a-f]+\}$/, "the prefix is a hash tag");
    const client = connect(config);
    await pingRedis(client, 10_000);
    const accounts = [randomUUID(), randomUUID(), randomUUID()];

    // RedisSemaphore: a script per acquire, a pipeline of them across accounts to renew
    const semaphore = new RedisSemaphore(client, 2, 10_000);
    const [first, second] = accounts.map((account) => redisKeys.smtpSessions(config, account));
    assert.equal(await semaphore.tryAcquire(first!, "a"), true);
    assert.equal(await semaphore.tryAcquire(first!, "b"), true);
    assert.equal(await semaphore.tryAcquire(first!, "c"), false, "the limit holds");
    assert.equal(await semaphore.tryAcquire(second!, "a"), true);
    assert.deepEqual(
      await semaphore.renewAll([
        { key: first!, holder: "a" },
        { key: second!, holder: "a" },
        { key: first!, holder: "c" },
      ]),
      [true, true, false],
    );
    await semaphore.release(first!, "a");
    assert.equal(await semaphore.tryAcquire(first!, "c"), true);

    // InboxLeases: one script over many keys, MGET over many keys
    const inboxes = Array.from({ length: 40 }, () => randomUUID());
    const leases = new InboxLeases(client, (id) => redisKeys.inboxLease(config, id), "replica-1");
    const rival = new InboxLeases(client, (id) => redisKeys.inboxLease(config, id), "replica-2");
    assert.equal((await leases.acquireMany(inboxes.slice(0, 30))).size, 30);
    assert.deepEqual([...(await rival.acquireMany(inboxes))].sort(), inboxes.slice(30).sort(), "the rival takes only the free ones");
    assert.equal((await leases.heldOf(inboxes)).size, 40);
    await leases.release(inboxes[0]!);
    assert.equal((await rival.heldOf(inboxes)).size, 39);

    // SenderRegistry: heartbeat, live and expired scripts
    const registry = new SenderRegistry(client, config, 5_000);
    await registry.start("sender-1");
    await client.zadd(redisKeys.senderRegistry(config), 1, "sender-gone");
    assert.deepEqual(await registry.live(), ["sender-1"]);
    assert.deepEqual(
      (await registry.expired()).map((entry) => entry.id),
      ["sender-gone"],
    );
    await registry.forget("sender-gone");
    await registry.stop("sender-1");
    assert.deepEqual(await registry.members(), []);

    // MetricsLease: one replica holds it
    const lease = new MetricsLease(client, config, "dispatcher", logger, 10_000);
    const other = new MetricsLease(client, config, "dispatcher", logger, 10_000);
    await lease.start();
    await other.start();
    assert.deepEqual([lease.isHeld(), other.isHeld()], [true, false]);
    await lease.stop();
    await other.stop();

    // LivenessBeacon and absentProcesses: a pipeline of EXISTS over many processes
    const beacon = new LivenessBeacon(client, config, 5_000);
    beacon.start();
    const gone = [randomUUID(), randomUUID()];
    const present = async () => (await absentProcesses(client, config, [beacon.processId, ...gone])).length === 2;
    for (let i = 0; i < 50 && !(await present()); i++) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual((await absentProcesses(client, config, [beacon.processId, ...gone])).sort(), gone.sort());
    await beacon.stop();

    // pub/sub: a subscriber on a cluster connection hears an announcement published through another
    const subscriber = connect(config, "worker");
    const heard = new Promise<string>((resolve) => subscriber.on("message", (_channel, message) => resolve(message)));
    await subscriber.subscribe(redisKeys.apiKeyEventsChannel(config));
    await announceAccountAccessChange(client, config, accounts[0]!);
    assert.equal(await heard, `account:${accounts[0]}`);

    // BullMQ: a producer adds, a worker (blocking connection) completes
    const queue = new TypedQueue("campaign-dispatch", config, client);
    const done = new Promise<unknown>((resolve, reject) => {
      const worker = new Worker("campaign-dispatch", async (job) => job.data, { connection: connect(config, "worker"), prefix: config.queuePrefix });
      worker.on("completed", (job) => void worker.close().then(() => resolve(job.data), reject));
      worker.on("failed", (_job, err) => reject(err));
    });
    await queue.add({ accountId: accounts[0]!, campaignId: accounts[1]!, batchNumber: 1 });
    assert.deepEqual(await done, { accountId: accounts[0], campaignId: accounts[1], batchNumber: 1 });
    await queue.close();

    const keys = await keysOf(client, config.queuePrefix);
    assert.ok(keys.has(redisKeys.bullQueue(config, "campaign-dispatch") + ":meta"), "BullMQ's keys are under the prefix");
    assert.ok(keys.has(redisKeys.inboxLease(config, inboxes[1]!)));
    assert.deepEqual(new Set(keys.values()), new Set([port]), "every key of the deployment is on its one master");
  });
}

test("without the hash tag the same multi-key calls are refused (CROSSSLOT): the tag is what makes them work", { skip }, async () => {
  const config = loadConfig("dispatcher", { REDIS_CLUSTER_NODES: cluster.nodes });
  const untagged = { ...config, queuePrefix: uniqueQueuePrefix() };
  const client = connect(config);
  await pingRedis(client, 10_000);
  const inboxes = Array.from({ length: 20 }, () => randomUUID());
  const ports = new Set(await Promise.all(inboxes.map((id) => cluster.portOfKey(redisKeys.inboxLease(untagged, id)))));
  assert.ok(ports.size > 1, "the untagged keys spread over masters");
  await assert.rejects(new InboxLeases(client, (id) => redisKeys.inboxLease(untagged, id), "r").acquireMany(inboxes), /CROSSSLOT/);
  await assert.rejects(new TypedQueue("campaign-dispatch", untagged, client).add({ accountId: randomUUID(), campaignId: randomUUID(), batchNumber: 1 }), /CROSSSLOT|slot/i);
});
