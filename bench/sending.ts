// Sending benchmark: end-to-end sends per second of the real engine (dispatcher and
// sender as child processes, PostgreSQL, Redis) to a loopback SMTP sink, each beside
// its raw limit (plain pooled nodemailer, 10 connections, its own process, the same
// messages, the same sink) measured in the same run.
//   node --import tsx bench/sending.ts [sends=5000] [inboxes=5] [senders=1,2] [parts=instant,remote]
//                                      [remote_sends=3000] [remote_delay_ms=20] [remote_senders=1]
// Parts (each engine run gets a fresh database and queue prefix):
//   instant  `sends` sends over `inboxes` inboxes to the instant sink, once per sender count
//            in `senders`: sends/s, ratio to raw pooled, SMTP sessions opened (in all and
//            per inbox), most open at once.
//   remote   `remote_sends` sends over `inboxes` inboxes to the remote-like sink (the
//            instant sink answering every command after `remote_delay_ms`), `remote_senders`
//            sender(s): ratio to raw pooled against the same sink, sessions per inbox.
//   lean     like instant, to smtp-server without parsing (100 ms before every greeting).
// One account, one campaign with one step, daily_limit 1,000,000 per inbox, jitter 0;
// the enrollments are seeded with bulk SQL and dispatched by a real campaign-dispatch
// job; a run is timed from queue.add of that job to the last message's end of DATA.
// Every engine run also reports its per-send cost (bench/lib/send-cost.ts): CPU-ms per
// send of each process, PostgreSQL statements, rows and WAL, Redis commands and bytes.
// BENCH_CANDIDATE_INDEX=1 adds a candidate index to each throwaway database (see candidateIndex).
// DISPATCHER_NODE_ARGS / SENDER_NODE_ARGS add node flags (e.g. --cpu-prof --cpu-prof-dir=/tmp/prof).
// Writes bench/results/sending.json.
import { executor } from "@outreach/db";
import { createTestDatabase, uniqueQueuePrefix } from "@outreach/testing";
import { EngineApps, runChild } from "./lib/apps.js";
import { CpuMeter } from "./lib/cpu.js";
import { maxOf, minOf, round } from "./lib/numbers.js";
import { dispatchClient, dropQueuePrefix } from "./lib/queues.js";
import { log, machineInfo, writeResult } from "./lib/results.js";
import { analyze, candidateIndex, seedAccount } from "./lib/seeding.js";
import { argNumber } from "./lib/settings.js";
import { slowLogStart, slowLogSummary } from "./lib/slow-log.js";
import { startInstantSink, startLeanSink, type Sink } from "./lib/smtp-sinks.js";
import { BENCH_TAG, startSendCost, trackStatements } from "./lib/send-cost.js";

const sends = argNumber(0, 5_000);
const inboxes = argNumber(1, 5);
const senderCounts = (process.argv[4] || "1,2")
  .split(",")
  .map(Number)
  .filter((n) => n > 0);
const parts = (process.argv[5] || "instant,remote").split(",").filter(Boolean);
const remoteSends = argNumber(4, 3_000);
const remoteDelayMs = argNumber(5, 20);
const remoteSenders = argNumber(6, 1);
const TIMEOUT_MS = Number(process.env.BENCH_TIMEOUT_MS ?? 300_000);
const RAW_CONNECTIONS = 10;
const TARGETS = {
  sessions_per_5000_sends: { 1: 50, 2: 100 } as Record<number, number>,
  instant_ratio_1_sender: 0.4,
  remote_ratio: 0.9,
  remote_sessions_per_inbox: 2,
};
for (const part of parts) if (!["instant", "remote", "lean"].includes(part)) throw new Error(`unknown part ${part} (instant, remote, lean)`);

interface RawResult {
  mode: string;
  count: number;
  ms: number;
  per_second: number;
}

