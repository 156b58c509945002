// Heartbeats and lease renewals log their failures (once, then at most once a
// minute while failing) and their recovery, instead of swallowing them.
//
//   NODE_ENV=test node --import tsx --test test/heartbeat-failures.test.ts
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { test } from "node:test";
import { createLogger, createRedis, HeartbeatFailures, LivenessBeacon } from "@outreach/core";
import { captureLogs, startTcpProxy } from "@outreach/testing";

const REDIS_URL = new URL(process.env.REDIS_URL ?? "redis://127.0.0.1:6379");

async function until(ms: number, ready: () => boolean): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline && !ready()) await new Promise((resolve) => setTimeout(resolve, 25));
  return ready();
}

test("a liveness beacon that cannot reach Redis logs the failure with its stack, then its recovery", async () => {
  const proxy = await startTcpProxy(REDIS_URL.hostname, Number(REDIS_URL.port || 6379));
  const redis = createRedis({ redisUrl: proxy.url("redis") }, "producer", { retryStrategy: () => 50 });
  redis.on("error", () => undefined);
  const logger = createLogger({ service: "test", level: "error" });
  const logs = captureLogs(logger, "info");
  const beacon = new LivenessBeacon(redis, { queuePrefix: `test-${randomBytes(6).toString("hex")}` }, 300, logger);
  try {
    beacon.start();
    await new Promise((resolve) => setTimeout(resolve, 250));
    assert.equal(logs.entries.filter((e) => e.level === "warn").length, 0, "no warning while Redis answers");

    proxy.cut();
    const failed = () => logs.entries.find((e) => e.level === "warn" && e.message.startsWith("refreshing this process's liveness key failed"));
    assert.ok(await until(5_000, () => failed() !== undefined), "the failure is logged");
    assert.equal(failed()!.processId, beacon.processId);
    assert.match(String(failed()!.stack), /Error/, "the first failure carries its stack");
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(logs.entries.filter((e) => e.level === "warn").length, 1, "failures in a row are not logged at every tick");

    proxy.resume();
    assert.ok(await until(5_000, () => logs.entries.some((e) => e.message === "refreshing this process's liveness key works again")), "the recovery is logged");
  } finally {
    logs.stop();
    await beacon.stop();
    redis.disconnect();
    await proxy.close();
  }
});

test("while a heartbeat keeps failing it logs at most once per interval, and counts the failures", () => {
  const lines: Array<{ message: string; meta?: Record<string, unknown> }> = [];
  const logger = { warn: (message: string, meta?: Record<string, unknown>) => lines.push({ message, meta }), info: (message: string, meta?: Record<string, unknown>) => lines.push({ message, meta }) };
  const failures = new HeartbeatFailures(logger, "the test heartbeat", { replica: "r1" }, 60_000);
  failures.failed(new Error("down"), 0);
  failures.failed(new Error("down"), 10_000);
  failures.failed(new Error("down"), 59_999);
  failures.failed(new Error("still down"), 60_000);
  assert.deepEqual(
    lines.map((l) => [l.message, l.meta?.failures, l.meta?.failingForMs, l.meta?.error, l.meta?.replica]),
    [
      ["the test heartbeat failed; retrying", 1, 0, "down", "r1"],
      ["the test heartbeat failed again; retrying", 4, 60_000, "still down", "r1"],
    ],
  );
  failures.succeeded(61_000);
  failures.succeeded(62_000);
  assert.equal(lines.length, 3, "one recovery line");
  assert.deepEqual([lines[2]!.message, lines[2]!.meta?.failures, lines[2]!.meta?.failedForMs], ["the test heartbeat works again", 4, 61_000]);
  failures.failed("no error object", 70_000);
  assert.equal(lines[3]!.message, "the test heartbeat failed; retrying", "a new run of failures is logged at once");
  assert.equal(lines[3]!.meta?.failures, 1);
});
