// Dispatch memory benchmark: the dispatcher's peak RSS (VmHWM of its process, the
// figure a pod's memory limit is held against) while it plans one big batch, with
// one dispatcher process and no sender.
//   node --import tsx bench/dispatch-memory.ts [enrollments=250000] [steps=5] [enrollments50=25000]
// Runs two cases: `enrollments` x `steps`, and `enrollments50` x 50 steps. Each case
// gets a fresh database seeded with INSERT ... SELECT generate_series (5 inboxes,
// jitter 120-420 s, daily limit 5,000 per inbox, so the plan spans many days).
// DISPATCH_CHUNK_SIZE (step rows per chunk) is passed through when set.
// Writes bench/results/dispatch-memory.json.
import { createBulkCampaign, createTestDatabase, uniqueQueuePrefix } from "@outreach/testing";
import { appEnv, argNumber, dispatchClient, dropQueuePrefix, log, machineInfo, procStatusMb, round, startApp, stopApp, writeResult } from "./lib/engine-bench.js";

const enrollments = argNumber(0, 250_000);
const steps = argNumber(1, 5);
const enrollments50 = argNumber(2, 25_000);
const TIMEOUT_MS = Number(process.env.BENCH_TIMEOUT_MS ?? 1_800_000);
const chunkSize = process.env.DISPATCH_CHUNK_SIZE;

async function run(count: number, stepCount: number) {
  const database = await createTestDatabase();
  const prefix = uniqueQueuePrefix();
  const client = await dispatchClient(prefix);
  let dispatcher: Awaited<ReturnType<typeof startApp>> | undefined;
  try {
    const seedStarted = performance.now();
    const seeded = await createBulkCampaign(database.db, { enrollments: count, steps: stepCount, credentials: 5, dailyLimit: 5_000, minWaitSeconds: 120, maxWaitSeconds: 420, label: "mem" });
    const seedMs = Math.round(performance.now() - seedStarted);
    dispatcher = await startApp("dispatcher", { ...appEnv(database.url, prefix), ...(chunkSize ? { DISPATCH_CHUNK_SIZE: chunkSize } : {}) });
    const pid = dispatcher.child.pid;
    const rssBeforeMb = procStatusMb(pid, "VmRSS");
    log(`${count} enrollments x ${stepCount} steps (seeded in ${seedMs} ms), dispatcher RSS ${rssBeforeMb} MB`);

    // VmHWM is the kernel's own peak; the samples show the shape over the run
    const samples: number[] = [];
    const sampler = setInterval(() => {
      const rss = procStatusMb(pid, "VmRSS");
      if (rss !== null) samples.push(rss);
    }, 250);
    const { jobId, enqueuedAt } = await client.dispatch({ accountId: seeded.accountId, campaignId: seeded.campaignId, batchNumber: 1 });
    const job = await client.jobTimes(jobId, TIMEOUT_MS);
    clearInterval(sampler);
    const peakRssMb = procStatusMb(pid, "VmHWM");
    const [stats] = await database.db.$queryRawUnsafe<Array<{ rows: number; step1: number; days: number; dispatched: number; overbooked: number }>>(
      `SELECT count(*)::int AS rows, count(*) FILTER (WHERE "stepPosition" = 1)::int AS step1, count(DISTINCT "limitDay")::int AS days,
              (SELECT count(*)::int FROM enrollments WHERE "campaignId" = $1::uuid AND "dispatchedAt" IS NOT NULL) AS dispatched,
              (SELECT count(*)::int FROM (SELECT 1 FROM step_sends WHERE "campaignId" = $1::uuid AND "stepPosition" = 1
                 GROUP BY "credentialId", "limitDay" HAVING count(*) > 5000) o) AS overbooked
       FROM step_sends WHERE "campaignId" = $1::uuid`,
      seeded.campaignId,
    );
    if (stats!.rows !== count * stepCount || stats!.dispatched !== count) throw new Error(`expected ${count * stepCount} rows and ${count} dispatched, found ${JSON.stringify(stats)}`);
    const result = {
      enrollments: count,
      steps: stepCount,
      step_send_rows: stats!.rows,
      seed_ms: seedMs,
      enqueue_to_job_done_ms: job.finishedOn - enqueuedAt,
      rows_per_second: Math.round(stats!.rows / ((job.finishedOn - job.processedOn) / 1000)),
      job_result: job.returnvalue,
      limit_days_used: stats!.days,
      credential_days_over_daily_limit: stats!.overbooked,
      dispatcher_rss_mb: {
        before: rssBeforeMb,
        peak_vmhwm: peakRssMb,
        sampled_max: samples.length ? Math.max(...samples) : null,
        sampled_median: samples.length ? samples.sort((a, b) => a - b)[Math.floor(samples.length / 2)] : null,
        samples: samples.length,
      },
    };
    log(`  ${result.enqueue_to_job_done_ms} ms, peak RSS ${peakRssMb} MB (${job.returnvalue})`);
    return result;
  } finally {
    if (dispatcher) {
      await stopApp(dispatcher);
      const lines = dispatcher.output().trim().split("\n").filter(Boolean);
      if (lines.length) log(`dispatcher logged ${lines.length} line(s), e.g. ${lines.slice(0, 3).join(" | ")}`);
    }
    await client.close();
    await database.drop();
    await dropQueuePrefix(prefix);
  }
}

const runs = [await run(enrollments, steps), await run(enrollments50, 50)];
writeResult("dispatch-memory", {
  date: new Date().toISOString(),
  machine: machineInfo(),
  settings: { dispatch_chunk_size: chunkSize ? Number(chunkSize) : "default (10000 step rows)", credentials: 5, daily_limit: 5_000, jitter_seconds: [120, 420], dispatcher_processes: 1, senders: 0 },
  what: "one dispatcher process plans one batch (campaign-dispatch job) in chunks; peak RSS is the process's VmHWM from /proc at the end of the job, RSS sampled every 250 ms during it",
  runs,
  peak_rss_mb_max: Math.max(...runs.map((r) => r.dispatcher_rss_mb.peak_vmhwm ?? 0)),
  duration_s: runs.map((r) => round(r.enqueue_to_job_done_ms / 1000, 1)),
});
