import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, test } from "node:test";
import { absentProcesses, LivenessBeacon } from "../src/process-liveness.js";
import { createRedis } from "../src/redis.js";

const redis = createRedis({ redisUrl: process.env.REDIS_URL ?? "redis://127.0.0.1:6379" }, "producer");
after(() => redis.quit());
const config = () => ({ queuePrefix: `test-${randomBytes(6).toString("hex")}` });

/** Polls until `fn` is true or the deadline passes; returns whether it became true. */
async function within(ms: number, fn: () => Promise<boolean>): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await fn()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return fn();
}

test("a started beacon is present, refreshed before it expires, and absent once stopped", async () => {
  const cfg = config();
  const beacon = new LivenessBeacon(redis, cfg, 1_000);
  beacon.start();
  const isAbsent = async () => (await absentProcesses(redis, cfg, [beacon.processId])).length === 1;
  assert.equal(await within(2_000, async () => !(await isAbsent())), true, "present once started");
  assert.equal(await within(2_500, isAbsent), false, "never absent over more than twice its expiry: it is refreshed");
  await beacon.stop();
  assert.equal(await isAbsent(), true);
});

test("a process that stops refreshing (it died) becomes absent when its key expires; unknown ids are absent", async () => {
  const cfg = config();
  await redis.set(`${cfg.queuePrefix}:alive:crashed`, "1", "PX", 150);
  assert.deepEqual(await absentProcesses(redis, cfg, ["crashed", "never-seen"]), ["never-seen"]);
  assert.equal(await within(5_000, async () => (await absentProcesses(redis, cfg, ["crashed"])).length === 1), true, "gone after its expiry");
  assert.deepEqual(await absentProcesses(redis, cfg, ["crashed", "never-seen"]), ["crashed", "never-seen"]);
  assert.deepEqual(await absentProcesses(redis, cfg, []), []);
});
