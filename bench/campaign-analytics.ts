// Campaign analytics benchmark: GET /campaigns/:id/analytics on one campaign of
// 1M step sends (334,000 enrollments x 3 steps, two A/B variants on step 1, a
// realistic mix of opens, clicks, replies, bounces and unsubscribes: see
// bench/lib/analytics-seed.ts), through the API process over HTTP, warm, for each
// group_by (and group_by=day over a 30-day range), several runs each: p50, p95, max.
// Also records EXPLAIN (ANALYZE, BUFFERS) summaries of the endpoint's two
// statements per view.
//   node --import tsx bench/campaign-analytics.ts [enrollments=334000] [runs=15]
// BENCH_KEEP_DATABASE=1 leaves the seeded database (its URL is printed) for EXPLAIN by hand.
// Writes bench/results/campaign-analytics.json.
import { campaignDailySendCounts, campaignEventCounts, campaignSendCounts, planAnalyticsReads, executor, type AnalyticsRange, type Executor, type Queryable } from "@outreach/db";
import { createTestDatabase } from "@outreach/testing";
import { startBenchApi } from "./lib/apps.js";
import { dropUnlessKept } from "./lib/bench-database.js";
import { openingFromDay } from "@outreach/domain";
import { ANALYTICS_ZONE, seedAnalyticsCampaign } from "./lib/analytics-seed.js";
import { percentile as nearestRank, round } from "./lib/numbers.js";
import { log, machineInfo, writeResult } from "./lib/results.js";
import { argNumber } from "./lib/settings.js";

const enrollments = argNumber(0, 334_000);
const runs = argNumber(1, 15);
/** the target: well under a second per request at 1M sends on 2 CPUs */
const TARGET_MS = 500;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/**
 * What was tried on the way to the statements and indexes of
 * packages/db/src/queries/campaign-analytics.ts, measured by hand with EXPLAIN (ANALYZE)
 * on this benchmark's data (334,000 enrollments, 1,002,000 step sends, 180,462 events)
 * on 2 CPUs shared with other test runs (load average 5 to 10): indicative, compare within a line.
 */
const TRIED = [
  {
    what: "events credited to a step: a LATERAL per event ordering the enrollment's sends by (sentAt <= event) DESC, sentAt DESC through the unique (enrollmentId, stepPosition) index",
    explain: "Seq Scan enrollments 334000 rows; Index Scan step_sends_enrollmentId_stepPosition_key 3 rows x 180462 loops + Sort each; JIT 518 ms (cost estimate 28M)",
    execution_ms: 3332,
    kept: false,
  },
  {
    what: "the same with JIT off and a covering index (enrollmentId, sentAt) INCLUDE (stepPosition, variantId) WHERE sentAt IS NOT NULL: one backward index-only probe (sentAt <= event) LIMIT 1, the earliest send only when there is none",
    explain: "Index Only Scan Backward step_sends_sent_enrollment_idx 1 row x 180462 loops, Heap Fetches 0; the fallback probe never executed",
    execution_ms: 830,
    kept: true,
  },
  {
    what: "the kept statement with parallel_tuple_cost 0.01 for the transaction (planAnalyticsReads): a Parallel Append of Parallel Seq Scans of enrollments and inbound_messages, the probes in two workers",
    explain: "Workers Launched: 2; the same index-only probes",
    execution_ms: 580,
    compared_with_serial_ms: 900,
    kept: true,
  },
  {
    what: "events as five UNION ALL scans of enrollments (one per timestamp) instead of one scan with a VALUES lateral",
    explain: "five Seq Scans of enrollments (three of them parallel); no gain",
    execution_ms: 1550,
    kept: false,
  },
  {
    what: "events credited by a hash join on send intervals: lag/lead(sentAt) over an index-only scan of (campaignId, enrollmentId, sentAt) INCLUDE (stepPosition, variantId), joined on enrollment and event time within [sentAt, next sentAt)",
    explain: "WindowAgg over Index Only Scan 968853 rows; Hash Join, 317757 rows removed by the join filter",
    execution_ms: 1800,
    compared_with_kept_ms: 1350,
    kept: false,
  },
  {
    what: "sends per day: to_char((sentAt AT TIME ZONE zone)::date) grouped per row",
    explain: "Index Only Scan 967183 rows; the conversion and formatting of every row",
    execution_ms: 1430,
    kept: false,
  },
  {
    what: "sends per day: one index range per day of the zone ([day start, next day start) of step_sends_delivered_idx), grouped by the date, formatted once per group",
    explain: "Function Scan generate_series 11 rows; Index Only Scan step_sends_delivered_idx 87926 rows x 11 loops",
    execution_ms: 500,
    compared_with_ms: { "per-row conversion, grouped by date without to_char": 900, "no day at all": 270 },
    kept: true,
  },
  {
    what: "sends per step and variant: Parallel Seq Scan of step_sends (the planner's choice when one campaign is the whole table) against an Index Only Scan of step_sends_delivered_idx",
    explain: "seq: 29782 blocks read; index-only: 7264 blocks, Heap Fetches 0",
    execution_ms: { seq_scan: 390, index_only_scan: 210 },
    kept: "either, by the planner",
  },
];

