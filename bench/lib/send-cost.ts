// Per-send cost of an engine run: CPU of every process, PostgreSQL statements
// (pg_stat_statements), rows written and WAL, Redis commands and network bytes,
// each divided by the sends of the run. Used by bench/sending.ts and
// bench/many-accounts.ts:
//   const cost = await startSendCost(testDatabase, { dispatcher, sender_1 });
//   ...the run...
//   cost.markCpu();                          // end of the sending phase, processes still alive
//   ...stop the processes (their backends flush their statistics as they exit)...
//   const report = await cost.finish(sends);
// Statements come from pg_stat_statements for this database only (its dbid); when the
// module is not preloaded they are reported as unavailable and the rest still runs.
// WAL (pg_stat_wal, pg_current_wal_lsn) and Redis (INFO) are per server: other work on
// the host during the run counts too.
// Queries the benchmark itself sends to the database carry BENCH_TAG and are left out.
import { Redis } from "ioredis";
import { executor, type Db } from "@outreach/db";
import { openPgConnection, type PgConnection } from "@outreach/db/testing";
import type { AppProcess } from "@outreach/testing";
import { backendCpu, cpuSeconds, cpuSecondsOfCommand } from "./cpu.js";
import { round } from "./numbers.js";
import { REDIS_URL, REPO_ROOT } from "./settings.js";

/**
 * Keeps the WAL from now on until `release` (a temporary physical replication slot:
 * PostgreSQL drops it when its connection ends, also if this process dies), so the
 * run's WAL can still be read at its end however much other work wrote meanwhile.
 */
async function holdWal(url: string): Promise<{ lsn: string; release(): Promise<void> } | string> {
  let client: PgConnection;
  try {
    client = await openPgConnection(url);
  } catch (err) {
    return `no WAL slot: ${(err as Error).message}`;
  }
  // the connection is only held (its end drops the slot): an error on it ends nothing here
  client.on("error", () => undefined);
  try {
    const name = `bench_wal_${process.pid}_${Date.now().toString(36)}`;
    const { rows } = await client.query(`SELECT lsn::text AS lsn FROM pg_create_physical_replication_slot($1, true, true)`, [name]);
    return { lsn: String(rows[0]?.lsn), release: () => client.end().catch(() => undefined) };
  } catch (err) {
    await client.end().catch(() => undefined);
    return `no WAL slot: ${(err as Error).message}`;
  }
}

/** Put in every query the benchmark sends to the bench database, so the statement counts leave it out. */
export const BENCH_TAG = "/* bench */";

const TOP = 10;
const QUERY_CHARS = 120;
const POOL_CONNECTIONS = 5; // createTestDatabase's pool

interface StatementRow {
  query: string;
  toplevel: boolean;
  calls: number;
  total_ms: number;
  rows: number;
}

interface DbCounters {
  xact_commit: number;
  xact_rollback: number;
  tup_inserted: number;
  tup_updated: number;
  tup_deleted: number;
  tup_returned: number;
  tup_fetched: number;
  wal_bytes: number;
  wal_records: number;
  wal_fpi: number;
  lsn_bytes: number;
}

interface CpuSample {
  processes: Record<string, number>;
  backends: Map<number, { database: string; seconds: number }>;
  redis: number;
  bench: number;
  at: number;
}

function shorten(query: string): string {
  const flat = query.replace(/\s+/g, " ").trim();
  return flat.length > QUERY_CHARS ? flat.slice(0, QUERY_CHARS - 1) + "…" : flat;
}

async function readCounters(db: Db): Promise<DbCounters> {
  await executor(db).rows(`${BENCH_TAG} SELECT 1 AS done FROM (SELECT pg_stat_clear_snapshot()) t`);
  const [row] = await executor(db).rows<Record<string, string | number | bigint>>(
    `${BENCH_TAG} SELECT d.xact_commit, d.xact_rollback, d.tup_inserted, d.tup_updated, d.tup_deleted, d.tup_returned, d.tup_fetched,
            w.wal_bytes::bigint AS wal_bytes, w.wal_records, w.wal_fpi, (pg_current_wal_lsn() - '0/0'::pg_lsn)::bigint AS lsn_bytes
     FROM pg_stat_database d, pg_stat_wal w WHERE d.datname = current_database()`,
  );
  return Object.fromEntries(Object.entries(row ?? {}).map(([k, v]) => [k, Number(v)])) as unknown as DbCounters;
}

/**
 * Makes the pool's backends send their pending statistics now (PostgreSQL 15 keeps
 * them up to 10 s in an idle backend), so rows seeded before the run are not
 * counted in it: every connection of the pool runs pg_stat_force_next_flush at once.
 */
