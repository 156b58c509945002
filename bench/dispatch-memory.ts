// Dispatch memory benchmark: the dispatcher's peak RSS (VmHWM of its process, the
// figure a pod's memory limit is held against) while it plans one big batch, with
// one dispatcher process and no sender.
//   node --import tsx bench/dispatch-memory.ts [cases=100000x1,1000000x3]   (or: <enrollments> <steps>)
// Runs each case `enrollments`x`steps` in turn. Each case
// gets a fresh database seeded with INSERT ... SELECT generate_series (5 inboxes,
// jitter 120-420 s, daily limit 5,000 per inbox, so the plan spans many days).
// DISPATCH_CHUNK_SIZE (step rows per chunk) is passed through when set; DISPATCHER_NODE_ARGS
// adds node flags to the dispatcher (e.g. "--max-old-space-size=128"). DISPATCHER_BUNDLE=<path of a
// built apps/dispatcher/dist/main.js> runs that bundle (what the image runs) instead of the sources through tsx.
// Writes bench/results/dispatch-memory.json.
import { spawn } from "node:child_process";
import { loadavg } from "node:os";
import { executor } from "@outreach/db";
import { createBulkCampaign, findFreePort, waitFor, type AppProcess } from "@outreach/testing";
import { appEnv, closeDispatchStand, openDispatchStand, startApp } from "./lib/apps.js";
import { procStatusMb } from "./lib/cpu.js";
import { round } from "./lib/numbers.js";
import { log, machineInfo, writeResult } from "./lib/results.js";

// one case may also be given as two numbers: <enrollments> <steps>
const spec = process.argv[2] && !process.argv[2].includes("x") ? `${process.argv[2]}x${process.argv[3] ?? 1}` : process.argv[2];
const cases = (spec || "100000x1,1000000x3").split(",").map((c) => {
  const [count, stepCount] = c.replace(/_/g, "").split("x").map(Number);
  if (!count || !stepCount) throw new Error(`a case is <enrollments>x<steps>, got ${c}`);
  return { count, stepCount };
});
const TIMEOUT_MS = Number(process.env.BENCH_TIMEOUT_MS ?? 1_800_000);
const chunkSize = process.env.DISPATCH_CHUNK_SIZE;
const bundle = process.env.DISPATCHER_BUNDLE;

/** The built dispatcher as the image runs it: `node dist/main.js`, ready once /readyz answers. */
async function startBundle(path: string, env: Record<string, string>): Promise<AppProcess> {
  const port = await findFreePort();
  const nodeArgs = process.env.DISPATCHER_NODE_ARGS?.split(" ").filter(Boolean) ?? [];
  let output = "";
  const child = spawn(process.execPath, [...nodeArgs, path], { env: { ...process.env, NODE_ENV: "test", LOG_LEVEL: "warn", ...env, HEALTH_PORT: String(port) }, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | string>((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal ?? -1)));
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitFor(async () => (await fetch(`${baseUrl}/readyz`).catch(() => null))?.ok === true, { timeoutMs: 60_000, what: "the dispatcher bundle to be ready" });
  return {
    app: "dispatcher",
    port,
    baseUrl,
    child,
    output: () => output,
    exited,
    async stop(signal = "SIGTERM") {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

async function run(count: number, stepCount: number) {
  const stand = await openDispatchStand();
  const { database, prefix, client } = stand;
  let dispatcher: Awaited<ReturnType<typeof startApp>> | undefined;
  try {
    const seedStarted = performance.now();
    const seeded = await createBulkCampaign(database.db, { enrollments: count, steps: stepCount, credentials: 5, dailyLimit: 5_000, minWaitSeconds: 120, maxWaitSeconds: 420, label: "mem" });
    const seedMs = Math.round(performance.now() - seedStarted);
    const env = { ...appEnv(database.url, prefix), ...(chunkSize ? { DISPATCH_CHUNK_SIZE: chunkSize } : {}) };
    dispatcher = bundle ? await startBundle(bundle, env) : await startApp("dispatcher", env);
    const pid = dispatcher.child.pid;
    // idle a moment first: what the process reaches on its own (start-up, first queries) is not the dispatch's
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const rssBeforeMb = procStatusMb(pid, "VmRSS");
    const hwmBeforeMb = procStatusMb(pid, "VmHWM");
    log(`${count} enrollments x ${stepCount} steps (seeded in ${seedMs} ms), dispatcher RSS ${rssBeforeMb} MB (peak so far ${hwmBeforeMb} MB)`);

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
    const [stats] = await executor(database.db).rows<{ rows: number; step1: number; days: number; dispatched: number; overbooked: number }>(
      `SELECT count(*)::int AS rows, count(*) FILTER (WHERE "stepPosition" = 1)::int AS step1, count(DISTINCT "limitDay")::int AS days,
              (SELECT count(*)::int FROM enrollments WHERE "campaignId" = $1::uuid AND "dispatchedAt" IS NOT NULL) AS dispatched,
              (SELECT count(*)::int FROM (SELECT 1 FROM step_sends WHERE "campaignId" = $1::uuid AND "stepPosition" = 1
                 GROUP BY "credentialId", "limitDay" HAVING count(*) > 5000) o) AS overbooked
       FROM step_sends WHERE "campaignId" = $1::uuid`,
      [seeded.campaignId],
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
      planning_ms: job.finishedOn - job.processedOn,
      loadavg_at_end: loadavg().map((l) => round(l, 2)),
      limit_days_used: stats!.days,
      credential_days_over_daily_limit: stats!.overbooked,
      dispatcher_rss_mb: {
        before: rssBeforeMb,
        peak_before_job_vmhwm: hwmBeforeMb,
        peak_vmhwm: peakRssMb,
        sampled_max: samples.length ? Math.max(...samples) : null,
        sampled_median: samples.length ? samples.sort((a, b) => a - b)[Math.floor(samples.length / 2)] : null,
        samples: samples.length,
      },
    };
    log(`  ${result.enqueue_to_job_done_ms} ms, peak RSS ${peakRssMb} MB (${job.returnvalue})`);
    return result;
  } finally {
    await closeDispatchStand(stand, dispatcher);
  }
}

const runs = [];
for (const c of cases) runs.push(await run(c.count, c.stepCount));
writeResult("dispatch-memory", {
  date: new Date().toISOString(),
  machine: machineInfo(),
  settings: {
    dispatch_chunk_size: chunkSize ? Number(chunkSize) : "default (10000 step rows)",
    credentials: 5,
    daily_limit: 5_000,
    jitter_seconds: [120, 420],
    dispatcher_processes: 1,
    senders: 0,
    dispatcher_node_args: process.env.DISPATCHER_NODE_ARGS ?? "",
    dispatcher_runs: bundle ? "the built bundle (node dist/main.js)" : "the sources through tsx",
  },
  what: "one dispatcher process plans one batch (campaign-dispatch job) in chunks; peak RSS is the process's VmHWM from /proc at the end of the job, RSS sampled every 250 ms during it",
  runs,
  peak_rss_mb_max: Math.max(...runs.map((r) => r.dispatcher_rss_mb.peak_vmhwm ?? 0)),
  duration_s: runs.map((r) => round(r.enqueue_to_job_done_ms / 1000, 1)),
});
