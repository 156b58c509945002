// Fairness benchmark: while account A's big batch is being sent, how long does
// account B's single enrollment take from its dispatch to its email reaching the
// SMTP sink? Target: under 5 s. Also A's throughput meanwhile.
//   node --import tsx bench/fairness.ts [a_enrollments=50000] [probes=5] [senders=2] [a_credentials=5]
// A: one campaign, `a_credentials` inboxes (daily_limit 1,000,000), jitter 0, one
// batch. B: one inbox, one enrollment per batch; each probe dispatches the next
// batch once A's sends are flowing (and `BENCH_PROBE_GAP_MS`, default 2 s, after the
// previous probe arrived). One dispatcher, `senders` sender processes, lean sink.
// BENCH_CANDIDATE_INDEX=1 runs it with a candidate index added to the throwaway database (see candidateIndex).
// BENCH_EXPLAIN=1 adds the plan of A's release query (the feeder's and every sender's) to the result.
// Writes bench/results/fairness.json.
import { executor } from "@outreach/db";
import { createTestDatabase, uniqueQueuePrefix } from "@outreach/testing";
import { EngineApps } from "./lib/apps.js";
import { CpuMeter } from "./lib/cpu.js";
import { maxOf, minOf, round } from "./lib/numbers.js";
import { dispatchClient, dropQueuePrefix } from "./lib/queues.js";
import { log, machineInfo, writeResult } from "./lib/results.js";
import { analyze, candidateIndex, seedAccount } from "./lib/seeding.js";
import { argNumber } from "./lib/settings.js";
import { slowLogStart, slowLogSummary } from "./lib/slow-log.js";
import { startLeanSink } from "./lib/smtp-sinks.js";

const aEnrollments = argNumber(0, 50_000);
const probes = argNumber(1, 5);
const senders = argNumber(2, 2);
const aCredentials = argNumber(3, 5);
const FLOWING_AFTER = Number(process.env.BENCH_FLOWING_AFTER ?? 300); // A messages received before the first probe
const PROBE_GAP_MS = Number(process.env.BENCH_PROBE_GAP_MS ?? 2_000);
const PROBE_TIMEOUT_MS = Number(process.env.BENCH_PROBE_TIMEOUT_MS ?? 120_000);
const TARGET_MS = 5_000;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)]! : 0;
};

