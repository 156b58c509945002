// Webhook benchmark: deliveries per second of the real webhook-deliverer (a child
// process, PostgreSQL, Redis) to a loopback receiver that answers 200 at once,
// beside a raw undici POST loop (its own process, same envelopes, same concurrency)
// in the same run; and the event-to-receiver latency at idle.
//   node --import tsx bench/webhooks.ts [events=5000] [accounts=20] [latency_events=200]
// Throughput runs (a fresh database and queue prefix each; the events are written
// in one statement once the deliverer is ready; timed from that write to the last
// request at the receiver):
//   one_account            all events of one account: at most 10 in flight (the per-account limit)
//   accounts_own_receivers events round-robin over `accounts` accounts, each with its own receiver
//                          port (its own origin): up to 10 in flight per account, 200 in all
//   accounts_one_receiver  the same accounts all pointing at one receiver port (one origin)
// Raw loops to the same receivers: concurrency 10 to one URL, 50 over the accounts' URLs,
// 50 to one URL.
// Latency: one account, `latency_events` events written one at a time (each with
// recordEvent in its own transaction, as the engine does), each awaited at the
// receiver and recorded succeeded before the next.
// BENCH_RECEIVER_DELAY_MS makes the receiver answer after that long (default 0), for
// every run and the raw loops alike (with BENCH_RESULT_NAME to keep the default result).
// WEBHOOK_DELIVERER_NODE_ARGS adds node flags to the deliverer (e.g.
// "--cpu-prof --cpu-prof-dir=/tmp/prof"; summarize with bench/lib/profile-summary.ts).
// Writes bench/results/webhooks.json.
import { randomUUID } from "node:crypto";
import { executor, type Db } from "@outreach/db";
import { recordEvent } from "@outreach/domain";
import { createTestDatabase, startAppProcess, uniqueQueuePrefix, waitFor, type AppProcess } from "@outreach/testing";
import { runChild, stopApp } from "./lib/apps.js";
import { CpuMeter } from "./lib/cpu.js";
import { maxOf, minOf, round } from "./lib/numbers.js";
import { dropQueuePrefix } from "./lib/queues.js";
import { log, machineInfo, writeResult } from "./lib/results.js";
import { argNumber, ENCRYPTION_KEY, REDIS_URL } from "./lib/settings.js";
import { benchEventData, insertEvents, percentile, seedWebhookAccounts, startBenchReceiver, type BenchReceiver } from "./lib/webhook-bench.js";

const events = argNumber(0, 5_000);
const accounts = argNumber(1, 20);
const latencyEvents = argNumber(2, 200);
const TIMEOUT_MS = Number(process.env.BENCH_TIMEOUT_MS ?? 300_000);
const RECEIVER_DELAY_MS = Number(process.env.BENCH_RECEIVER_DELAY_MS ?? 0);
/** the raw loops' concurrency beside the runs of many accounts (the deliverer could have up to 10 per account in flight) */
const WORKER_CONCURRENCY = 50;
const ACCOUNT_LIMIT = 10;

interface RawResult {
  count: number;
  concurrency: number;
  urls: number;
  ms: number;
  per_second: number;
  body_bytes: number;
  non_2xx: number;
}

function delivererEnv(databaseUrl: string, queuePrefix: string): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    REDIS_URL,
    QUEUE_PREFIX: queuePrefix,
    LOG_LEVEL: "warn",
    ENCRYPTION_KEY: ENCRYPTION_KEY.toString("base64"),
    WEBHOOK_ALLOW_PRIVATE_URLS: "true",
  };
}

async function startDelivererProcess(env: Record<string, string>): Promise<AppProcess> {
  const nodeArgs = process.env.WEBHOOK_DELIVERER_NODE_ARGS?.split(" ").filter(Boolean);
  return startAppProcess("webhook-deliverer", { env, nodeArgs, timeoutMs: 60_000 });
}

/** Waits until `count` deliveries are recorded succeeded; answers Date.now() then. */
async function allRecorded(db: Db, count: number): Promise<number> {
  await waitFor(async () => (await db.webhookDelivery.count({ where: { state: "succeeded" } })) >= count, { timeoutMs: 60_000, intervalMs: 25, what: "every delivery recorded succeeded" });
  return Date.now();
}

