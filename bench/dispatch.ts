// Dispatch benchmark: time to plan one big batch, from enqueueing its
// campaign-dispatch job to every step-1 row existing, with one dispatcher process
// and no sender, beside a raw BullMQ queue.addBulk of as many small jobs (chunks of
// 1,000) on the same Redis, in the same run.
//   node --import tsx bench/dispatch.ts [enrollments=100000] [credentials=5] [jitters=0,default]
// jitters: "0" is min = max = 0 s, "default" the campaign defaults (120-420 s).
// daily_limit is 10,000,000 per inbox, so the limit never moves a send to another day
// (with the default jitter the spacing alone runs past today).
// DISPATCHER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the dispatcher.
// Writes bench/results/dispatch.json.
import { randomUUID } from "node:crypto";
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { executor } from "@outreach/db";
import { uniqueQueuePrefix } from "@outreach/testing";
import { appEnv, closeDispatchStand, openDispatchStand, startApp } from "./lib/apps.js";
import { CpuMeter, procStatusMb } from "./lib/cpu.js";
import { round } from "./lib/numbers.js";
import { dropQueuePrefix } from "./lib/queues.js";
import { log, machineInfo, writeResult } from "./lib/results.js";
import { analyze, seedAccount } from "./lib/seeding.js";
import { argNumber, REDIS_URL } from "./lib/settings.js";
import { slowLogStart, slowLogSummary } from "./lib/slow-log.js";

const enrollments = argNumber(0, 100_000);
const credentials = argNumber(1, 5);
const jitters = (process.argv[4] ?? "0,default").split(",").filter(Boolean);
const TIMEOUT_MS = Number(process.env.BENCH_TIMEOUT_MS ?? 300_000);

async function rawAddBulk(count: number, chunk = 1_000) {
  const prefix = uniqueQueuePrefix();
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  // the send-email queue's retention options; the payload a send-email job carries
  const queue = new Queue("send-email", {
    connection: redis,
    prefix,
    defaultJobOptions: { attempts: 6, backoff: { type: "exponential", delay: 30_000 }, removeOnComplete: { age: 86_400, count: 10_000 }, removeOnFail: { age: 604_800, count: 50_000 } },
  });
  try {
    await queue.waitUntilReady();
    const accountId = randomUUID();
    const started = performance.now();
    for (let i = 0; i < count; i += chunk) {
      const jobs = Array.from({ length: Math.min(chunk, count - i) }, () => {
        const stepSendId = randomUUID();
        return { name: "send-email", data: { accountId, stepSendId }, opts: { jobId: `send_${stepSendId}_${Date.now()}` } };
      });
      await queue.addBulk(jobs);
    }
    const ms = performance.now() - started;
    const waiting = await queue.getWaitingCount();
    return { jobs: count, chunk, ms: Math.round(ms), jobs_per_second: Math.round(count / (ms / 1000)), waiting_after: waiting };
  } finally {
    await queue.close();
    await redis.quit().catch(() => undefined);
    await dropQueuePrefix(prefix);
  }
}