/** An executor that answers the EXPLAIN (ANALYZE, BUFFERS) of each statement instead of its rows. */
function explaining(q: Queryable, plans: Json[]): Executor {
  const ex = executor(q);
  return {
    rows: async <T>(text: string, params: readonly unknown[] = []) => {
      const [row] = await ex.rows<{ "QUERY PLAN": Json }>(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${text}`, params);
      plans.push(row!["QUERY PLAN"][0]);
      return [] as T[];
    },
    values: async () => [],
    execute: async () => 0,
  };
}

/** The plan's time, its buffers and its scans (node, table, index, rows), depth first. */
function summarize(plan: Json) {
  const scans: string[] = [];
  let workers: number | null = null;
  const walk = (node: Json) => {
    if (node["Workers Launched"] !== undefined) workers = Math.max(workers ?? 0, node["Workers Launched"]);
    if (/Scan/.test(node["Node Type"])) {
      const where = [node["Relation Name"], node["Index Name"] && `using ${node["Index Name"]}`].filter(Boolean).join(" ");
      scans.push(`${node["Node Type"]} ${where}: ${node["Actual Rows"]} rows x ${node["Actual Loops"]} loops`);
    }
    for (const child of node.Plans ?? []) walk(child);
  };
  walk(plan.Plan);
  return {
    execution_ms: round(plan["Execution Time"], 1),
    planning_ms: round(plan["Planning Time"], 1),
    shared_hit_blocks: plan.Plan["Shared Hit Blocks"],
    shared_read_blocks: plan.Plan["Shared Read Blocks"],
    workers_launched: workers,
    scans,
  };
}

const percentile = (sorted: number[], q: number): number => round(nearestRank(sorted, q), 1);

const database = await createTestDatabase();
const api = await startBenchApi(database.url, { timeoutMs: 60_000 });
try {
  const machine = machineInfo();
  const signup: Json = await (
    await fetch(`${api.baseUrl}/signup`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: "analytics@bench.example" }) })
  ).json();
  const headers = { authorization: `Bearer ${signup.api_key.plaintext}` };
  const seedStarted = performance.now();
  const start = new Date("2026-09-01T00:00:00Z");
  const seed = await seedAnalyticsCampaign(database.db, signup.account_id, enrollments, start);
  const seedMs = Math.round(performance.now() - seedStarted);
  log(`seeded ${seed.rows.stepSends} step sends, ${seed.rows.enrollments} enrollments, ${seed.rows.inboundMessages} inbound messages in ${seedMs} ms`);

  const month = { from: seed.firstDay, to: new Date(Date.parse(`${seed.firstDay}T00:00:00Z`) + 29 * 86_400_000).toISOString().slice(0, 10) };
  const cases = [
    { name: "step", query: "group_by=step" },
    { name: "variant", query: "group_by=variant" },
    { name: "day", query: "group_by=day" },
    { name: "day, 30-day range", query: `group_by=day&from=${month.from}&to=${month.to}` },
  ];
  const timings: Json[] = [];
  let totals: Json;
  for (const c of cases) {
    const url = `${api.baseUrl}/campaigns/${seed.campaignId}/analytics?${c.query}`;
    const once = async () => {
      const started = performance.now();
      const res = await fetch(url, { headers });
      const body: Json = await res.json();
      if (res.status !== 200) throw new Error(`${c.query}: ${res.status} ${JSON.stringify(body)}`);
      return { ms: performance.now() - started, body };
    };
    // warm: the first requests read the tables into the cache
    for (let i = 0; i < 3; i++) totals = (await once()).body.totals;
    const samples: number[] = [];
    let groups = 0;
    for (let i = 0; i < runs; i++) {
      const { ms, body } = await once();
      samples.push(ms);
      groups = body.groups.length;
    }
    samples.sort((a, b) => a - b);
    const timing = { case: c.name, query: c.query, runs, groups, p50_ms: percentile(samples, 0.5), p95_ms: percentile(samples, 0.95), max_ms: round(samples[samples.length - 1]!, 1) };
    log(`${c.name}: p50 ${timing.p50_ms} ms, p95 ${timing.p95_ms} ms (${groups} groups)`);
    timings.push(timing);
  }

  // the statements' plans, as the service runs them (UTC instants of the campaign's days)
  const plans: Json = {};
  for (const [name, byDay, from, to] of [
    ["step or variant", false, null, null],
    ["day", true, null, null],
    ["day, 30-day range", true, month.from, month.to],
  ] as const) {
    const range: AnalyticsRange = {
      campaignId: seed.campaignId,
      zone: ANALYTICS_ZONE,
      byDay,
      from: from ? openingFromDay(null, ANALYTICS_ZONE, from) : null,
      to: to ? openingFromDay(null, ANALYTICS_ZONE, new Date(Date.parse(`${to}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)) : null,
    };
    const explained: Json[] = [];
    // as the service reads them: one transaction, JIT off
    await database.db.$transaction(
      async (tx) => {
        await planAnalyticsReads(tx);
        await (byDay ? campaignDailySendCounts : campaignSendCounts)(explaining(tx, explained), range);
        await campaignEventCounts(explaining(tx, explained), range);
      },
      { timeout: 60_000 },
    );
    plans[name] = { [byDay ? "campaignDailySendCounts" : "campaignSendCounts"]: summarize(explained[0]), campaignEventCounts: summarize(explained[1]) };
  }

  const worstP95 = Math.max(...timings.map((t) => t.p95_ms));
  writeResult("campaign-analytics", {
    date: new Date().toISOString(),
    machine,
    settings: { enrollments, steps: 3, step_sends: seed.rows.stepSends, inbound_messages: seed.rows.inboundMessages, runs, zone: ANALYTICS_ZONE, seed_ms: seedMs },
    totals,
    timings,
    plans,
    tried: TRIED,
    figures: [
      ...timings.map((t) => ({ figure: `GET analytics, ${t.case}, ${seed.rows.stepSends} sends: p50 (ms)`, value: t.p50_ms })),
      ...timings.map((t) => ({
        figure: `GET analytics, ${t.case}, ${seed.rows.stepSends} sends: p95 (ms)`,
        value: t.p95_ms,
        target: `<= ${TARGET_MS} ms`,
        met: t.p95_ms <= TARGET_MS ? "met" : "missed",
      })),
    ],
    worst_p95_ms: worstP95,
  });
} finally {
  await api.stop();
  await dropUnlessKept(database);
}
