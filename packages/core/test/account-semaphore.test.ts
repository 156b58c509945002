import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, test } from "node:test";
import { RedisSemaphore } from "../src/account-semaphore.js";
import { createRedis } from "../src/redis.js";

const redis = createRedis({ redisUrl: process.env.REDIS_URL ?? "redis://127.0.0.1:6379" }, "producer");
after(() => redis.quit());
const key = () => `test-${randomBytes(6).toString("hex")}:sem`;

test("at most `limit` holders at once; a released slot is free again; the same holder renews instead of taking a second slot", async () => {
  const semaphore = new RedisSemaphore(redis, 3, 60_000);
  const k = key();
  const results = await Promise.all(["a", "b", "c", "d", "e"].map((h) => semaphore.tryAcquire(k, h)));
  assert.equal(results.filter(Boolean).length, 3);
  assert.equal(await semaphore.tryAcquire(k, "a"), results[0], "a holder asking again keeps (or still lacks) its slot");
  const holder = ["a", "b", "c", "d", "e"].find((_, i) => results[i])!;
  await semaphore.release(k, holder);
  assert.equal(await semaphore.tryAcquire(k, "f"), true);
  assert.equal(await semaphore.tryAcquire(k, "g"), false);
  await redis.del(k);
});

test("a lease that is not renewed expires, so a crashed holder's slot comes back", async () => {
  const semaphore = new RedisSemaphore(redis, 1, 100);
  const k = key();
  assert.equal(await semaphore.tryAcquire(k, "crashed"), true);
  assert.equal(await semaphore.tryAcquire(k, "next"), false);
  const deadline = Date.now() + 5_000;
  let acquired = false;
  while (!acquired && Date.now() < deadline) {
    acquired = await semaphore.tryAcquire(k, "next");
    if (!acquired) await new Promise((r) => setTimeout(r, 50));
  }
  assert.equal(acquired, true);
  await redis.del(k);
});

test("leases that keep being renewed stay held long after the key's own expiry would have dropped them", async () => {
  const semaphore = new RedisSemaphore(redis, 2, 200);
  const k = key();
  assert.equal(await semaphore.tryAcquire(k, "a"), true);
  assert.equal(await semaphore.tryAcquire(k, "b"), true);
  // renew for 4x the key's expiry (2 x lease): no new holder may get in meanwhile
  const until = Date.now() + 1_600;
  while (Date.now() < until) {
    await new Promise((r) => setTimeout(r, 60));
    assert.equal(await semaphore.tryAcquire(k, "intruder"), false, "both slots are still held");
    assert.equal(await semaphore.tryAcquire(k, "a"), true);
    assert.equal(await semaphore.tryAcquire(k, "b"), true);
  }
  await redis.del(k);
});
