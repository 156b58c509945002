// Reply-detection benchmark: the real imap-poller against a real Dovecot (loopback,
// private config, as the test server of @outreach/testing), PostgreSQL and Redis.
//   node --import tsx bench/replies.ts [replies=100] [inboxes=20] [many_inboxes=500 or e.g. 500,1000,2000] [many_replies=100]
// Phases (BENCH_PHASES=idle,polling,many picks some; each has a fresh database):
//   idle     first a raw baseline (a bare imapflow client in IDLE: APPEND to EXISTS, the
//            server's own notification delay), then the poller as a process (IMAP_POLL_INTERVAL_SECONDS=60): `replies` replies
//            round-robin over `inboxes` inboxes, one APPEND every BENCH_PACE_MS (250);
//            latency = enrollment.replied event's createdAt - Date.now() just before APPEND.
//   polling  the same, but the poller's InboxWatcher run in this process with `idle: false`
//            and a 5 s check interval (the process always IDLEs where the server offers it,
//            and Dovecot always does, so polling can only be measured this way).
//   many     one poller process watching `many_inboxes` inboxes of one Dovecot: time until
//            every inbox was checked once (beside a raw burst of as many bare clients
//            connecting and EXAMINEing at once), connections held (ss and doveadm who), the
//            poller's RSS and CPU over BENCH_WINDOW_SECONDS (60) at steady state and where its
//            memory is (heap, outside it, handles: bench/lib/memory-report.mjs), then
//            `many_replies` replies to random inboxes. BENCH_IMAP_TLS=1: inboxes on implicit
//            TLS; BENCH_IMAP_OFFER_COMPRESS=1: the server offers COMPRESS=DEFLATE (see
//            MANY_DOVECOT_EXTRA); BENCH_DOVECOT_EXTRA replaces the lines added to the config.
//            bench/results/replies-many.json: BENCH_PHASES=many BENCH_RESULT_NAME=replies-many
//            node --import tsx bench/replies.ts - - 500,1000,2000 100 (replies-many-tls: the
//            same at 2000 with BENCH_IMAP_TLS=1 BENCH_IMAP_OFFER_COMPRESS=1).
// POLLER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the poller processes
// (summarize with bench/lib/profile-summary.ts). Writes bench/results/replies.json.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { Redis } from "ioredis";
import { createLogger, EgressGuard, Keyring, redisKeys } from "@outreach/core";
import { executor, type Db } from "@outreach/db";
import { createTestDatabase, REPO_ROOT, startAppProcess, uniqueQueuePrefix, type AppProcess } from "@outreach/testing";
import { inboxStoreDeps, listWatchedInboxes } from "../apps/imap-poller/src/inbox-store.js";
import { InboxWatcher } from "../apps/imap-poller/src/inbox-watcher.js";
import { startBenchDovecot, type BenchDovecot } from "./lib/bench-dovecot.js";
import { appEnv, stopApp } from "./lib/apps.js";
import { CpuMeter, cpuSeconds, procStatusMb } from "./lib/cpu.js";
import { round } from "./lib/numbers.js";
import { dropQueuePrefix } from "./lib/queues.js";
import { log, machineInfo, writeResult } from "./lib/results.js";
import { argNumber, ENCRYPTION_KEY, REDIS_URL } from "./lib/settings.js";
import { connectTimeline, measureReplies, rawConnectBurst, rawIdleBaseline, seededRandom, seedInboxes } from "./lib/reply-bench.js";

const replies = argNumber(0, 100);
const inboxes = argNumber(1, 20);
/** one or more sizes of the many phase, e.g. 500,1000,2000 (each a run of its own, smallest first) */
const manyInboxesList = (process.argv[4] && process.argv[4] !== "-" ? process.argv[4] : "500")
  .split(",")
  .map((n) => Number(n.replace(/_/g, "")))
  .sort((a, b) => a - b);