async function flushPoolStatistics(db: Db): Promise<void> {
  await Promise.all(Array.from({ length: POOL_CONNECTIONS }, () => executor(db).rows(`${BENCH_TAG} SELECT 1 AS done FROM (SELECT pg_stat_force_next_flush(), pg_sleep(0.05)) t`)));
  await new Promise((r) => setTimeout(r, 100));
}

/**
 * Call before the engine connects: creates pg_stat_statements in the bench database
 * and has its new connections track statements inside functions too (kept apart:
 * `toplevel` false), e.g. those of release_due_sends. A no-op without the module.
 */
export async function trackStatements(db: Db, database: string): Promise<void> {
  try {
    await executor(db).execute(`CREATE EXTENSION IF NOT EXISTS pg_stat_statements`);
    await executor(db).execute(`ALTER DATABASE "${database}" SET pg_stat_statements.track = 'all'`);
  } catch {
    // reported by startSendCost
  }
}

/** Creates pg_stat_statements in the bench database and empties its entries for this database; false when the module is not preloaded. */
async function resetStatements(db: Db): Promise<string | null> {
  try {
    await executor(db).execute(`CREATE EXTENSION IF NOT EXISTS pg_stat_statements`);
    await executor(db).rows(`${BENCH_TAG} SELECT 1 AS done FROM (SELECT pg_stat_statements_reset(0, (SELECT oid FROM pg_database WHERE datname = current_database()), 0)) t`);
    return null;
  } catch (err) {
    return `pg_stat_statements unavailable: ${
      (err as Error).message
        .split("\n")
        .filter((l) => l.trim())
        .pop() ?? "error"
    }`;
  }
}

/**
 * WAL written for this database's pages between two LSNs (pg_walinspect): records
 * that touch a block of this database, and the commit records of their transactions.
 * pg_stat_wal counts the whole server; this is the run's own share.
 */
async function readOwnWal(db: Db, from: string, to: string): Promise<{ records: number; bytes: number; fpi_bytes: number } | string> {
  try {
    await executor(db).execute(`CREATE EXTENSION IF NOT EXISTS pg_walinspect`);
    const [row] = await executor(db).rows<{ records: bigint; bytes: bigint | null; fpi_bytes: bigint | null }>(
      `${BENCH_TAG} WITH w AS (SELECT xid, resource_manager, record_length, fpi_length, block_ref FROM pg_get_wal_records_info($1::pg_lsn, $2::pg_lsn)),
            mine AS (SELECT '%/' || oid::text || '/%' AS pattern FROM pg_database WHERE datname = current_database()),
            ours AS (SELECT DISTINCT xid FROM w, mine WHERE w.block_ref LIKE mine.pattern AND w.xid <> '0'::xid)
       SELECT count(*) AS records, sum(record_length)::bigint AS bytes, sum(fpi_length)::bigint AS fpi_bytes
       FROM w, mine WHERE w.block_ref LIKE mine.pattern OR (w.resource_manager = 'Transaction' AND w.xid IN (SELECT xid FROM ours))`,
      [from, to],
    );
    return { records: Number(row?.records ?? 0), bytes: Number(row?.bytes ?? 0), fpi_bytes: Number(row?.fpi_bytes ?? 0) };
  } catch (err) {
    return `pg_walinspect unavailable: ${
      (err as Error).message
        .split("\n")
        .filter((l) => l.trim())
        .pop() ?? "error"
    }`;
  }
}

async function currentLsn(db: Db): Promise<string> {
  const [row] = await executor(db).rows<{ lsn: string }>(`${BENCH_TAG} SELECT pg_current_wal_lsn()::text AS lsn`);
  return row!.lsn;
}

async function readStatements(db: Db): Promise<StatementRow[]> {
  const rows = await executor(db).rows<{ query: string; toplevel: boolean; calls: bigint | number; total_ms: number; rows: bigint | number }>(
    `${BENCH_TAG} SELECT query, toplevel, calls, total_exec_time AS total_ms, rows FROM pg_stat_statements
     WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) AND query NOT LIKE $1`,
    [`%${BENCH_TAG}%`],
  );
  return rows.map((r) => ({ query: r.query, toplevel: r.toplevel, calls: Number(r.calls), total_ms: Number(r.total_ms), rows: Number(r.rows) }));
}

type RedisInfo = { commands: Map<string, number>; usec: number; processed: number; netIn: number; netOut: number };

async function readRedis(redis: Redis): Promise<RedisInfo> {
  const text = (await redis.info("commandstats")) + "\n" + (await redis.info("stats"));
  const commands = new Map<string, number>();
  let usec = 0;
  for (const match of text.matchAll(/^cmdstat_([^:]+):calls=(\d+),usec=(\d+)/gm)) {
    commands.set(match[1]!, Number(match[2]));
    usec += Number(match[3]);
  }
  const stat = (name: string) => Number(text.match(new RegExp(`^${name}:(\\d+)`, "m"))?.[1] ?? 0);
  return { commands, usec, processed: stat("total_commands_processed"), netIn: stat("total_net_input_bytes"), netOut: stat("total_net_output_bytes") };
}

