import assert from "node:assert/strict";
import { test } from "node:test";
import { ConfigError, loadConfig } from "../src/config.js";

test("REDIS_CLUSTER_NODES: host:port seeds, the prefix hash-tagged; unset, REDIS_URL and the bare prefix", () => {
  const config = loadConfig("sender", { REDIS_CLUSTER_NODES: " 10.0.0.1:7000, redis-1.internal:7001,[::1]:7002 ", QUEUE_PREFIX: "acme" });
  assert.deepEqual(config.redisCluster, {
    seeds: [
      { host: "10.0.0.1", port: 7000 },
      { host: "redis-1.internal", port: 7001 },
      { host: "::1", port: 7002 },
    ],
    username: undefined,
    password: undefined,
    tls: false,
  });
  assert.equal(config.queuePrefix, "{acme}");
  assert.equal(loadConfig("sender", { REDIS_CLUSTER_NODES: "redis:6379" }).queuePrefix, "{outreach}");

  const single = loadConfig("sender", { QUEUE_PREFIX: "acme" });
  assert.equal(single.redisCluster, undefined);
  assert.equal(single.queuePrefix, "acme", "outside a cluster the prefix (and so every key) is unchanged");
  assert.equal(loadConfig("sender", { REDIS_CLUSTER_NODES: "" }).redisCluster, undefined, "empty is unset");
});

test("a managed cluster's password and TLS come as rediss:// seeds, which must agree", () => {
  const config = loadConfig("sender", { REDIS_CLUSTER_NODES: "rediss://default:s%40cret@node-1.cache.example:6379,node-2.cache.example:6379" });
  assert.deepEqual(config.redisCluster, {
    seeds: [
      { host: "node-1.cache.example", port: 6379 },
      { host: "node-2.cache.example", port: 6379 },
    ],
    username: "default",
    password: "s@cret",
    tls: true,
  });
  assert.throws(
    () => loadConfig("sender", { REDIS_CLUSTER_NODES: "rediss://:one@a:6379,rediss://:two@b:6379" }),
    (error: ConfigError) => error.variable === "REDIS_CLUSTER_NODES" && /different schemes or credentials/.test(error.message) && !/:one@|:two@/.test(error.message),
  );
});

test("a bad seed is refused naming the variable and the seed's position, never echoing a password", () => {
  const refused: Array<[string, RegExp]> = [
    ["10.0.0.1", /seed 1 \("10\.0\.0\.1"\) is not host:port/],
    ["10.0.0.1:7000,10.0.0.2:99999", /seed 2 .* is not host:port/],
    ["a:1,,b", /seed 2 \("b"\) is not host:port/],
    ["redis://:hunter2@node:6379/3", /seed 1 names a database/],
    ["redis://:hunter2@node", /seed 1 must name a host and a port/],
    ["http://node:6379", /seed 1 .* is not host:port/],
    [" , ", /no seed/],
  ];
  for (const [value, message] of refused) {
    assert.throws(
      () => loadConfig("sender", { REDIS_CLUSTER_NODES: value }),
      (error: ConfigError) => error instanceof ConfigError && error.variable === "REDIS_CLUSTER_NODES" && message.test(error.message) && !error.message.includes("hunter2"),
      value,
    );
  }
});