if (manyInboxesList.some((n) => !Number.isInteger(n) || n <= 0)) throw new Error(`many_inboxes must be positive numbers separated by commas, got ${process.argv[4]}`);
const manyReplies = argNumber(3, 100);
const phases = (process.env.BENCH_PHASES ?? "idle,polling,many").split(",").filter(Boolean);
const PACE_MS = Number(process.env.BENCH_PACE_MS ?? 250);
const WINDOW_SECONDS = Number(process.env.BENCH_WINDOW_SECONDS ?? 60);
const POLLING_INTERVAL_MS = 5_000;
const CONNECT_TIMEOUT_MS = Number(process.env.BENCH_CONNECT_TIMEOUT_MS ?? 240_000);
const REPLY_TIMEOUT_MS = 120_000;
/**
 * Lines added to the many-inbox Dovecot's config (BENCH_DOVECOT_EXTRA replaces them). The test
 * server's own config already holds thousands of sessions (packages/testing/src/dovecot.ts:
 * imap processes shared, login processes long-lived); these only make it offer what the
 * many phase is asked to meet: BENCH_IMAP_OFFER_COMPRESS=1 offers COMPRESS=DEFLATE after
 * login, as Gmail does (imap_zlib). BENCH_IMAP_TLS=1 has the inboxes use implicit TLS (the
 * test certificate, trusted by the poller through NODE_EXTRA_CA_CERTS; MAIL_REQUIRE_TLS=true).
 */
const OFFER_COMPRESS = process.env.BENCH_IMAP_OFFER_COMPRESS === "1";
const IMPLICIT_TLS = process.env.BENCH_IMAP_TLS === "1";
const MANY_DOVECOT_EXTRA = OFFER_COMPRESS
  ? `mail_plugins = $mail_plugins zlib
protocol imap {
  mail_plugins = $mail_plugins imap_zlib
}
`
  : "";
const TEST_CA_FILE = join(REPO_ROOT, "packages/testing/fixtures/tls/ca.pem");
const run = promisify(execFile);

/** Which poller code was measured (the files change while the work goes on): sha256 prefixes. */
function pollerSources(): Record<string, string> {
  const files: Record<string, string> = {};
  for (const dir of ["apps/imap-poller/src", "packages/domain/src/inbound"]) {
    for (const name of readdirSync(join(REPO_ROOT, dir)).sort()) {
      if (!name.endsWith(".ts")) continue;
      files[`${dir}/${name}`] = createHash("sha256")
        .update(readFileSync(join(REPO_ROOT, dir, name)))
        .digest("hex")
        .slice(0, 12);
    }
  }
  return files;
}

const loadNow = () => loadavg().map((l) => round(l, 2));

function pollerEnv(databaseUrl: string, queuePrefix: string, pollSeconds: number): Record<string, string> {
  return { ...appEnv(databaseUrl, queuePrefix), IMAP_POLL_INTERVAL_SECONDS: String(pollSeconds) };
}

async function startPoller(env: Record<string, string>, extraNodeArgs: string[] = []): Promise<AppProcess> {
  const nodeArgs = [...extraNodeArgs, ...(process.env.POLLER_NODE_ARGS?.split(" ").filter(Boolean) ?? [])];
  return startAppProcess("imap-poller", { env, nodeArgs, timeoutMs: 60_000 });
}

const MEMORY_REPORT_PRELOAD = join(REPO_ROOT, "bench/lib/memory-report.mjs");

/** Where the poller's memory is now (bench/lib/memory-report.mjs, preloaded): asked with SIGUSR2, read from its file. */
async function memoryReport(app: AppProcess, file: string): Promise<Record<string, unknown> | null> {
  rmSync(file, { force: true });
  app.child.kill("SIGUSR2");
  for (let i = 0; i < 100; i++) {
    await new Promise((r) => setTimeout(r, 100));
    if (existsSync(file)) return JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  }
  return null;
}

async function stopPoller(app: AppProcess): Promise<void> {
  await stopApp(app);
  const lines = app.output().trim().split("\n").filter(Boolean);
  if (lines.length) log(`poller logged ${lines.length} line(s), e.g. ${lines.slice(0, 3).join(" | ").slice(0, 600)}`);
}

/** ESTABLISHED TCP connections from this pid to the port (ss -tnp). */
async function establishedFrom(pid: number | undefined, port: number): Promise<number | string> {
  try {
    const { stdout } = await run("ss", ["-tnpH", "state", "established", `( dport = :${port} )`], { maxBuffer: 16 * 1024 * 1024 });
    return stdout.split("\n").filter((line) => line.includes(`pid=${pid},`)).length;
  } catch (err) {
    return `ss failed: ${(err as Error).message}`;
  }
}

function openFds(pid: number | undefined): number | null {
  try {
    return readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return null;
  }
}

