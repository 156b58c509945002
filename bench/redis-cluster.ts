// The same Redis work on one Redis server (REDIS_URL) and on a three-master
// Redis Cluster on loopback (REDIS_CLUSTER_NODES, started here), in one run:
// a semaphore slot taken and given back (a script and a ZREM), 500 inbox leases
// renewed in one script, and BullMQ jobs added and worked. With the hash-tagged
// prefix a deployment's keys all live on one master, so the cluster is expected
// to cost about what one server does (plus ioredis's slot routing), not less.
//
//   node --import tsx bench/redis-cluster.ts [slot round trips=3000] [jobs=3000]
import { randomUUID } from "node:crypto";
import { Worker } from "bullmq";
import { createRedis, InboxLeases, loadConfig, pingRedis, RedisSemaphore, redisKeys, TypedQueue, type Config } from "@outreach/core";
import { startRedisCluster, uniqueQueuePrefix } from "@outreach/testing";
import { round } from "./lib/numbers.js";
import { log, machineInfo, writeResult } from "./lib/results.js";
import { argNumber, REDIS_URL } from "./lib/settings.js";

const slotRoundTrips = argNumber(0, 3_000);
const jobs = argNumber(1, 3_000);

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]!;

async function measure(config: Config) {
  const redis = createRedis(config, "producer");
  await pingRedis(redis, 10_000);
  const semaphore = new RedisSemaphore(redis, 10, 10_000);
  const key = redisKeys.smtpSessions(config, randomUUID());
  const latencies: number[] = [];
  const slotsStarted = performance.now();
  for (let i = 0; i < slotRoundTrips; i++) {
    const started = performance.now();
    await semaphore.tryAcquire(key, "holder");
    await semaphore.release(key, "holder");
    latencies.push(performance.now() - started);
  }
  const slotsMs = performance.now() - slotsStarted;

  const leases = new InboxLeases(redis, (id) => redisKeys.inboxLease(config, id), "bench");
  const inboxes = Array.from({ length: 500 }, () => randomUUID());
  const renewals: number[] = [];
  for (let i = 0; i < 50; i++) {
    const started = performance.now();
    await leases.acquireMany(inboxes);
    renewals.push(performance.now() - started);
  }

  const queue = new TypedQueue("campaign-dispatch", config, redis);
  const addStarted = performance.now();
  for (let i = 0; i < jobs; i += 100) {
    await queue.addBulk(Array.from({ length: Math.min(100, jobs - i) }, () => ({ payload: { accountId: randomUUID(), campaignId: randomUUID(), batchNumber: 1 } })));
  }
  const addMs = performance.now() - addStarted;
  const workStarted = performance.now();
  const connection = createRedis(config, "worker");
  let done = 0;
  await new Promise<void>((resolve) => {
    const worker = new Worker("campaign-dispatch", async () => undefined, { connection, prefix: config.queuePrefix, concurrency: 20 });
    worker.on("completed", () => {
      if (++done === jobs) void worker.close().then(() => resolve());
    });
  });
  const workMs = performance.now() - workStarted;
  await queue.queue.obliterate({ force: true });
  await queue.close();
  connection.disconnect();
  redis.disconnect();
  return {
    slot_take_and_release: { per_second: round((slotRoundTrips / slotsMs) * 1000, 0), p50_ms: round(percentile(latencies, 50), 3), p99_ms: round(percentile(latencies, 99), 3) },
    renew_500_inbox_leases_ms: { p50: round(percentile(renewals, 50), 2), p99: round(percentile(renewals, 99), 2) },
    bullmq_jobs_added_per_second: round((jobs / addMs) * 1000, 0),
    bullmq_jobs_worked_per_second: round((jobs / workMs) * 1000, 0),
  };
}

const cluster = await startRedisCluster();
try {
  log("one Redis server");
  const single = await measure(loadConfig("dispatcher", { REDIS_URL, QUEUE_PREFIX: uniqueQueuePrefix() }));
  log("three-master Redis Cluster");
  const clustered = await measure(loadConfig("dispatcher", { REDIS_CLUSTER_NODES: cluster.nodes, QUEUE_PREFIX: uniqueQueuePrefix() }));
  writeResult("redis-cluster", {
    machine: machineInfo(),
    settings: { slot_round_trips: slotRoundTrips, jobs, lease_renewals: 50, worker_concurrency: 20 },
    note: "one machine, loopback; the single server is the shared Redis on 6379, the cluster three fresh redis-server processes: indicative",
    single_server: single,
    cluster: clustered,
  });
} finally {
  await cluster.stop();
}
