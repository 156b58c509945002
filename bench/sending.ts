// Sending benchmark: end-to-end sends per second of the real engine (dispatcher and
// sender as child processes, PostgreSQL, Redis) to a loopback SMTP sink, beside the
// physical limit (plain pooled nodemailer to the same sink) in the same run.
//   node --import tsx bench/sending.ts [contacts=5000] [credentials=5] [senders=1,2] [sinks=lean,instant]
// One account, `credentials` inboxes (daily_limit 1,000,000), `contacts` pending
// enrollments seeded with bulk SQL, jitter 0, dispatched with a real campaign-dispatch
// job; a fresh database and queue prefix per engine run, for every sink and sender count.
// Sinks (bench/lib/engine-bench.ts):
//   lean     smtp-server without parsing; 100 ms pause before the greeting of every session
//   instant  a minimal SMTP server written for this, greeting at once
//   recorder @outreach/testing's startSmtpServer (smtp-server + mailparser on every message)
// The raw nodemailer limit is measured against every sink (pooled, and with a new
// session per message, which is what the sender's SmtpPool does in practice).
// BENCH_CANDIDATE_INDEX=1 adds a candidate index to each throwaway database (see candidateIndex).
// DISPATCHER_NODE_ARGS / SENDER_NODE_ARGS add node flags (e.g. --cpu-prof --cpu-prof-dir=/tmp/prof).
// Writes bench/results/sending.json.
import { createTestDatabase, startSmtpServer, uniqueQueuePrefix, type AppProcess } from "@outreach/testing";
import {
  analyze,
  appEnv,
  candidateIndex,
  argNumber,
  CpuMeter,
  dispatchClient,
  dropQueuePrefix,
  log,
  machineInfo,
  maxOf,
  minOf,
  round,
  runChild,
  seedAccount,
  slowLogStart,
  slowLogSummary,
  startApp,
  startInstantSink,
  startLeanSink,
  stopApp,
  writeResult,
  type Sink,
} from "./lib/engine-bench.js";

const contacts = argNumber(0, 5_000);
const credentials = argNumber(1, 5);
const senderCounts = (process.argv[4] ?? "1,2").split(",").map(Number).filter((n) => n > 0);
const sinkNames = (process.argv[5] ?? "lean,instant").split(",").filter(Boolean);
const NEW_SESSION_SAMPLE = Math.min(contacts, 1_000);
const TIMEOUT_MS = Number(process.env.BENCH_TIMEOUT_MS ?? 240_000);

interface RawResult {
  mode: string;
  count: number;
  ms: number;
  per_second: number;
}

/** The recorder of @outreach/testing behind the Sink interface (only what the engine run reads). */
async function startRecorderSink(): Promise<Sink & { raw: Awaited<ReturnType<typeof startSmtpServer>> }> {
  const raw = await startSmtpServer();
  return {
    raw,
    host: raw.host,
    port: raw.port,
    get times() {
      return raw.messages.map((m) => m.receivedAt.getTime());
    },
    get count() {
      return raw.messages.length;
    },
    get byUser() {
      const map = new Map<string, number>();
      for (const m of raw.messages) map.set(m.username ?? "", (map.get(m.username ?? "") ?? 0) + 1);
      return map;
    },
    get duplicates() {
      const seen = new Set<string>();
      let dup = 0;
      for (const m of raw.messages) for (const to of m.envelope.to) seen.has(to) ? dup++ : seen.add(to);
      return dup;
    },
    sessions: Number.NaN,
    maxOpenSessions: Number.NaN,
    arrivalOf: () => Promise.reject(new Error("not supported by the recorder adapter")),
    waitForCount: async (count, timeoutMs) => void (await raw.waitForMessages(count, timeoutMs)),
    reset: () => raw.clear(),
    close: () => raw.close(),
  };
}

/** Resolves with Date.now() once the batch's rows exist (they are written in one transaction, so one row means all). */
async function rowsExist(db: import("@outreach/db").Db, campaignId: string, deadline: number): Promise<number> {
  for (;;) {
    const [row] = await db.$queryRawUnsafe<Array<{ exists: boolean }>>(`SELECT EXISTS (SELECT 1 FROM step_sends WHERE "campaignId" = $1::uuid) AS exists`, campaignId);
    if (row?.exists) return Date.now();
    if (Date.now() > deadline) throw new Error("the batch was not planned in time");
    await new Promise((r) => setTimeout(r, 20));
  }
}