function inotifyLimit(): number | null {
  try {
    return Number(readFileSync("/proc/sys/fs/inotify/max_user_instances", "utf8").trim());
  } catch {
    return null;
  }
}

/**
 * Per-socket counters (ss -ti) of this pid's connections to a port, by local address:
 * data_segs_out is about one per request written (a pipelined batch may share one).
 */
async function socketCounters(pid: number | undefined, port: number): Promise<Map<string, { segs: number; bytesSent: number; bytesReceived: number }>> {
  const result = new Map<string, { segs: number; bytesSent: number; bytesReceived: number }>();
  const { stdout } = await run("ss", ["-tinpH", "state", "established", `( dport = :${port} )`], { maxBuffer: 64 * 1024 * 1024 });
  let current: string | undefined;
  for (const line of stdout.split("\n")) {
    if (!line.startsWith("\t") && !line.startsWith(" ")) {
      current = line.includes(`pid=${pid},`) ? line.trim().split(/\s+/)[2] : undefined;
    } else if (current) {
      const num = (key: string) => Number(line.match(new RegExp(`\\b${key}:(\\d+)`))?.[1] ?? 0);
      result.set(current, { segs: num("data_segs_out"), bytesSent: num("bytes_sent"), bytesReceived: num("bytes_received") });
      current = undefined;
    }
  }
  return result;
}

/** Requests (data segments) and bytes per second on the sockets present at both readings. */
function socketRates(before: Map<string, { segs: number; bytesSent: number; bytesReceived: number }>, after: typeof before, seconds: number) {
  let segs = 0;
  let sent = 0;
  let received = 0;
  let sockets = 0;
  for (const [address, b] of before) {
    const a = after.get(address);
    if (!a) continue;
    sockets++;
    segs += a.segs - b.segs;
    sent += a.bytesSent - b.bytesSent;
    received += a.bytesReceived - b.bytesReceived;
  }
  return { sockets, writes_per_second: round(segs / seconds, 1), kb_sent_per_second: round(sent / 1024 / seconds, 1), kb_received_per_second: round(received / 1024 / seconds, 1) };
}

async function countKeys(redis: Redis, pattern: string): Promise<number> {
  let cursor = "0";
  let count = 0;
  do {
    const [next, keys] = await redis.scan(cursor, "MATCH", pattern, "COUNT", 1000);
    cursor = next;
    count += keys.length;
  } while (cursor !== "0");
  return count;
}

async function dbStats(db: Db, name: string) {
  const [row] = await executor(db).rows<Record<string, number>>(
    `SELECT xact_commit::float8 AS commits, xact_rollback::float8 AS rollbacks, tup_updated::float8 AS rows_updated, tup_inserted::float8 AS rows_inserted, tup_returned::float8 AS rows_read
     FROM pg_stat_database WHERE datname = $1`,
    [name],
  );
  return row!;
}

/** The poller's warn/error lines grouped by message and error (ids and numbers elided). */
function warningSummary(output: string) {
  const counts = new Map<string, number>();
  for (const line of output.split("\n")) {
    if (!/\b(warn|error)\b/.test(line)) continue;
    const key = line
      .replace(/^\S+\s+/, "")
      .replace(/credentialId=\S+\s*/, "")
      .replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, "<id>")
      .slice(0, 200);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts]
    .map(([line, count]) => ({ line, count }))
    .sort((a, b) => b.count - a.count)
    .slice(0, 10);
}

async function idlePhase(dovecot: BenchDovecot) {
  const database = await createTestDatabase();
  const prefix = uniqueQueuePrefix();
  let poller: AppProcess | undefined;
  try {
    const seeded = await seedInboxes(database.db, dovecot, { label: "idle", inboxes, enrollments: replies, inboxOf: (j) => j % inboxes });
    const startedAt = Date.now();
    poller = await startPoller(pollerEnv(database.url, prefix, 60));
    const connect = await connectTimeline(database.db, seeded.accountId, inboxes, startedAt, CONNECT_TIMEOUT_MS);
    log(`idle: ${connect.connected}/${inboxes} inboxes checked after ${connect.ms_to_checked.all} ms; ${replies} replies`);
    const loadavg_before = loadNow();
    const rssAfterConnectMb = procStatusMb(poller.child.pid, "VmRSS");
    const result = await measureReplies(database.db, dovecot, seeded, seeded.targets, { paceMs: PACE_MS, timeoutMs: REPLY_TIMEOUT_MS });
    log(`  p50 ${result.latency_event_created_at.p50_ms} ms, p95 ${result.latency_event_created_at.p95_ms} ms, max ${result.latency_event_created_at.max_ms} ms`);
    const poller_rss_mb = { after_connect: rssAfterConnectMb, end: procStatusMb(poller.child.pid, "VmRSS"), peak_vmhwm: procStatusMb(poller.child.pid, "VmHWM") };
    return {
      how: "imap-poller process, IMAP_POLL_INTERVAL_SECONDS=60 (new mail seen through IDLE)",
      inboxes,
      loadavg_before,
      connect,
      poller_rss_mb,
      ...result,
      poller_warnings: warningSummary(poller.output()),
    };
  } finally {
    if (poller) await stopPoller(poller);
    await database.drop();
    await dropQueuePrefix(prefix);
  }
}

