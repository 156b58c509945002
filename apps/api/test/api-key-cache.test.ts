import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { announceAccountAccessChange, createLogger, createRedis, redisKeys, type RedisClient } from "@outreach/core";
import { uniqueQueuePrefix, waitFor } from "@outreach/testing";
import { ApiKeyCache } from "../src/api-key-cache.js";
import type { AuthContext } from "../src/auth.js";

const logger = createLogger({ service: "api", level: "error" });
const auth: AuthContext = { accountId: "a", apiKeyId: "k", clientKind: "direct" };
let publisher: RedisClient;
let subscriber: RedisClient;

before(() => {
  publisher = createRedis({ redisUrl: process.env.REDIS_URL ?? "redis://127.0.0.1:6379" }, "producer");
  subscriber = createRedis({ redisUrl: process.env.REDIS_URL ?? "redis://127.0.0.1:6379" }, "producer");
});
after(async () => {
  subscriber.disconnect();
  await publisher.quit();
});

test("unknown keys are remembered for invalidTtlMs, at most maxInvalidEntries of them (oldest dropped first)", async () => {
  const cache = new ApiKeyCache("unused", publisher, null, logger, { invalidTtlMs: 60_000, maxInvalidEntries: 3 });
  for (const hash of ["h1", "h2", "h3", "h4", "h5"]) cache.setInvalid(hash);
  assert.deepEqual(
    ["h1", "h2", "h3", "h4", "h5"].map((hash) => cache.isInvalid(hash)),
    [false, false, true, true, true],
  );

  const shortLived = new ApiKeyCache("unused", publisher, null, logger, { invalidTtlMs: 20 });
  shortLived.setInvalid("gone-soon");
  assert.equal(shortLived.isInvalid("gone-soon"), true);
  await waitFor(() => !shortLived.isInvalid("gone-soon"), { what: "the negative entry to expire" });
});

test("a revocation makes the key invalid, also against a lookup that finishes after it", async () => {
  const cache = new ApiKeyCache("unused", publisher, null, logger);
  cache.set("key", auth);
  assert.deepEqual(cache.get("key"), auth);
  await cache.revoke("key");
  assert.equal(cache.get("key"), undefined);
  assert.equal(cache.isInvalid("key"), true);
  // a lookup that read the row before the revocation committed
  cache.set("key", auth);
  assert.equal(cache.get("key"), undefined);
  assert.equal(cache.wasValid("key"), false);
});

test("a revocation broadcast by another replica makes the key invalid here", async () => {
  const channel = `${uniqueQueuePrefix()}:api-key-revoked`;
  const here = new ApiKeyCache(channel, publisher, subscriber, logger);
  const there = new ApiKeyCache(channel, publisher, null, logger);
  await waitFor(async () => ((await publisher.pubsub("NUMSUB", channel)) as [string, number])[1] === 1, { what: "the subscription" });
  here.set("key", auth);
  await there.revoke("key");
  await waitFor(() => here.isInvalid("key"), { what: "the broadcast" });
  assert.equal(here.get("key"), undefined);
});

test("a key stays fresh for ttlMs, then is only remembered as having been valid for rememberMs", async () => {
  const cache = new ApiKeyCache("unused", publisher, null, logger, { ttlMs: 1, rememberMs: 60_000 });
  cache.set("key", auth);
  await waitFor(() => cache.get("key") === undefined, { what: "the entry to go stale" });
  assert.equal(cache.wasValid("key"), true);

  const forgetful = new ApiKeyCache("unused", publisher, null, logger, { ttlMs: 1, rememberMs: 20 });
  forgetful.set("key", auth);
  await waitFor(() => !forgetful.wasValid("key"), { what: "the key to be forgotten" });
});

test("an account whose access changed (announced by another process) has its keys dropped here, not refused", async () => {
  const config = { queuePrefix: uniqueQueuePrefix() };
  const channel = redisKeys.apiKeyEventsChannel(config);
  const here = new ApiKeyCache(channel, publisher, subscriber, logger);
  await waitFor(async () => ((await publisher.pubsub("NUMSUB", channel)) as [string, number])[1] >= 1, { what: "the subscription" });
  const otherAccount: AuthContext = { accountId: "b", apiKeyId: "k2", clientKind: "direct" };
  here.set("key-a1", auth);
  here.set("key-a2", { ...auth, apiKeyId: "k3" });
  here.set("key-b", otherAccount);
  await announceAccountAccessChange(publisher, config, "a");
  await waitFor(() => here.get("key-a1") === undefined && here.get("key-a2") === undefined, { what: "the announcement" });
  assert.equal(here.isInvalid("key-a1"), false, "looked up again, not refused");
  assert.deepEqual(here.get("key-b"), otherAccount, "other accounts' keys stay");
});