async function dispatchRun(jitter: string) {
  const [minWait, maxWait] = jitter === "default" ? [120, 420] : [Number(jitter), Number(jitter)];
  const stand = await openDispatchStand();
  const { database, prefix, client } = stand;
  let dispatcher: Awaited<ReturnType<typeof startApp>> | undefined;
  try {
    const seedStarted = performance.now();
    const seeded = await seedAccount(database.db, {
      label: "dispatch",
      contacts: enrollments,
      credentials,
      dailyLimit: 10_000_000,
      minWaitSeconds: minWait!,
      maxWaitSeconds: maxWait!,
      smtp: { host: "127.0.0.1", port: 9 },
    });
    await analyze(database.db);
    const seedMs = Math.round(performance.now() - seedStarted);
    const slowLog = await slowLogStart(database.db, database.name);
    dispatcher = await startApp("dispatcher", appEnv(database.url, prefix));
    const rssBeforeMb = procStatusMb(dispatcher.child.pid, "VmRSS");
    const cpu = new CpuMeter({ dispatcher }, database.name);
    log(`dispatch run: ${enrollments} enrollments, jitter ${minWait}-${maxWait} s (seeded in ${seedMs} ms)`);

    cpu.begin();
    const { jobId, enqueuedAt } = await client.dispatch({ accountId: seeded.accountId, campaignId: seeded.campaignId, batchNumber: 1 });
    let rowsAt = 0;
    for (;;) {
      const [row] = await executor(database.db).rows<{ exists: boolean }>(`SELECT EXISTS (SELECT 1 FROM step_sends WHERE "campaignId" = $1::uuid) AS exists`, [seeded.campaignId]);
      if (row?.exists) {
        rowsAt = Date.now();
        break;
      }
      if (Date.now() - enqueuedAt > TIMEOUT_MS) throw new Error(`no rows after ${TIMEOUT_MS} ms\n${dispatcher.output()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const job = await client.jobTimes(jobId, TIMEOUT_MS);
    const cpuUse = cpu.end();
    const peakRssMb = procStatusMb(dispatcher.child.pid, "VmHWM");
    const [stats] = await executor(database.db).rows<{ step1: number; first: Date; last: Date; days: number; dispatched: number }>(
      `SELECT count(*)::int AS step1, min("dueAt") AS first, max("dueAt") AS last, count(DISTINCT "limitDay")::int AS days,
              (SELECT count(*)::int FROM enrollments WHERE "campaignId" = $1::uuid AND "dispatchedAt" IS NOT NULL) AS dispatched
       FROM step_sends WHERE "campaignId" = $1::uuid AND "stepPosition" = 1`,
      [seeded.campaignId],
    );
    if (stats!.step1 !== enrollments) throw new Error(`expected ${enrollments} step-1 rows, found ${stats!.step1}`);
    // planning is chunked: the first rows appear with the first chunk, the batch is planned when the job ends
    const ms = job.finishedOn - enqueuedAt;
    const result = {
      jitter_seconds: [minWait, maxWait],
      seed_ms: seedMs,
      enqueue_to_first_rows_ms: rowsAt - enqueuedAt,
      enqueue_to_batch_planned_ms: ms,
      enrollments_per_second: Math.round(enrollments / (ms / 1000)),
      enqueue_to_job_start_ms: job.processedOn - enqueuedAt,
      job_start_to_rows_ms: rowsAt - job.processedOn,
      job_start_to_job_done_ms: job.finishedOn - job.processedOn,
      job_result: job.returnvalue,
      step1_rows: stats!.step1,
      enrollments_marked_dispatched: stats!.dispatched,
      due_span_hours: round((stats!.last.getTime() - stats!.first.getTime()) / 3_600_000, 1),
      limit_days_used: stats!.days,
      dispatcher_rss_mb: { before: rssBeforeMb, peak: peakRssMb },
      cpu_during_dispatch: cpuUse,
      slow_statements: slowLogSummary(database.name, slowLog),
    };
    log(`  ${ms} ms to ${enrollments} rows, peak RSS ${peakRssMb} MB`);
    return result;
  } finally {
    await closeDispatchStand(stand, dispatcher);
  }
}

log(`raw BullMQ addBulk of ${enrollments} jobs`);
await rawAddBulk(5_000); // warm-up
const raw = await rawAddBulk(enrollments);
log(`  ${raw.ms} ms`);
const runs = [];
for (const jitter of jitters) runs.push(await dispatchRun(jitter));

writeResult("dispatch", {
  date: new Date().toISOString(),
  machine: machineInfo(),
  settings: { enrollments, credentials, daily_limit: 10_000_000, steps: 1, dispatcher_processes: 1, senders: 0 },
  what: "engine: from queue.add of the campaign-dispatch job to the batch's step_sends rows existing (one transaction, polled every 50 ms); raw: BullMQ queue.addBulk of as many send-email-sized jobs, sequential chunks of 1,000, same Redis",
  raw_bullmq_add_bulk: raw,
  engine: runs,
  ratios_engine_over_raw: Object.fromEntries(runs.map((r) => [`jitter_${r.jitter_seconds.join("_")}`, round(r.enqueue_to_batch_planned_ms / raw.ms, 2)])),
});