async function pollingPhase(dovecot: BenchDovecot) {
  const database = await createTestDatabase();
  const db = database.db;
  const watchers: InboxWatcher[] = [];
  try {
    const seeded = await seedInboxes(db, dovecot, { label: "polling", inboxes, enrollments: replies, inboxOf: (j) => j % inboxes });
    const logger = createLogger({ service: "bench-poller", level: "warn" });
    const guard = new EgressGuard({ allowPrivate: true });
    // the same wiring as apps/imap-poller/src/worker.ts, with idle: false
    for (const endpoint of await listWatchedInboxes(db, new Keyring(ENCRYPTION_KEY))) {
      watchers.push(
        new InboxWatcher(endpoint, {
          guard,
          requireTls: false,
          pollIntervalMs: POLLING_INTERVAL_MS,
          idle: false,
          logger,
          ...inboxStoreDeps(db),
        }),
      );
    }
    const startedAt = Date.now();
    for (const watcher of watchers) watcher.start();
    const connect = await connectTimeline(db, seeded.accountId, inboxes, startedAt, CONNECT_TIMEOUT_MS);
    log(`polling: ${connect.connected}/${inboxes} inboxes checked after ${connect.ms_to_checked.all} ms; ${replies} replies`);
    const loadavg_before = loadNow();
    const result = await measureReplies(db, dovecot, seeded, seeded.targets, { paceMs: PACE_MS, timeoutMs: REPLY_TIMEOUT_MS });
    log(`  p50 ${result.latency_event_created_at.p50_ms} ms, p95 ${result.latency_event_created_at.p95_ms} ms, max ${result.latency_event_created_at.max_ms} ms`);
    return {
      how: `InboxWatcher of apps/imap-poller in the benchmark process, idle: false, pollIntervalMs ${POLLING_INTERVAL_MS} (the poller process cannot switch IDLE off, and Dovecot offers IDLE, so a process run with IMAP_POLL_INTERVAL_SECONDS=5 would measure IDLE again)`,
      inboxes,
      loadavg_before,
      connect,
      ...result,
    };
  } finally {
    await Promise.all(watchers.map((w) => w.stop()));
    await database.drop();
  }
}