function sampleCpu(processes: Record<string, AppProcess | undefined>): CpuSample {
  const usage = process.cpuUsage();
  return {
    processes: Object.fromEntries(Object.entries(processes).map(([name, app]) => [name, cpuSeconds(app?.child.pid) ?? 0])),
    backends: backendCpu(),
    redis: cpuSecondsOfCommand("redis-server"),
    bench: (usage.user + usage.system) / 1e6,
    at: performance.now(),
  };
}

export interface SendCostProbe {
  /** the end of the CPU window: call while the processes (and their database connections) are alive */
  markCpu(): void;
  /** the counters' deltas per send; call after the processes stopped */
  finish(sends: number): Promise<SendCostReport>;
}

export type SendCostReport = Awaited<ReturnType<typeof buildReport>>;

export async function startSendCost(bench: { db: Db; name: string; url: string }, processes: Record<string, AppProcess | undefined>): Promise<SendCostProbe> {
  const { db, name: database } = bench;
  const statementsUnavailable = await resetStatements(db);
  await flushPoolStatistics(db);
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null, lazyConnect: true });
  await redis.connect();
  const redisBefore = await readRedis(redis);
  const countersBefore = await readCounters(db);
  const wal = await holdWal(bench.url);
  const lsnBefore = typeof wal === "string" ? null : wal.lsn;
  const cpuBefore = sampleCpu(processes);
  let cpuAfter: CpuSample | undefined;
  return {
    markCpu() {
      cpuAfter = sampleCpu(processes);
    },
    async finish(sends) {
      try {
        cpuAfter ??= sampleCpu(processes);
        const statements = statementsUnavailable ? null : await readStatements(db);
        const countersAfter = await readCounters(db);
        const ownWal = typeof wal === "string" ? wal : await readOwnWal(db, lsnBefore!, await currentLsn(db));
        const redisAfter = await readRedis(redis);
        return buildReport({ sends, database, ownWal, statementsUnavailable, statements, countersBefore, countersAfter, redisBefore, redisAfter, cpuBefore, cpuAfter });
      } finally {
        if (typeof wal !== "string") await wal.release();
        await redis.quit().catch(() => undefined);
      }
    },
  };
}

