import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, test } from "node:test";
import { createLogger, createRedis, type RedisClient } from "@outreach/core";
import { uniqueQueuePrefix, waitFor } from "@outreach/testing";
import { RateLimiter, type RateLimitDecision, type RateLimitPolicy } from "../src/rate-limiter.js";

const logger = createLogger({ service: "api", level: "error" });
const config = { queuePrefix: uniqueQueuePrefix() };
const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
let redis: RedisClient;
let calls = 0;

before(async () => {
  redis = createRedis({ redisUrl }, "command");
  // this connection fails fast instead of queueing commands while it connects
  await waitFor(() => redis.status === "ready", { what: "Redis" });
  // counts the round trips the limiters make (the commands still run on Redis)
  const evaluate = redis.eval.bind(redis) as (...args: unknown[]) => Promise<unknown>;
  (redis as unknown as { eval: (...args: unknown[]) => Promise<unknown> }).eval = (...args) => {
    calls++;
    return evaluate(...args);
  };
});
after(async () => {
  await redis.quit();
});

/** Two API replicas: two limiters of one policy sharing one Redis. */
function replicas(policy: Omit<RateLimitPolicy, "name">): [RateLimiter, RateLimiter] {
  const named = { name: `test-${randomUUID()}`, ...policy };
  return [new RateLimiter(redis, config, logger, named), new RateLimiter(redis, config, logger, named)];
}

async function takeMany(limiters: RateLimiter[], subject: string, count: number): Promise<(RateLimitDecision | null)[]> {
  const decisions: (RateLimitDecision | null)[] = [];
  for (let i = 0; i < count; i++) decisions.push(await limiters[i % limiters.length]!.take(subject));
  return decisions;
}

test("a small limit is exact across replicas, one after another and in parallel", async () => {
  const [a, b] = replicas({ limit: 5, windowSeconds: 60 });
  const sequential = await takeMany([a, b], "key-1", 8);
  assert.deepEqual(
    sequential.map((d) => d?.allowed),
    [true, true, true, true, true, false, false, false],
  );
  assert.deepEqual(
    sequential.slice(0, 5).map((d) => d?.remaining),
    [4, 3, 2, 1, 0],
  );
  for (const refused of sequential.slice(5)) {
    assert.equal(refused!.remaining, 0);
    // one request comes back every 60 s / 5 = 12 s
    assert.ok(refused!.retryMs > 11_000 && refused!.retryMs <= 12_000, `retryMs ${refused!.retryMs}`);
  }

  const parallel = await Promise.all(Array.from({ length: 12 }, (_, i) => [a, b][i % 2]!.take("key-2")));
  assert.equal(parallel.filter((d) => d?.allowed).length, 5);
  assert.equal(parallel.filter((d) => d && !d.allowed).length, 7);
});

test("a large limit is taken from Redis in batches, within one batch per replica of the limit", async () => {
  // 1,000 per hour: batches of 10, and no cell comes back during the test
  const [a, b] = replicas({ limit: 1000, windowSeconds: 3600 });
  const before = calls;
  const decisions = await takeMany([a, b], "key", 1200);
  const allowed = decisions.filter((d) => d?.allowed).length;
  assert.ok(allowed <= 1000 && allowed >= 1000 - 2 * 10, `${allowed} allowed`);
  assert.ok(
    decisions.slice(allowed + 2 * 10).every((d) => d && !d.allowed),
    "once refused, refused",
  );
  // per request it would be 1,200 round trips
  assert.ok(calls - before <= 1000 / 10 + 10, `${calls - before} Redis calls`);
});

test("RateLimit-Remaining counts down through the cells a replica holds", async () => {
  const [limiter] = replicas({ limit: 1000, windowSeconds: 3600 });
  const decisions = await takeMany([limiter], "key", 25);
  assert.deepEqual(
    decisions.map((d) => d!.remaining),
    Array.from({ length: 25 }, (_, i) => 999 - i),
  );
  assert.ok(decisions.every((d) => d!.resetMs > 0 && d!.resetMs <= 3_600_000));
});

test("requests arriving together on one replica share one Redis call", async () => {
  const [limiter] = replicas({ limit: 100_000, windowSeconds: 60 });
  const before = calls;
  const decisions = await Promise.all(Array.from({ length: 50 }, () => limiter.take("key")));
  assert.ok(decisions.every((d) => d?.allowed));
  assert.equal(new Set(decisions.map((d) => d!.remaining)).size, 50, "each request its own cell");
  assert.ok(calls - before <= 2, `${calls - before} Redis calls`);
});

test("a refusal is answered without Redis until the next request is due", async () => {
  const [a, b] = replicas({ limit: 2, windowSeconds: 60 });
  await takeMany([a], "key", 3);
  const before = calls;
  for (let i = 0; i < 5; i++) {
    const decision = a.take("key");
    assert.ok(!(decision instanceof Promise), "answered at once");
    assert.equal(decision!.allowed, false);
    assert.ok(decision!.retryMs > 0);
  }
  assert.equal(calls, before);
  // the other replica learns it from Redis, once
  assert.equal((await b.take("key"))!.allowed, false);
  assert.equal((await b.take("key"))!.allowed, false);
  assert.equal(calls, before + 1);
});

test("without Redis the limit is not enforced (null: fail open)", async () => {
  const down = createRedis({ redisUrl }, "command");
  down.disconnect();
  const limiter = new RateLimiter(down, config, logger, { name: `test-${randomUUID()}`, limit: 5, windowSeconds: 60 });
  assert.equal(await limiter.take("key"), null);
});