async function manyPhase(manyInboxes: number) {
  const extra = process.env.BENCH_DOVECOT_EXTRA ?? MANY_DOVECOT_EXTRA;
  const dovecot = await startBenchDovecot(extra, { tls: IMPLICIT_TLS });
  const database = await createTestDatabase();
  const db = database.db;
  const prefix = uniqueQueuePrefix();
  let poller: AppProcess | undefined;
  try {
    const random = seededRandom(42);
    const seeded = await seedInboxes(db, dovecot, { label: "many", inboxes: manyInboxes, enrollments: manyReplies, inboxOf: () => Math.floor(random() * manyInboxes), implicitTls: IMPLICIT_TLS });
    const rawConnect = await rawConnectBurst(dovecot, seeded.inboxes);
    log(`many: raw connect burst ${JSON.stringify(rawConnect)}`);
    await new Promise((r) => setTimeout(r, 2_000));
    const dovecotBefore = dovecot.processes();
    const loginsBefore = dovecot.logins();
    const loadavg_at_start = loadNow();
    const startedAt = Date.now();
    const memoryFile = join(tmpdir(), `bench-poller-memory-${process.pid}.json`);
    poller = await startPoller(
      {
        ...pollerEnv(database.url, prefix, 60),
        IMAP_MAX_CONNECTIONS: String(Math.max(manyInboxes, 1000)),
        BENCH_MEMORY_REPORT: memoryFile,
        ...(IMPLICIT_TLS ? { MAIL_REQUIRE_TLS: "true", NODE_EXTRA_CA_CERTS: TEST_CA_FILE } : {}),
      },
      ["--import", MEMORY_REPORT_PRELOAD],
    );
    const readyMs = Date.now() - startedAt;
    const pid = poller.child.pid;
    const imapPort = IMPLICIT_TLS ? dovecot.tlsPort! : dovecot.port;
    const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
    const connect = await connectTimeline(db, seeded.accountId, manyInboxes, startedAt, CONNECT_TIMEOUT_MS, {
      // the pool's first round takes each inbox's lease, then starts its watcher
      leases_taken: () => countKeys(redis, redisKeys.inboxLease({ queuePrefix: prefix }, "*")),
      sockets_established: async () => Number(await establishedFrom(pid, imapPort)) || 0,
    }).finally(() => redis.quit().catch(() => undefined));
    const rssAfterConnectMb = procStatusMb(pid, "VmRSS");
    const memoryAfterConnect = await memoryReport(poller, memoryFile);
    const cpuToConnect = cpuSeconds(pid);
    log(`many: ${connect.connected}/${manyInboxes} inboxes checked; all after ${connect.ms_to_checked.all} ms (ready after ${readyMs} ms)`);

    // let the first checks' writes and the assignment rounds settle, then measure a quiet window
    await new Promise((r) => setTimeout(r, 10_000));
    const connections = {
      poller_established_to_imap_port_ss: await establishedFrom(pid, imapPort),
      dovecot_doveadm_who: await dovecot.who(),
      dovecot_processes: dovecot.processes(),
      poller_open_fds: openFds(pid),
    };
    log(`  connections: ss ${connections.poller_established_to_imap_port_ss}, doveadm who ${JSON.stringify(connections.dovecot_doveadm_who)}`);
    const loadavg_window_start = loadNow();
    const cpu = new CpuMeter({ poller }, database.name);
    const cpuBefore = cpuSeconds(pid) ?? 0;
    const dovecotCpuBefore = dovecot.processes().cpuSeconds;
    const statsBefore = await dbStats(db, database.name);
    const redisBefore = await socketCounters(pid, 6379);
    const imapBefore = await socketCounters(pid, imapPort);
    const rss: number[] = [];
    cpu.begin();
    const windowStart = Date.now();
    while (Date.now() - windowStart < WINDOW_SECONDS * 1000) {
      rss.push(procStatusMb(pid, "VmRSS") ?? 0);
      await new Promise((r) => setTimeout(r, 1_000));
    }
    const seconds = (Date.now() - windowStart) / 1000;
    const cpuUse = cpu.end();
    const memoryEndOfWindow = await memoryReport(poller, memoryFile);
    const statsAfter = await dbStats(db, database.name);
    const redisAfter = await socketCounters(pid, 6379);
    const imapAfter = await socketCounters(pid, imapPort);
    const pollerCpuPct = round((100 * ((cpuSeconds(pid) ?? 0) - cpuBefore)) / seconds, 1);
    const perSecond = (key: string) => round((statsAfter[key]! - statsBefore[key]!) / seconds, 1);
    const steady = {
      window_seconds: round(seconds),
      loadavg_window_start,
      loadavg_window_end: loadNow(),
      poller_rss_mb: { after_connect: rssAfterConnectMb, window_min: Math.min(...rss), window_max: Math.max(...rss), peak_vmhwm: procStatusMb(pid, "VmHWM") },
      poller_memory: { after_connect: memoryAfterConnect, end_of_window: memoryEndOfWindow },
      poller_cpu_pct_of_one_core: pollerCpuPct,
      dovecot_cpu_pct_of_one_core: round((100 * (dovecot.processes().cpuSeconds - dovecotCpuBefore)) / seconds, 1),
      dovecot_rss_mb: dovecot.processes().rssMb,
      cpu: cpuUse,
      database_per_second: { commits: perSecond("commits"), rows_updated: perSecond("rows_updated"), rows_inserted: perSecond("rows_inserted"), rows_read: perSecond("rows_read") },
      poller_sockets: { redis: socketRates(redisBefore, redisAfter, seconds), imap: socketRates(imapBefore, imapAfter, seconds) },
    };
    log(`  steady: poller ${pollerCpuPct} % CPU, RSS ${steady.poller_rss_mb.window_max} MB, ${steady.database_per_second.commits} commits/s`);

    const loadavg_before_replies = loadNow();
    const latency = await measureReplies(db, dovecot, seeded, seeded.targets, { paceMs: PACE_MS, timeoutMs: REPLY_TIMEOUT_MS });
    log(`  replies: p50 ${latency.latency_event_created_at.p50_ms} ms, p95 ${latency.latency_event_created_at.p95_ms} ms, max ${latency.latency_event_created_at.max_ms} ms`);
    return {
      how: "one imap-poller process (IMAP_POLL_INTERVAL_SECONDS=60, IMAP_MAX_CONNECTIONS the number of inboxes, at least 1000) watching every inbox of one Dovecot; poller_memory: where its memory is (bench/lib/memory-report.mjs, preloaded)",
      inboxes: manyInboxes,
      imap_implicit_tls: IMPLICIT_TLS,
      server_offers_compress_deflate: OFFER_COMPRESS,
      dovecot_extra_config: extra.trim() || "(none: the test server's config)",
      dovecot_processes_before_poller: dovecotBefore,
      loadavg_at_start,
      raw_connect_burst: rawConnect,
      poller_ready_ms: readyMs,
      connect: { ...connect, poller_cpu_seconds_from_spawn: cpuToConnect },
      poller_warnings: warningSummary(poller.output()),
      connections,
      steady,
      replies: { loadavg_before: loadavg_before_replies, ...latency },
      poller_rss_mb_end: procStatusMb(pid, "VmRSS"),
      dovecot_logins_by_poller: dovecot.logins() - loginsBefore - latency.inboxes_replied_to,
      dovecot_log_problems: dovecot.logProblems().slice(0, 15),
    };
  } finally {
    if (poller) await stopPoller(poller);
    await database.drop();
    await dropQueuePrefix(prefix);
    await dovecot.close();
  }
}

