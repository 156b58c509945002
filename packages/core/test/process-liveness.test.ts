import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, test } from "node:test";
import { absentProcesses, LivenessBeacon } from "../src/process-liveness.js";
import { createRedis } from "../src/redis.js";

const redis = createRedis({ redisUrl: process.env.REDIS_URL ?? "redis://127.0.0.1:6379" }, "producer");
after(() => redis.quit());
const config = () => ({ queuePrefix: `test-${randomBytes(6).toString("hex")}` });

test("a started beacon is present, refreshed before it expires, and absent once stopped", async () => {
  const cfg = config();
  const beacon = new LivenessBeacon(redis, cfg, 300);
  beacon.start();
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.deepEqual(await absentProcesses(redis, cfg, [beacon.processId]), []);
  await new Promise((resolve) => setTimeout(resolve, 600));
  assert.deepEqual(await absentProcesses(redis, cfg, [beacon.processId]), [], "still there after twice its expiry: it is refreshed");
  await beacon.stop();
  assert.deepEqual(await absentProcesses(redis, cfg, [beacon.processId]), [beacon.processId]);
});

test("a process that stops refreshing (it died) becomes absent when its key expires; unknown ids are absent", async () => {
  const cfg = config();
  await redis.set(`${cfg.queuePrefix}:alive:crashed`, "1", "PX", 150);
  assert.deepEqual(await absentProcesses(redis, cfg, ["crashed", "never-seen"]), ["never-seen"]);
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.deepEqual(await absentProcesses(redis, cfg, ["crashed", "never-seen"]), ["crashed", "never-seen"]);
  assert.deepEqual(await absentProcesses(redis, cfg, []), []);
});