/** Resolves with Date.now() once the batch's rows exist (they are written in one transaction, so one row means all). */
async function rowsExist(db: import("@outreach/db").Db, campaignId: string, deadline: number): Promise<number> {
  for (;;) {
    const [row] = await executor(db).rows<{ exists: boolean }>(`${BENCH_TAG} SELECT EXISTS (SELECT 1 FROM step_sends WHERE "campaignId" = $1::uuid) AS exists`, [campaignId]);
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
  const inner = seconds
    .slice(1, -1)
    .map((s) => buckets.get(s)!)
    .sort((a, b) => a - b);
  const at = (q: number) => inner[Math.min(inner.length - 1, Math.floor(q * inner.length))] ?? 0;
  return { p10: at(0.1), median: at(0.5), p90: at(0.9) };
}

const sorted = (map: Map<string, number>) => Object.fromEntries([...map.entries()].sort());

async function engineRun(sink: Sink, contacts: number, senders: number) {
  const database = await createTestDatabase();
  const prefix = uniqueQueuePrefix();
  const apps = new EngineApps();
  const client = await dispatchClient(prefix);
  try {
    const seedStarted = performance.now();
    const seeded = await seedAccount(database.db, { label: "send", contacts, credentials: inboxes, dailyLimit: 1_000_000, minWaitSeconds: 0, maxWaitSeconds: 0, smtp: sink });
    const whatIf = await candidateIndex(database.db);
    await analyze(database.db);
    const seedMs = Math.round(performance.now() - seedStarted);
    const slowLog = await slowLogStart(database.db, database.name);
    await trackStatements(database.db, database.name);
    const processes = await apps.start(database.url, prefix, senders);
    const cpu = new CpuMeter(processes, database.name);
    const cost = await startSendCost(database, processes);
    sink.reset();
    log(`engine run: ${contacts} enrollments, ${inboxes} inboxes, ${senders} sender(s)`);

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
      const [row] = await executor(database.db).rows<{ sent: number }>(`${BENCH_TAG} SELECT count(*)::int AS sent FROM step_sends WHERE "campaignId" = $1::uuid AND state = 'sent'`, [
        seeded.campaignId,
      ]);
      recordedAt = Date.now();
      if ((row?.sent ?? 0) >= contacts || recordedAt - lastAt > 30_000) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    cost.markCpu();
    const sessions = { opened: sink.sessions, open_at_most: sink.maxOpenSessions, per_inbox: sorted(sink.sessionsByUser) };
    const messagesPerInbox = sorted(sink.byUser);
    const duplicates = sink.duplicates;
    const received = sink.count;
    await apps.stop();
    const perSend = await cost.finish(contacts);
    // per send, from its claim (queued -> sending) to its record (sent): load, SMTP session, send, record
    const [timing] = await executor(database.db).rows<{ p50: number; p90: number; p99: number; max: number }>(
      `${BENCH_TAG} SELECT round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms))::int AS p50, round(percentile_cont(0.9) WITHIN GROUP (ORDER BY ms))::int AS p90,
              round(percentile_cont(0.99) WITHIN GROUP (ORDER BY ms))::int AS p99, round(max(ms))::int AS max
       FROM (SELECT extract(epoch FROM ("sentAt" - "claimedAt")) * 1000 AS ms FROM step_sends WHERE "campaignId" = $1::uuid AND state = 'sent') t`,
      [seeded.campaignId],
    );
    const states = await executor(database.db).rows<{ state: string; n: number }>(`${BENCH_TAG} SELECT state::text, count(*)::int AS n FROM step_sends WHERE "campaignId" = $1::uuid GROUP BY 1`, [
      seeded.campaignId,
    ]);
    const seconds = (lastAt - enqueuedAt) / 1000;
    const result = {
      senders,
      sends: contacts,
      seed_ms: seedMs,
      what_if_index: whatIf,
      dispatch_to_last_message_ms: lastAt - enqueuedAt,
      sends_per_second: round(contacts / seconds, 1),
      sends_per_second_first_to_last_message: round(contacts / ((lastAt - firstAt) / 1000), 1),
      per_second_buckets: perSecondBuckets(times, enqueuedAt),
      plan: {
        enqueue_to_job_start_ms: job.processedOn - enqueuedAt,
        job_start_to_rows_scheduled_ms: plannedAt - job.processedOn,
        job_start_to_job_done_ms: job.finishedOn - job.processedOn,
        job_result: job.returnvalue,
      },
      dispatch_to_first_message_ms: firstAt - enqueuedAt,
      last_message_to_all_recorded_sent_ms: recordedAt - lastAt,
      step_sends_by_state: Object.fromEntries(states.map((s) => [s.state, s.n])),
      messages_received: received,
      duplicate_recipients: duplicates,
      smtp_sessions: sessions,
      messages_per_inbox: messagesPerInbox,
      claim_to_recorded_sent_ms: timing,
      cpu_during_sending_pct: cpuUse,
      per_send_cost: perSend,
      slow_statements: slowLogSummary(database.name, slowLog),
    };
    log(`  ${result.sends_per_second} sends/s, ${sessions.opened} sessions, ${perSend.postgres.statements.per_send ?? "?"} statements/send`);
    return result;
  } finally {
    await apps.stop();
    apps.logOutput();
    await client.close();
    await database.drop();
    await dropQueuePrefix(prefix);
  }
}

/** Raw pooled nodemailer to this sink, with the sessions it opened. */
async function rawRun(sink: Sink, count: number) {
  sink.reset();
  const raw = await runChild<RawResult>("raw-send.ts", [sink.host, String(sink.port), String(count), String(RAW_CONNECTIONS)]);
  const result = { ...raw, connections: RAW_CONNECTIONS, smtp_sessions_opened: sink.sessions };
  sink.reset();
  return result;
}

const met = (ok: boolean | null) => (ok === null ? null : ok ? "met" : "missed");
const report: Record<string, unknown> = {};
const figures: Array<Record<string, unknown>> = [];

const instantSink = await startInstantSink();
const remoteSink = await startInstantSink({ replyDelayMs: remoteDelayMs });
const leanSink = parts.includes("lean") ? await startLeanSink() : undefined;
try {
  await runChild<RawResult>("raw-send.ts", [instantSink.host, String(instantSink.port), "500"]); // warm-up
  for (const part of parts) {
    const sink = part === "remote" ? remoteSink : part === "lean" ? leanSink! : instantSink;
    const count = part === "remote" ? remoteSends : sends;
    const counts = part === "remote" ? [remoteSenders] : senderCounts;
    log(`${part}: raw pooled nodemailer, ${count} messages, ${RAW_CONNECTIONS} connections`);
    const raw = await rawRun(sink, count);
    log(`  raw ${raw.per_second}/s, ${raw.smtp_sessions_opened} sessions`);
    const runs = [];
    for (const senders of counts) runs.push(await engineRun(sink, count, senders));
    const rows = runs.map((r) => {
      const perInbox = Object.values(r.smtp_sessions.per_inbox);
      const ratio = round(r.sends_per_second / raw.per_second, 3);
      const sessionTarget = part === "instant" ? (TARGETS.sessions_per_5000_sends[r.senders] ?? null) : null;
      const scaledSessions = round((r.smtp_sessions.opened * 5_000) / count, 1);
      return {
        senders: r.senders,
        sends_per_second: r.sends_per_second,
        raw_pooled_per_second: raw.per_second,
        ratio_to_raw_pooled: ratio,
        smtp_sessions_opened: r.smtp_sessions.opened,
        smtp_sessions_per_5000_sends: scaledSessions,
        smtp_sessions_per_inbox_max: perInbox.length ? Math.max(...perInbox) : 0,
        duplicates: r.duplicate_recipients,
        targets:
          part === "instant"
            ? {
                sessions_per_5000_sends: sessionTarget,
                sessions: met(sessionTarget === null ? null : scaledSessions <= sessionTarget),
                ratio: r.senders === 1 ? TARGETS.instant_ratio_1_sender : null,
                ratio_met: r.senders === 1 ? met(ratio >= TARGETS.instant_ratio_1_sender) : null,
              }
            : part === "remote"
              ? {
                  ratio: TARGETS.remote_ratio,
                  ratio_met: met(ratio >= TARGETS.remote_ratio),
                  sessions_per_inbox: TARGETS.remote_sessions_per_inbox,
                  sessions_per_inbox_met: met(Math.max(0, ...perInbox) <= TARGETS.remote_sessions_per_inbox),
                }
              : {},
      };
    });
    report[part] = { sends: count, reply_delay_ms: part === "remote" ? remoteDelayMs : 0, raw_pooled: raw, summary: rows, engine: runs };
    for (const row of rows) {
      const name = `${part}, ${row.senders} sender${row.senders > 1 ? "s" : ""}`;
      figures.push({
        figure: `${name}: sends/s`,
        value: row.sends_per_second,
        raw: row.raw_pooled_per_second,
        ratio: row.ratio_to_raw_pooled,
        target: (row.targets as { ratio?: number | null }).ratio ? `>= ${(row.targets as { ratio: number }).ratio}x raw` : undefined,
        met: (row.targets as { ratio_met?: string | null }).ratio_met ?? undefined,
      });
      if (part === "instant")
        figures.push({
          figure: `${name}: SMTP sessions per 5,000 sends`,
          value: row.smtp_sessions_per_5000_sends,
          raw: round((raw.smtp_sessions_opened * 5_000) / count, 1),
          target:
            row.targets && (row.targets as { sessions_per_5000_sends?: number | null }).sessions_per_5000_sends
              ? `<= ${(row.targets as { sessions_per_5000_sends: number }).sessions_per_5000_sends}`
              : undefined,
          met: (row.targets as { sessions?: string | null }).sessions ?? undefined,
        });
      if (part === "remote")
        figures.push({
          figure: `${name}: SMTP sessions per inbox (most)`,
          value: row.smtp_sessions_per_inbox_max,
          target: `<= ${TARGETS.remote_sessions_per_inbox}`,
          met: (row.targets as { sessions_per_inbox_met?: string }).sessions_per_inbox_met,
        });
      const run = runs.find((r) => r.senders === row.senders)!;
      const cost = run.per_send_cost;
      figures.push({ figure: `${name}: CPU-ms per send (engine: senders, dispatcher, PostgreSQL, Redis)`, value: cost.cpu_ms_per_send.engine_total });
      figures.push({ figure: `${name}: PostgreSQL statements per send`, value: cost.postgres.statements.per_send ?? "unavailable" });
    }
  }

  writeResult("sending", {
    date: new Date().toISOString(),
    machine: machineInfo(),
    settings: {
      sends,
      inboxes,
      senders: senderCounts,
      parts,
      remote_sends: remoteSends,
      remote_delay_ms: remoteDelayMs,
      remote_senders: remoteSenders,
      daily_limit: 1_000_000,
      jitter_seconds: [0, 0],
      steps: 1,
      dispatchers: 1,
      raw_connections: RAW_CONNECTIONS,
    },
    sinks: {
      instant: "minimal SMTP server of bench/lib, greets at once, DATA drained",
      remote: `the instant sink answering every command ${remoteDelayMs} ms after it arrived, one command at a time per session`,
      lean: "smtp-server, DATA drained without parsing; 100 ms pause before every greeting",
    },
    what: "engine: from queue.add of the campaign-dispatch job to the last message's end of DATA at the sink; raw: nodemailer in its own process (pool: true, maxConnections 10, defaults otherwise), same messages (buildStepEmail), same sink",
    figures,
    ...report,
  });
} finally {
  await instantSink.close();
  await remoteSink.close();
  await leanSink?.close();
}