async function throughputRun(name: string, receiver: BenchReceiver, accountCount: number, urls: string[]) {
  const database = await createTestDatabase();
  const prefix = uniqueQueuePrefix();
  let app: AppProcess | undefined;
  try {
    const accountIds = await seedWebhookAccounts(database.db, name, accountCount, urls);
    app = await startDelivererProcess(delivererEnv(database.url, prefix));
    const cpu = new CpuMeter({ deliverer: app }, database.name);
    receiver.reset();
    log(`${name}: ${events} events over ${accountCount} account(s), ${urls.length} receiver URL(s)`);
    cpu.begin();
    const writtenAt = Date.now();
    await insertEvents(database.db, accountIds, events);
    const committedAt = Date.now();
    const progress = setInterval(() => log(`  ${receiver.count} / ${events} received`), 10_000);
    try {
      await receiver.waitForCount(events, TIMEOUT_MS);
    } finally {
      clearInterval(progress);
    }
    const cpuUse = cpu.end();
    const firstAt = minOf(receiver.times);
    const lastAt = maxOf(receiver.times);
    const recordedAt = await allRecorded(database.db, events);
    const [relay] = await executor(database.db).rows<{ first_ms: number; last_ms: number }>(
      `SELECT round(extract(epoch FROM min(d."createdAt")) * 1000 - $1)::int AS first_ms, round(extract(epoch FROM max(d."createdAt")) * 1000 - $1)::int AS last_ms FROM webhook_deliveries d`,
      [writtenAt],
    );
    const states = await database.db.webhookDelivery.groupBy({ by: ["state"], _count: true });
    const result = {
      name,
      accounts: accountCount,
      receiver_urls: urls.length,
      events,
      events_write_ms: committedAt - writtenAt,
      write_to_first_delivery_ms: firstAt - writtenAt,
      write_to_last_delivery_ms: lastAt - writtenAt,
      deliveries_per_second: round(events / ((lastAt - writtenAt) / 1000), 1),
      deliveries_per_second_first_to_last: round(events / ((lastAt - firstAt) / 1000), 1),
      relay_write_to_first_row_ms: relay?.first_ms,
      relay_write_to_last_row_ms: relay?.last_ms,
      last_delivery_to_all_recorded_ms: recordedAt - lastAt,
      deliveries_by_state: Object.fromEntries(states.map((s) => [s.state, s._count])),
      requests_received: receiver.count,
      duplicate_envelope_ids: receiver.duplicates,
      most_requests_open_at_once: receiver.maxOpen,
      body_bytes: receiver.bodyBytes[0],
      cpu: cpuUse,
    };
    log(`  ${result.deliveries_per_second} deliveries/s (first to last ${result.deliveries_per_second_first_to_last}/s), deliverer cpu ${cpuUse.deliverer_pct} %`);
    return result;
  } finally {
    if (app) {
      await stopApp(app);
      const lines = app.output().trim().split("\n").filter(Boolean);
      if (lines.length) log(`deliverer logged ${lines.length} line(s), e.g. ${lines.slice(0, 3).join(" | ")}`);
    }
    await database.drop();
    await dropQueuePrefix(prefix);
  }
}