const sink = await startLeanSink();
const database = await createTestDatabase();
const prefix = uniqueQueuePrefix();
const client = await dispatchClient(prefix);
const apps = new EngineApps();
try {
  const seedStarted = performance.now();
  const a = await seedAccount(database.db, { label: "fair-a", contacts: aEnrollments, credentials: aCredentials, dailyLimit: 1_000_000, minWaitSeconds: 0, maxWaitSeconds: 0, smtp: sink });
  const b = await seedAccount(database.db, {
    label: "fair-b",
    contacts: probes,
    credentials: 1,
    dailyLimit: 1_000_000,
    minWaitSeconds: 0,
    maxWaitSeconds: 0,
    smtp: sink,
    batchOf: "own",
    addressTag: "+probe",
  });
  const whatIf = await candidateIndex(database.db);
  await analyze(database.db);
  const seedMs = Math.round(performance.now() - seedStarted);
  const slowLog = await slowLogStart(database.db, database.name);
  const cpu = new CpuMeter(await apps.start(database.url, prefix, senders), database.name);
  const bUser = b.usernames[0]!;
  const aCount = () => sink.count - (sink.byUser.get(bUser) ?? 0);
  log(`A: ${aEnrollments} enrollments on ${aCredentials} inboxes; ${senders} senders; ${probes} probes of B (seeded in ${seedMs} ms)`);

  cpu.begin();
  const aDispatch = await client.dispatch({ accountId: a.accountId, campaignId: a.campaignId, batchNumber: 1 });
  await sink.waitForCount(FLOWING_AFTER, PROBE_TIMEOUT_MS);
  const aJob = await client.jobTimes(aDispatch.jobId);
  const flowingAt = Date.now();
  const aAtFlowing = aCount();
  log(`A flowing: ${aAtFlowing} received ${flowingAt - aDispatch.enqueuedAt} ms after its dispatch`);

  const results = [];
  for (let k = 1; k <= probes; k++) {
    const aBefore = aCount();
    const { jobId, enqueuedAt } = await client.dispatch({ accountId: b.accountId, campaignId: b.campaignId, batchNumber: k });
    const arrival = await Promise.race([
      sink.arrivalOf(b.emailOf(k)),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`probe ${k} not received within ${PROBE_TIMEOUT_MS} ms`)), PROBE_TIMEOUT_MS).unref()),
    ]);
    const job = await client.jobTimes(jobId);
    const probe = {
      probe: k,
      dispatch_to_received_ms: arrival - enqueuedAt,
      enqueue_to_job_start_ms: job.processedOn - enqueuedAt,
      job_start_to_job_done_ms: job.finishedOn - job.processedOn,
      job_done_to_received_ms: arrival - job.finishedOn,
      a_messages_meanwhile: aCount() - aBefore,
      a_messages_before: aBefore,
    };
    log(`  probe ${k}: ${probe.dispatch_to_received_ms} ms (A sent ${probe.a_messages_meanwhile} meanwhile)`);
    results.push(probe);
    if (k < probes) await new Promise((r) => setTimeout(r, PROBE_GAP_MS));
  }
  const endedAt = Date.now();
  const cpuUse = cpu.end();
  const aAtEnd = aCount();
  const aTimes = sink.times;
  const latencies = results.map((r) => r.dispatch_to_received_ms);

  let releasePlans: Record<string, string[]> | undefined;
  if (process.env.BENCH_EXPLAIN) {
    // The release query of releaseDueSends for A, as the feeder and the senders run it
    // (rolled back), now, after ANALYZE, and with a candidate index added to this
    // throwaway database (the schema itself is not changed).
    const explain = () =>
      database.db.$transaction(async (tx) => {
        const rows = await executor(tx).rows<{ "QUERY PLAN": string }>(
          `EXPLAIN (ANALYZE, BUFFERS)
           SELECT s.id FROM step_sends s
           JOIN campaigns c ON c.id = s."campaignId" AND c.status = 'active'
           WHERE s."accountId" = $1::uuid AND s.state = 'scheduled' AND s."dueAt" <= now()
             AND NOT EXISTS (SELECT 1 FROM step_sends p WHERE p."enrollmentId" = s."enrollmentId" AND p."stepPosition" < s."stepPosition" AND p.state <> 'sent')
           ORDER BY s."dueAt", s.id LIMIT 10 FOR UPDATE OF s SKIP LOCKED`,
          [a.accountId],
        );
        return rows.map((r) => r["QUERY PLAN"]);
      });
    await apps.stop();
    releasePlans = { as_run: await explain() };
    await executor(database.db).execute("ANALYZE step_sends");
    releasePlans.after_analyze = await explain();
    if (!whatIf) await executor(database.db).execute(`CREATE INDEX bench_candidate_due_id ON step_sends ("accountId", "dueAt", id) WHERE state = 'scheduled'`);
    await executor(database.db).execute("ANALYZE step_sends");
    releasePlans.with_index_account_due_id = await explain();
  }
  const states = await database.db.stepSend.groupBy({ by: ["state"], where: { accountId: a.accountId }, _count: true });

  writeResult("fairness", {
    date: new Date().toISOString(),
    machine: machineInfo(),
    settings: {
      a_enrollments: aEnrollments,
      a_credentials: aCredentials,
      senders,
      dispatchers: 1,
      probes,
      probe_gap_ms: PROBE_GAP_MS,
      flowing_after_a_messages: FLOWING_AFTER,
      jitter_seconds: [0, 0],
      what_if_index: whatIf,
      sink: "lean (smtp-server, drains DATA without parsing)",
    },
    what: "B: from queue.add of B's campaign-dispatch job (one enrollment) to B's message's end of DATA at the sink, while A's batch is being sent",
    target_ms: TARGET_MS,
    b_dispatch_to_received_ms: { max: Math.max(...latencies), median: median(latencies), all: latencies },
    meets_target: Math.max(...latencies) < TARGET_MS,
    probes: results,
    a: {
      seed_ms: seedMs,
      plan_job_start_to_done_ms: aJob.finishedOn - aJob.processedOn,
      plan_job_result: aJob.returnvalue,
      dispatch_to_first_message_ms: minOf(aTimes) - aDispatch.enqueuedAt,
      sends_per_second_before_probes: round((aAtFlowing - 0) / ((flowingAt - minOf(aTimes)) / 1000), 1),
      sends_per_second_during_probes: round((aAtEnd - aAtFlowing) / ((endedAt - flowingAt) / 1000), 1),
      messages_received: aAtEnd,
      step_sends_by_state_at_end: Object.fromEntries(states.map((s) => [s.state, s._count])),
    },
    duplicate_recipients: sink.duplicates,
    smtp_sessions_opened: sink.sessions,
    smtp_sessions_open_at_most: sink.maxOpenSessions,
    cpu_during_run: cpuUse,
    slow_statements: slowLogSummary(database.name, slowLog),
    release_query_plans_for_a: releasePlans,
  });
} finally {
  await apps.stop();
  apps.logOutput();
  await client.close();
  await database.drop();
  await dropQueuePrefix(prefix);
  await sink.close();
}