function perSecondBuckets(times: number[], from: number): { p10: number; median: number; p90: number } {
  const buckets = new Map<number, number>();
  for (const t of times) {
    const second = Math.floor((t - from) / 1000);
    buckets.set(second, (buckets.get(second) ?? 0) + 1);
  }
  // whole seconds between the first and the last message only
  const seconds = [...buckets.keys()].sort((a, b) => a - b);
  const inner = seconds.slice(1, -1).map((s) => buckets.get(s)!).sort((a, b) => a - b);
  const at = (q: number) => inner[Math.min(inner.length - 1, Math.floor(q * inner.length))] ?? 0;
  return { p10: at(0.1), median: at(0.5), p90: at(0.9) };
}

async function engineRun(sink: Sink, senders: number) {
  const database = await createTestDatabase();
  const prefix = uniqueQueuePrefix();
  const apps: AppProcess[] = [];
  const client = await dispatchClient(prefix);
  try {
    const seedStarted = performance.now();
    const seeded = await seedAccount(database.db, { label: "send", contacts, credentials, dailyLimit: 1_000_000, minWaitSeconds: 0, maxWaitSeconds: 0, smtp: sink });
    const whatIf = await candidateIndex(database.db);
    await analyze(database.db);
    const seedMs = Math.round(performance.now() - seedStarted);
    const slowLog = await slowLogStart(database.db, database.name);
    const env = appEnv(database.url, prefix);
    const [dispatcher, ...senderApps] = await Promise.all([startApp("dispatcher", env), ...Array.from({ length: senders }, () => startApp("sender", env))]);
    apps.push(dispatcher!, ...senderApps);
    const cpu = new CpuMeter({ dispatcher, ...Object.fromEntries(senderApps.map((s, i) => [`sender_${i + 1}`, s])) }, database.name);
    sink.reset();
    log(`engine run: ${contacts} enrollments, ${credentials} inboxes, ${senders} sender(s)`);

    cpu.begin();
    const { jobId, enqueuedAt } = await client.dispatch({ accountId: seeded.accountId, campaignId: seeded.campaignId, batchNumber: 1 });
    const planned = rowsExist(database.db, seeded.campaignId, enqueuedAt + TIMEOUT_MS);
    const progress = setInterval(() => log(`  ${sink.count} / ${contacts} received`), 10_000);
    try {
      await sink.waitForCount(contacts, TIMEOUT_MS);
    } finally {
      clearInterval(progress);
    }
    const cpuUse = cpu.end();
    const times = sink.times;
    const lastAt = maxOf(times);
    const firstAt = minOf(times);
    const plannedAt = await planned;
    const job = await client.jobTimes(jobId);
    // the records follow the last message by a transaction
    let recordedAt = Date.now();
    for (;;) {
      const sent = await database.db.stepSend.count({ where: { campaignId: seeded.campaignId, state: "sent" } });
      recordedAt = Date.now();
      if (sent >= contacts || recordedAt - lastAt > 30_000) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    // per send, from its claim (queued -> sending) to its record (sent): load, SMTP session, send, record
    const [timing] = await database.db.$queryRawUnsafe<Array<{ p50: number; p90: number; p99: number; max: number }>>(
      `SELECT round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms))::int AS p50, round(percentile_cont(0.9) WITHIN GROUP (ORDER BY ms))::int AS p90,
              round(percentile_cont(0.99) WITHIN GROUP (ORDER BY ms))::int AS p99, round(max(ms))::int AS max
       FROM (SELECT extract(epoch FROM ("sentAt" - "claimedAt")) * 1000 AS ms FROM step_sends WHERE "campaignId" = $1::uuid AND state = 'sent') t`,
      seeded.campaignId,
    );
    const states = await database.db.stepSend.groupBy({ by: ["state"], where: { campaignId: seeded.campaignId }, _count: true });
    const seconds = (lastAt - enqueuedAt) / 1000;
    const result = {
      senders,
      seed_ms: seedMs,
      what_if_index: whatIf,
      dispatch_to_last_message_ms: lastAt - enqueuedAt,
      sends_per_second: round(contacts / seconds, 1),
      sends_per_second_first_to_last_message: round(contacts / ((lastAt - firstAt) / 1000), 1),
      per_second_buckets: perSecondBuckets(times, enqueuedAt),
      plan: {
        enqueue_to_job_start_ms: job.processedOn - enqueuedAt,
        job_start_to_rows_scheduled_ms: plannedAt - job.processedOn,
        enqueue_to_rows_scheduled_ms: plannedAt - enqueuedAt,
        job_start_to_job_done_ms: job.finishedOn - job.processedOn,
        job_result: job.returnvalue,
      },
      dispatch_to_first_message_ms: firstAt - enqueuedAt,
      last_message_to_all_recorded_sent_ms: recordedAt - lastAt,
      step_sends_by_state: Object.fromEntries(states.map((s) => [s.state, s._count])),
      messages_received: sink.count,
      smtp_sessions_opened: Number.isNaN(sink.sessions) ? undefined : sink.sessions,
      smtp_sessions_open_at_most: Number.isNaN(sink.maxOpenSessions) ? undefined : sink.maxOpenSessions,
      claim_to_recorded_sent_ms: timing,
      duplicate_recipients: sink.duplicates,
      messages_per_inbox: Object.fromEntries([...sink.byUser.entries()].sort()),
      cpu_during_sending: cpuUse,
      slow_statements: slowLogSummary(database.name, slowLog),
    };
    log(`  ${result.sends_per_second} sends/s, plan ${result.plan.job_start_to_rows_scheduled_ms} ms`);
    return result;
  } finally {
    await Promise.all(apps.map((app) => stopApp(app)));
    const noisy = apps.map((app) => ({ app: app.app, pid: app.child.pid, output: app.output().trim().split("\n").filter(Boolean) })).filter((a) => a.output.length);
    for (const a of noisy) log(`${a.app} ${a.pid} logged ${a.output.length} line(s), e.g. ${a.output.slice(0, 3).join(" | ")}`);
    await client.close();
    await database.drop();
    await dropQueuePrefix(prefix);
  }
}

const sinks: Record<string, Sink> = { lean: await startLeanSink(), instant: await startInstantSink(), recorder: await startRecorderSink() };
for (const name of sinkNames) if (!sinks[name]) throw new Error(`unknown sink ${name}`);
try {
  log(`raw nodemailer: ${contacts} messages pooled to each sink, ${NEW_SESSION_SAMPLE} with a new session per message`);
  await runChild<RawResult>("raw-send.ts", [sinks.lean!.host, String(sinks.lean!.port), "500"]); // warm-up
  const raw: Record<string, { pooled: RawResult; new_session_per_message: RawResult }> = {};
  for (const [name, sink] of Object.entries(sinks)) {
    raw[name] = {
      pooled: await runChild<RawResult>("raw-send.ts", [sink.host, String(sink.port), String(contacts)]),
      new_session_per_message: await runChild<RawResult>("raw-send.ts", [sink.host, String(sink.port), String(NEW_SESSION_SAMPLE), "10", "new-connection"]),
    };
    sink.reset();
    log(`  ${name}: pooled ${raw[name]!.pooled.per_second}/s, new session per message ${raw[name]!.new_session_per_message.per_second}/s`);
  }

  const engine: Record<string, Awaited<ReturnType<typeof engineRun>>[]> = {};
  const ratios: Record<string, Record<string, number>> = {};
  for (const name of sinkNames) {
    engine[name] = [];
    for (const senders of senderCounts) {
      log(`sink ${name}`);
      engine[name]!.push(await engineRun(sinks[name]!, senders));
    }
    ratios[name] = Object.fromEntries(
      engine[name]!.flatMap((r) => [
        [`senders_${r.senders}_over_raw_pooled`, round(r.sends_per_second / raw[name]!.pooled.per_second, 3)],
        [`senders_${r.senders}_over_raw_new_session_per_message`, round(r.sends_per_second / raw[name]!.new_session_per_message.per_second, 3)],
      ]),
    );
  }

  writeResult("sending", {
    date: new Date().toISOString(),
    machine: machineInfo(),
    settings: { contacts, credentials, daily_limit: 1_000_000, jitter_seconds: [0, 0], steps: 1, dispatchers: 1, senders: senderCounts, sinks: sinkNames },
    sinks: {
      lean: "smtp-server, DATA drained without parsing; smtp-server pauses 100 ms before every greeting (early-talker check)",
      instant: "minimal SMTP server of bench/lib, greets at once, DATA drained",
      recorder: "@outreach/testing startSmtpServer: smtp-server (100 ms greeting pause) + mailparser on every message",
    },
    what: "engine: from queue.add of the campaign-dispatch job to the last message's end of DATA at the sink; raw: nodemailer in its own process, same messages (buildStepEmail), same sink: pooled = pool: true, maxConnections 10 (defaults otherwise); new_session_per_message = no pool, 10 at a time, one SMTP session per message",
    raw_nodemailer: raw,
    engine,
    ratios_engine_over_raw: ratios,
  });
} finally {
  for (const sink of Object.values(sinks)) await sink.close();
}
