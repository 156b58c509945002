import assert from "node:assert/strict";
import type { AddressInfo } from "node:net";
import { test } from "node:test";
import { runReadinessChecks, startHealthServer } from "../src/health-server.js";
import type { Logger } from "../src/logger.js";

const SECRET_DETAIL = "connect ECONNREFUSED postgresql://outreach:hunter2@db.internal:5432/outreach";

function capturingLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const logger = { warn: (message: string, meta: Record<string, unknown> = {}) => lines.push({ message, ...meta }) } as unknown as Logger;
  return { logger, lines };
}

const failing = async () => {
  throw new Error(SECRET_DETAIL);
};
const hanging = () => new Promise<void>(() => undefined);

test("readiness answers a fixed word per check and logs the detail", async () => {
  const { logger, lines } = capturingLogger();
  const result = await runReadinessChecks({ postgres: failing, redis: async () => undefined, queue: hanging }, { timeoutMs: 50, logger });
  assert.deepEqual(result, { ok: false, checks: { postgres: "unavailable", redis: "ok", queue: "unavailable" } });
  assert.ok(!JSON.stringify(result).includes("hunter2"));
  const postgres = lines.find((line) => line.check === "postgres");
  assert.equal(postgres?.error, SECRET_DETAIL, "the detail goes to the log");
  assert.match(String(lines.find((line) => line.check === "queue")?.error), /did not answer within 50 ms/);
});

test("the worker health server's /readyz shows no error text", async () => {
  const { logger, lines } = capturingLogger();
  const server = await startHealthServer(0, { postgres: failing }, () => false, logger);
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/readyz`);
    assert.equal(res.status, 503);
    const text = await res.text();
    assert.deepEqual(JSON.parse(text), { status: "unavailable", checks: { postgres: "unavailable" } });
    assert.ok(!text.includes("ECONNREFUSED") && !text.includes("hunter2"), text);
    assert.equal(lines.length, 1);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});
