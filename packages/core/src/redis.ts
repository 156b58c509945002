import { Cluster, Redis, type ClusterOptions, type RedisOptions } from "ioredis";
import type { Config } from "./config.js";
import type { RedisClusterConfig } from "./redis-cluster-seeds.js";

export type RedisRole = "worker" | "producer" | "command";

/** A connection of ours: one Redis server (REDIS_URL) or a Redis Cluster (REDIS_CLUSTER_NODES). Both speak the same commands. */
export type RedisClient = Redis | Cluster;

/** What createRedis connects to: the cluster when the config names one, otherwise redisUrl. */
export type RedisTarget = Pick<Config, "redisUrl"> & Partial<Pick<Config, "redisCluster">>;

/**
 * One factory for every Redis connection. BullMQ workers need
 * maxRetriesPerRequest: null (blocking commands); producers and plain command
 * connections fail fast so an API request does not hang while Redis is down.
 * Connections reconnect forever with a capped backoff, so apps recover without
 * a restart when Redis comes back. On a cluster the same options apply to the
 * connection of every node, and the backoff to reconnecting the cluster.
 */
export function createRedis(config: RedisTarget, role: RedisRole = "command", options: RedisOptions = {}): RedisClient {
  const roleOptions: RedisOptions = {
    maxRetriesPerRequest: role === "worker" ? null : 2,
    enableOfflineQueue: role !== "command",
    connectTimeout: 5_000,
    retryStrategy: (times) => Math.min(times * 200, 2_000),
    lazyConnect: false,
    ...options,
  };
  return config.redisCluster ? createCluster(config.redisCluster, roleOptions) : new Redis(config.redisUrl, roleOptions);
}

/** ioredis reconnects a cluster's nodes itself; our retryStrategy becomes the cluster's, the rest each node's options. */
function createCluster(cluster: RedisClusterConfig, { retryStrategy, enableOfflineQueue, lazyConnect, ...nodeOptions }: RedisOptions): Cluster {
  const options: ClusterOptions = {
    redisOptions: { ...nodeOptions, username: cluster.username, password: cluster.password, ...(cluster.tls ? { tls: {} } : {}) },
    clusterRetryStrategy: retryStrategy ? (times) => retryStrategy(times) : () => null,
    enableOfflineQueue,
    lazyConnect,
    // a TLS cluster's certificates name its hosts: connect by the name the cluster announces, not a resolved address
    ...(cluster.tls ? { dnsLookup: (address, callback) => callback(null, address) } : {}),
  };
  return new Cluster(cluster.seeds, options);
}

/**
 * PING that first waits (bounded) for a connection still being established, so
 * a fresh app is not reported down. On a cluster every master is pinged: one
 * PING would reach a random node, and report ready while the master holding
 * this deployment's slot is away.
 */
export async function pingRedis(redis: RedisClient, waitMs = 1_500): Promise<void> {
  if (redis.status !== "ready") {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        redis.off("ready", onReady);
        reject(new Error(`redis is ${redis.status}`));
      }, waitMs);
      const onReady = () => {
        clearTimeout(timer);
        resolve();
      };
      redis.once("ready", onReady);
    });
  }
  await Promise.all(keyspaceNodes(redis).map((node) => node.ping()));
}

/**
 * The servers holding data: the one server, or every master of a cluster.
 * What walks the keyspace (SCAN) walks each of them, since a cluster node
 * only lists the keys of its own slots.
 */
export function keyspaceNodes(redis: RedisClient): Redis[] {
  if (!(redis instanceof Cluster)) return [redis];
  const masters = redis.nodes("master");
  // before its first connection a cluster knows no node: scanning none would find nothing, silently
  if (masters.length === 0) throw new Error(`the Redis Cluster is ${redis.status}: no master known yet`);
  return masters;
}