async function latencyRun(receiver: BenchReceiver) {
  const database = await createTestDatabase();
  const prefix = uniqueQueuePrefix();
  let app: AppProcess | undefined;
  const db = database.db;
  try {
    const [accountId] = await seedWebhookAccounts(db, "latency", 1, [receiver.urls[0]!]);
    app = await startDelivererProcess(delivererEnv(database.url, prefix));
    receiver.reset();
    const warmUp = 20;
    log(`latency: ${latencyEvents} events one at a time (after ${warmUp} to warm up)`);
    const fromCommit: number[] = [];
    const fromWrite: number[] = [];
    const relayMs: number[] = [];
    for (let i = 0; i < warmUp + latencyEvents; i++) {
      const campaignId = randomUUID();
      const arrival = receiver.arrivalOf(campaignId, 30_000);
      const writeAt = Date.now();
      const eventId = await db.$transaction((tx) => recordEvent(tx, accountId!, "enrollment.sent", benchEventData(i, campaignId)));
      const commitAt = Date.now();
      const at = await arrival;
      // the deliverer is idle again before the next event: its outcome is recorded
      const delivery = await waitFor(() => db.webhookDelivery.findFirst({ where: { eventId, state: "succeeded" }, select: { createdAt: true } }), {
        timeoutMs: 30_000,
        intervalMs: 5,
        what: "the delivery recorded",
      });
      if (i < warmUp) continue;
      fromCommit.push(at - commitAt);
      fromWrite.push(at - writeAt);
      relayMs.push(delivery.createdAt.getTime() - commitAt);
    }
    const summary = (values: number[]) => {
      const sorted = [...values].sort((a, b) => a - b);
      return { p50: percentile(sorted, 0.5), p90: percentile(sorted, 0.9), p99: percentile(sorted, 0.99), max: sorted.at(-1) };
    };
    const result = {
      events: latencyEvents,
      commit_to_receiver_ms: summary(fromCommit),
      write_start_to_receiver_ms: summary(fromWrite),
      commit_to_delivery_row_ms: summary(relayMs),
    };
    log(`  commit to receiver p50 ${result.commit_to_receiver_ms.p50} ms, p99 ${result.commit_to_receiver_ms.p99} ms`);
    return result;
  } finally {
    if (app) await stopApp(app);
    await database.drop();
    await dropQueuePrefix(prefix);
  }
}

const receiver = await startBenchReceiver(accounts, RECEIVER_DELAY_MS);
try {
  const oneUrl = [receiver.urls[0]!];
  log(`raw undici: ${events} POSTs per loop`);
  await runChild<RawResult>("raw-webhook-post.ts", [oneUrl[0]!, "1000", String(ACCOUNT_LIMIT)]); // warm-up
  const raw = {
    one_url_concurrency_10: await runChild<RawResult>("raw-webhook-post.ts", [oneUrl[0]!, String(events), String(ACCOUNT_LIMIT)]),
    accounts_urls_concurrency_50: await runChild<RawResult>("raw-webhook-post.ts", [receiver.urls.join(","), String(events), String(WORKER_CONCURRENCY)]),
    one_url_concurrency_50: await runChild<RawResult>("raw-webhook-post.ts", [oneUrl[0]!, String(events), String(WORKER_CONCURRENCY)]),
  };
  for (const [name, r] of Object.entries(raw)) log(`  ${name}: ${r.per_second}/s`);

  const engine = {
    one_account: await throughputRun("one_account", receiver, 1, oneUrl),
    accounts_own_receivers: await throughputRun("accounts_own_receivers", receiver, accounts, receiver.urls),
    accounts_one_receiver: await throughputRun("accounts_one_receiver", receiver, accounts, oneUrl),
  };
  const latency = await latencyRun(receiver);

  const ratio = (a: { deliveries_per_second: number }, b: RawResult) => round(a.deliveries_per_second / b.per_second, 3);
  writeResult("webhooks", {
    date: new Date().toISOString(),
    machine: machineInfo(),
    settings: { events, accounts, latency_events: latencyEvents, receiver_delay_ms: RECEIVER_DELAY_MS, raw_concurrency_many_accounts: WORKER_CONCURRENCY, per_account_limit: ACCOUNT_LIMIT },
    what: "engine: the webhook-deliverer as a child process (default settings), events written in one INSERT once it is ready, timed from that write to the last request's end of body at the receiver (an in-process HTTP server of the benchmark that parses each envelope and answers 200 at once, or after receiver_delay_ms); raw: undici request() with a keep-alive Agent in its own process, the same envelopes and headers, N at a time",
    raw_undici: raw,
    engine,
    ratios_engine_over_raw: {
      one_account_over_raw_concurrency_10: ratio(engine.one_account, raw.one_url_concurrency_10),
      accounts_own_receivers_over_raw_concurrency_50: ratio(engine.accounts_own_receivers, raw.accounts_urls_concurrency_50),
      accounts_one_receiver_over_raw_concurrency_50: ratio(engine.accounts_one_receiver, raw.one_url_concurrency_50),
    },
    latency_at_idle: latency,
  });
} finally {
  await receiver.close();
}