function buildReport(o: {
  sends: number;
  ownWal: { records: number; bytes: number; fpi_bytes: number } | string;
  database: string;
  statementsUnavailable: string | null;
  statements: StatementRow[] | null;
  countersBefore: DbCounters;
  countersAfter: DbCounters;
  redisBefore: RedisInfo;
  redisAfter: RedisInfo;
  cpuBefore: CpuSample;
  cpuAfter: CpuSample;
}) {
  const per = (value: number, digits = 2) => (o.sends > 0 ? round(value / o.sends, digits) : null);
  const delta = (key: keyof DbCounters) => o.countersAfter[key] - o.countersBefore[key];

  // CPU: ms per send of each process over the window
  const cpuMs: Record<string, number | null> = {};
  for (const [name, seconds] of Object.entries(o.cpuAfter.processes)) cpuMs[name] = per(1000 * (seconds - (o.cpuBefore.processes[name] ?? 0)), 3);
  let backends = 0;
  for (const [pid, backend] of o.cpuAfter.backends) {
    if (backend.database !== o.database) continue;
    const before = o.cpuBefore.backends.get(pid);
    backends += backend.seconds - (before && before.database === backend.database ? before.seconds : 0);
  }
  cpuMs.postgres_backends_of_this_db = per(1000 * backends, 3);
  cpuMs.redis_server = per(1000 * (o.cpuAfter.redis - o.cpuBefore.redis), 3);
  cpuMs.bench_process_and_sink = per(1000 * (o.cpuAfter.bench - o.cpuBefore.bench), 3);
  const engineMs = Object.entries(cpuMs)
    .filter(([name]) => name !== "bench_process_and_sink")
    .reduce((sum, [, v]) => sum + (v ?? 0), 0);

  // statements
  let statements: Record<string, unknown> = { unavailable: o.statementsUnavailable };
  if (o.statements) {
    // statements sent by the engine; those run inside functions are listed apart
    const list = o.statements.filter((s) => s.toplevel);
    const nested = o.statements.filter((s) => !s.toplevel);
    const calls = list.reduce((sum, s) => sum + s.calls, 0);
    const control = /^\s*(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE|SET|DEALLOCATE|DISCARD|SHOW)\b/i;
    const controlCalls = list.filter((s) => control.test(s.query)).reduce((sum, s) => sum + s.calls, 0);
    const callsOf = (pattern: RegExp) => list.filter((s) => pattern.test(s.query)).reduce((sum, s) => sum + s.calls, 0);
    const entry = (s: StatementRow) => ({
      query: shorten(s.query),
      calls: s.calls,
      calls_per_send: per(s.calls, 3),
      total_ms: round(s.total_ms, 1),
      mean_ms: round(s.total_ms / Math.max(1, s.calls), 3),
      rows: s.rows,
    });
    statements = {
      unavailable: null,
      calls,
      per_send: per(calls),
      per_send_without_transaction_control: per(calls - controlCalls),
      transaction_control_per_send: per(controlCalls),
      advisory_lock_calls_per_send: per(callsOf(/pg_(try_)?advisory_(xact_)?lock/i), 3),
      row_locking_statements_per_send: per(callsOf(/FOR (NO KEY UPDATE|UPDATE|KEY SHARE|SHARE)\b/i), 3),
      execution_ms_per_send: per(
        list.reduce((sum, s) => sum + s.total_ms, 0),
        3,
      ),
      distinct_statements: list.length,
      top_by_calls: [...list]
        .sort((a, b) => b.calls - a.calls)
        .slice(0, TOP)
        .map(entry),
      top_by_total_time: [...list]
        .sort((a, b) => b.total_ms - a.total_ms)
        .slice(0, TOP)
        .map(entry),
      inside_functions: nested.length
        ? {
            per_send: per(nested.reduce((sum, s) => sum + s.calls, 0)),
            advisory_lock_calls_per_send: per(
              nested.filter((s) => /pg_(try_)?advisory_(xact_)?lock/i.test(s.query)).reduce((sum, s) => sum + s.calls, 0),
              3,
            ),
            row_locking_per_send: per(
              nested.filter((s) => /FOR (NO KEY UPDATE|UPDATE|KEY SHARE|SHARE)\b/i.test(s.query)).reduce((sum, s) => sum + s.calls, 0),
              3,
            ),
            top_by_calls: [...nested]
              .sort((a, b) => b.calls - a.calls)
              .slice(0, TOP)
              .map(entry),
          }
        : "not tracked (pg_stat_statements.track is not 'all' for this database)",
    };
  }

  // Redis
  const redisCommands: Array<[string, number]> = [];
  for (const [name, calls] of o.redisAfter.commands) {
    const d = calls - (o.redisBefore.commands.get(name) ?? 0);
    if (d > 0) redisCommands.push([name, d]);
  }
  redisCommands.sort((a, b) => b[1] - a[1]);
  const redisCalls = o.redisAfter.processed - o.redisBefore.processed;

  return {
    sends: o.sends,
    cpu_ms_per_send: { ...cpuMs, engine_total: round(engineMs, 3) },
    cpu_window_s: round((o.cpuAfter.at - o.cpuBefore.at) / 1000, 2),
    postgres: {
      statements,
      transactions_per_send: per(delta("xact_commit") + delta("xact_rollback")),
      rollbacks: delta("xact_rollback"),
      rows_written_per_send: per(delta("tup_inserted") + delta("tup_updated") + delta("tup_deleted")),
      rows_inserted_per_send: per(delta("tup_inserted")),
      rows_updated_per_send: per(delta("tup_updated")),
      rows_deleted_per_send: per(delta("tup_deleted")),
      rows_read_per_send: per(delta("tup_returned") + delta("tup_fetched"), 1),
      wal_of_this_db:
        typeof o.ownWal === "string" ? o.ownWal : { bytes_per_send: per(o.ownWal.bytes, 0), records_per_send: per(o.ownWal.records, 2), full_page_image_bytes_per_send: per(o.ownWal.fpi_bytes, 0) },
      wal_bytes_per_send: per(delta("wal_bytes"), 0),
      wal_lsn_bytes_per_send: per(delta("lsn_bytes"), 0),
      wal_records_per_send: per(delta("wal_records")),
      wal_full_page_images_per_send: per(delta("wal_fpi"), 3),
      scope: "statements, transactions, rows and wal_of_this_db: this database only; wal_*_per_send: the whole server",
    },
    redis: {
      commands_per_send: per(redisCalls),
      busy_usec_per_send: per(o.redisAfter.usec - o.redisBefore.usec, 1),
      net_input_bytes_per_send: per(o.redisAfter.netIn - o.redisBefore.netIn, 0),
      net_output_bytes_per_send: per(o.redisAfter.netOut - o.redisBefore.netOut, 0),
      top_commands_per_send: Object.fromEntries(redisCommands.slice(0, TOP).map(([name, d]) => [name, per(d, 3)])),
      scope: "the whole Redis server (INFO): other clients' commands during the run count too",
    },
  };
}
