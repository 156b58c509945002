import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { Queue } from "bullmq";
import { createLogger, createRedis, loadConfig, type Config } from "@outreach/core";
import { captureLogs, createTestDatabase, findFreePort, uniqueQueuePrefix, waitFor, type TestDatabase } from "@outreach/testing";
import { notBuiltYet, startWorkerApp } from "../src/worker-app.js";
import { pingDatabase } from "@outreach/db";

let database: TestDatabase;
let config: Config;
const logger = createLogger({ service: "test", level: "error" });

before(async () => {
  database = await createTestDatabase();
  config = loadConfig("sender", { DATABASE_URL: database.url, QUEUE_PREFIX: uniqueQueuePrefix(), HEALTH_PORT: String(await findFreePort()) });
});
after(() => database?.drop());

const ids = { accountId: "6f1c2b1e-8a3b-4c55-9d5e-0c1f2a3b4c5d", stepSendId: "7a1c2b1e-8a3b-4c55-9d5e-0c1f2a3b4c5d" };

test("a queue whose handler is not built yet fails its jobs loudly instead of pretending success", async () => {
  const app = await startWorkerApp({ app: "sender", config, logger, processors: [{ queue: "send-email", handler: notBuiltYet("send-email") }], checks: {} });
  const connection = createRedis(config, "producer");
  const queue = new Queue("send-email", { connection, prefix: config.queuePrefix });
  try {
    const job = await queue.add("send-email", ids, { attempts: 1 });
    const failed = await waitFor(async () => ((await queue.getJob(job.id!))?.failedReason ? await queue.getJob(job.id!) : undefined), { what: "the job to fail" });
    assert.match(failed.failedReason, /not built yet/);
    assert.equal(await failed.getState(), "failed");
  } finally {
    await queue.close();
    await connection.quit();
    await app.close();
  }
});

test("a job with a malformed payload fails with a validation error and the handler never runs", async () => {
  let ran = false;
  const app = await startWorkerApp({ app: "sender", config, logger, processors: [{ queue: "send-email", handler: async () => void (ran = true) }], checks: {} });
  const connection = createRedis(config, "producer");
  const queue = new Queue("send-email", { connection, prefix: config.queuePrefix });
  try {
    const job = await queue.add("send-email", { accountId: "nope" }, { attempts: 1 });
    const failed = await waitFor(async () => ((await queue.getJob(job.id!))?.failedReason ? await queue.getJob(job.id!) : undefined), { what: "the job to fail" });
    assert.match(failed.failedReason, /invalid send-email payload/);
    assert.equal(ran, false);
  } finally {
    await queue.close();
    await connection.quit();
    await app.close();
  }
});

test("close() lets the job in hand finish before the worker stops, and /readyz reports the shutdown", async () => {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let started = false;
  let finished = false;
  const app = await startWorkerApp({
    app: "sender",
    config,
    logger,
    processors: [
      {
        queue: "send-email",
        handler: async () => {
          started = true;
          await gate;
          finished = true;
        },
      },
    ],
    checks: { postgres: () => pingDatabase(database.db) },
  });
  const connection = createRedis(config, "producer");
  const queue = new Queue("send-email", { connection, prefix: config.queuePrefix });
  try {
    const ready = await fetch(`http://127.0.0.1:${config.healthPort}/readyz`);
    assert.equal(ready.status, 200);
    const job = await queue.add("send-email", ids);
    await waitFor(() => started, { what: "the job to start" });
    const closing = app.close();
    const during = await fetch(`http://127.0.0.1:${config.healthPort}/readyz`).catch(() => undefined);
    if (during) assert.equal(during.status, 503);
    assert.equal(finished, false);
    release();
    await closing;
    assert.equal(finished, true);
    assert.equal(await (await queue.getJob(job.id!))!.getState(), "completed");
  } finally {
    release();
    await app.close();
    await queue.close();
    await connection.quit();
  }
});

test("close() is bounded: a job still running when the time is up does not hold the shutdown", async () => {
  let started = false;
  let release!: () => void;
  const gate = new Promise<string>((resolve) => (release = () => resolve("released")));
  const app = await startWorkerApp({
    app: "sender",
    config: { ...config, healthPort: await findFreePort() },
    logger,
    processors: [{ queue: "send-email", handler: () => ((started = true), gate) }],
    checks: {},
    closeTimeoutMs: 300,
  });
  const connection = createRedis(config, "producer");
  const queue = new Queue("send-email", { connection, prefix: config.queuePrefix });
  try {
    await queue.add("send-email", ids, { attempts: 1 });
    await waitFor(() => started, { what: "the job to start" });
    let closed = false;
    void app.close().then(() => (closed = true));
    await waitFor(() => closed, { timeoutMs: 10_000, what: "close() to return while the job still runs" });
  } finally {
    // the real process exits here; this test process lets the job end instead
    release();
    await queue.close();
    await connection.quit();
  }
});

test("each job is one log line (queue, job id, account, outcome, duration); a failed one is logged with its stack", async () => {
  const jobLogger = createLogger({ service: "test", level: "error" });
  const logs = captureLogs(jobLogger);
  let fail = false;
  const app = await startWorkerApp({
    app: "sender",
    config,
    logger: jobLogger,
    processors: [
      {
        queue: "send-email",
        handler: async () => {
          if (fail) throw new Error("the SMTP server went away");
          return "sent";
        },
      },
    ],
    checks: {},
  });
  const connection = createRedis(config, "producer");
  const queue = new Queue("send-email", { connection, prefix: config.queuePrefix });
  try {
    const done = await queue.add("send-email", ids, { attempts: 1 });
    const line = await waitFor(() => logs.entries.find((entry) => entry.message === "job"), { what: "the job's line" });
    assert.equal(line.queue, "send-email");
    assert.equal(line.jobId, done.id);
    assert.equal(line.accountId, ids.accountId);
    assert.equal(line.outcome, "sent");
    assert.equal(typeof line.durationMs, "number");

    fail = true;
    const failed = await queue.add("send-email", ids, { attempts: 1 });
    const failure = await waitFor(() => logs.entries.find((entry) => entry.message === "job failed"), { what: "the failure's line" });
    assert.equal(failure.jobId, failed.id);
    assert.equal(failure.accountId, ids.accountId);
    assert.equal(failure.error, "the SMTP server went away");
    assert.match(String(failure.stack), /Error: the SMTP server went away\n\s+at /);
  } finally {
    logs.stop();
    await queue.close();
    await connection.quit();
    await app.close();
  }
});