const report: Record<string, unknown> = {};
const machine = machineInfo();
const sourcesAtStart = pollerSources();
if (phases.includes("idle") || phases.includes("polling")) {
  const dovecot = await startBenchDovecot();
  try {
    if (phases.includes("idle")) {
      report.raw_idle_baseline = {
        what: "no poller: a bare imapflow client in IDLE, APPEND on another connection to the EXISTS it receives; the server's own notification delay",
        ...(await rawIdleBaseline(dovecot, 20)),
      };
      log(`raw IDLE baseline: ${JSON.stringify(report.raw_idle_baseline)}`);
      report.idle = await idlePhase(dovecot);
    }
    if (phases.includes("polling")) report.polling = await pollingPhase(dovecot);
    report.dovecot_log_problems_idle_polling = dovecot.logProblems().slice(0, 15);
  } finally {
    await dovecot.close();
  }
}
if (phases.includes("many")) {
  // the largest as `many` (the README's figure); every size under many_by_inboxes
  const bySize: Record<string, unknown> = {};
  for (const size of manyInboxesList) {
    bySize[size] = await manyPhase(size);
    log(`many (${size}) done`);
  }
  report.many = bySize[manyInboxesList[manyInboxesList.length - 1]!];
  if (manyInboxesList.length > 1) report.many_by_inboxes = bySize;
}

writeResult("replies", {
  date: new Date().toISOString(),
  machine: { ...machine, loadavg_at_end: loadNow(), inotify_max_user_instances: inotifyLimit() },
  poller_sources_sha256: sourcesAtStart,
  poller_sources_changed_during_run: Object.entries(pollerSources())
    .filter(([file, hash]) => sourcesAtStart[file] !== hash)
    .map(([file]) => file),
  settings: { replies, inboxes, many_inboxes: manyInboxesList, many_replies: manyReplies, pace_ms: PACE_MS, window_seconds: WINDOW_SECONDS, polling_interval_ms: POLLING_INTERVAL_MS },
  what: "latency: enrollment.replied event createdAt (and enrollments.repliedAt) minus Date.now() just before the IMAP APPEND of the reply, on a connection to that inbox opened beforehand; replies APPENDed one every pace_ms; loopback Dovecot (the test server's config; many: plus dovecot_extra_config), PostgreSQL, Redis",
  ...report,
});
process.exit(0);
