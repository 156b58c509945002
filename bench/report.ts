// Regenerates bench/README.md from bench/results/*.json: the latest figures of each
// benchmark, with the machine, the commit and the date of its run, its raw limit, the
// ratio, and the target where there is one. Run alone after any benchmark:
//   node --import tsx bench/report.ts
// A benchmark whose result carries a `figures` list (bench/sending.ts,
// bench/many-accounts.ts) is shown as it says; the others are read by the extractors
// below, which skip any figure their result file does not have.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "@outreach/testing";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

export interface Figure {
  figure: string;
  value: number | string | null | undefined;
  raw?: number | string | null;
  ratio?: number | null;
  target?: string;
  met?: string | null;
}

const RESULTS = join(REPO_ROOT, "bench/results");
const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
const ratioOf = (value: unknown, raw: unknown, digits = 3) => {
  const a = num(value);
  const b = num(raw);
  return a !== undefined && b ? Math.round((a / b) * 10 ** digits) / 10 ** digits : null;
};
const verdict = (ok: boolean | undefined) => (ok === undefined ? null : ok ? "met" : "missed");

/** Every object under `value` with its path, depth first. */
function* objects(value: Json, path = ""): Generator<[string, Json]> {
  if (!value || typeof value !== "object") return;
  yield [path, value];
  for (const [key, child] of Object.entries(value)) yield* objects(child, `${path}.${key}`);
}

const extractors: Record<string, (r: Json) => Figure[]> = {
  api(r) {
    const bare = r.bare_express ?? r.bare;
    const api = r.authenticated_get_campaigns ?? r.api;
    const figures: Figure[] = [];
    if (api) {
      const ratio = ratioOf(api.requests_per_second, bare?.requests_per_second);
      figures.push({
        figure: "authenticated GET /campaigns: requests/s",
        value: api.requests_per_second,
        raw: bare?.requests_per_second,
        ratio,
        target: ">= 0.5x bare",
        met: verdict(ratio === null ? undefined : ratio >= 0.5),
      });
      figures.push({
        figure: "authenticated GET /campaigns: p99 (ms), saturated",
        value: api.latency_p99_ms,
        raw: bare?.latency_p99_ms,
        ratio: ratioOf(api.latency_p99_ms, bare?.latency_p99_ms, 2),
        target: "<= 25 ms",
        met: verdict(num(api.latency_p99_ms) === undefined ? undefined : api.latency_p99_ms <= 25),
      });
    }
    // a run at a fixed rate (e.g. 500 req/s): any object on a path naming it, with a p99
    for (const [path, o] of objects(r)) {
      if (!/fixed|rate|500/i.test(path) || num(o.latency_p99_ms) === undefined || /bare/i.test(path)) continue;
      const rawP99 = [...objects(r)].find(([p, b]) => /fixed|rate|500/i.test(p) && /bare/i.test(p) && num(b.latency_p99_ms) !== undefined)?.[1]?.latency_p99_ms;
      figures.push({
        figure: `authenticated GET /campaigns: p99 (ms) at a fixed ${r.settings?.fixed_rate_per_second ?? "?"} req/s`,
        value: o.latency_p99_ms,
        raw: rawP99,
        ratio: ratioOf(o.latency_p99_ms, rawP99, 2),
        target: "< 10 ms at 500 req/s",
        met: verdict(o.latency_p99_ms < 10),
      });
      break;
    }
    return figures;
  },
  dispatch(r) {
    const raw = r.raw_bullmq_add_bulk?.jobs_per_second;
    return (r.engine ?? []).flatMap((e: Json) => [
      {
        figure: `plan ${r.settings?.enrollments ?? "?"} enrollments, jitter ${(e.jitter_seconds ?? []).join("-")} s: enrollments/s`,
        value: e.enrollments_per_second,
        raw,
        ratio: ratioOf(e.enrollments_per_second, raw),
      },
      {
        figure: `plan ${r.settings?.enrollments ?? "?"} enrollments, jitter ${(e.jitter_seconds ?? []).join("-")} s: dispatcher peak RSS (MB)`,
        value: e.dispatcher_rss_mb?.peak_vmhwm ?? e.dispatcher_rss_mb?.peak,
      },
    ]);
  },
  "dispatch-memory"(r) {
    return (r.runs ?? []).map((run: Json) => {
      const peak = run.dispatcher_rss_mb?.peak_vmhwm ?? run.dispatcher_rss_mb?.peak;
      const limit = run.enrollments === 100_000 ? 250 : run.enrollments === 1_000_000 && run.steps === 3 ? 300 : undefined;
      return {
        figure: `dispatcher peak RSS (MB), ${run.enrollments} enrollments x ${run.steps} steps`,
        value: peak,
        raw: run.dispatcher_rss_mb?.before,
        target: limit ? `<= ${limit} MB` : undefined,
        met: limit ? verdict(peak <= limit) : undefined,
      };
    });
  },
  fairness(r) {
    return [
      {
        figure: "single enrollment beside a big batch: dispatch to received, max (ms)",
        value: r.b_dispatch_to_received_ms?.max,
        target: r.target_ms ? `<= ${r.target_ms} ms` : undefined,
        met: r.meets_target === undefined ? undefined : verdict(r.meets_target),
      },
      { figure: "big batch meanwhile: sends/s", value: r.a?.sends_per_second_during_probes },
    ];
  },
  webhooks(r) {
    const raw = r.raw_undici ?? {};
    const rawFor: Record<string, Json> = { one_account: raw.one_url_concurrency_10, accounts_own_receivers: raw.accounts_urls_concurrency_50, accounts_one_receiver: raw.one_url_concurrency_50 };
    return Object.entries(r.engine ?? {}).map(([name, e]: [string, Json]) => ({
      figure: `deliveries/s, ${name.replace(/_/g, " ")}`,
      value: e.deliveries_per_second,
      raw: rawFor[name]?.per_second,
      ratio: ratioOf(e.deliveries_per_second, rawFor[name]?.per_second),
    }));
  },
  rendering(r) {
    return [
      { figure: "typical 7 KB email: render median (ms)", value: r.typical_email_7kb_200_runs?.median_ms },
      { figure: "worst body at the size cap: render max (ms)", value: r.slowest?.by_max?.max_ms },
    ];
  },
  "contact-import"(r) {
    return [
      { figure: "import 100,000 new contacts: rows/s", value: r.new_contacts?.rows_per_second },
      { figure: "re-import 100,000 (all duplicates): rows/s", value: r.reimport_all_duplicates?.rows_per_second },
      { figure: "api peak RSS (MB)", value: r.api_process_rss_mb?.peak },
    ];
  },
  "import-memory"(r) {
    return Object.entries(r.runs ?? {}).flatMap(([label, run]: [string, Json]) =>
      ["max-rows", "max-body"].filter((s) => run?.[s]).map((s) => ({ figure: `api peak RSS (MB), two ${s} imports (${label})`, value: run[s].api_rss_mb?.peak_vmhwm })),
    );
  },
  replies(r) {
    return [
      {
        figure: "reply detected (IDLE), p50 (ms)",
        value: r.idle?.latency_event_created_at?.p50_ms,
        raw: r.raw_idle_baseline?.p50_ms,
        ratio: ratioOf(r.idle?.latency_event_created_at?.p50_ms, r.raw_idle_baseline?.p50_ms, 2),
      },
      { figure: `many inboxes (${r.many?.inboxes ?? "?"}): poller ready (ms)`, value: r.many?.poller_ready_ms },
    ];
  },
  // npm run chaos (test/chaos): the claims, then how long each kind of fault took to heal
  chaos(r) {
    const claims: Figure[] = (r.claims ?? []).map((c: Json) => ({ figure: `chaos: ${c.name}`, value: c.ok ? "yes" : `no (${c.problemCount})`, met: verdict(c.ok) }));
    const heal: Figure[] = Object.entries(r.heal ?? {}).map(([kind, h]: [string, Json]) => ({
      figure: `chaos: ${kind} x${h.count}, ready / progress after (median ms)`,
      value: `${h.readyMsMedian ?? "-"} / ${h.progressMsMedian ?? "-"}`,
    }));
    return [{ figure: "chaos: emails received / faults", value: `${r.counts?.["emails received"]} / ${r.faults?.length}` }, ...claims, ...heal];
  },
};

function figuresOf(name: string, result: Json): Figure[] {
  if (Array.isArray(result.figures)) return result.figures;
  const extract = extractors[name];
  if (!extract) return [];
  try {
    return extract(result).filter((f) => f.value !== undefined && f.value !== null);
  } catch {
    return [];
  }
}

/** The latest run's date and machine of a result (import-memory keeps several runs). */
function runInfo(result: Json): { date?: string; machine?: Json } {
  if (result.date) return { date: result.date, machine: result.machine };
  const runs = Object.values(result.runs ?? {}) as Json[];
  const latest = runs.filter((r) => r?.date).sort((a, b) => String(b.date).localeCompare(String(a.date)))[0];
  return { date: latest?.date, machine: latest?.machine };
}

const cell = (v: unknown) => (v === undefined || v === null || v === "" ? "" : String(v).replace(/\|/g, "\\|"));

export function renderReport(): string {
  const benchmarks = new Set(
    readdirSync(join(REPO_ROOT, "bench"))
      .filter((f) => f.endsWith(".ts"))
      .map((f) => f.slice(0, -3)),
  );
  const files = readdirSync(RESULTS)
    .filter((f) => f.endsWith(".json"))
    .sort();
  const lines: string[] = [];
  const others: string[] = [];
  lines.push("| Benchmark | Figure | Value | Raw limit | Ratio | Target | Met | Date (UTC) | Commit | Machine | Load at start |");
  lines.push("|---|---|---|---|---|---|---|---|---|---|---|");
  for (const file of files) {
    const name = file.slice(0, -5);
    let result: Json;
    try {
      result = JSON.parse(readFileSync(join(RESULTS, file), "utf8"));
    } catch {
      others.push(`${name} (unreadable)`);
      continue;
    }
    const { date, machine } = runInfo(result);
    if (!benchmarks.has(name) && !extractors[name]) {
      others.push(`${name} (${date?.slice(0, 16).replace("T", " ") ?? "no date"})`);
      continue;
    }
    const figures = figuresOf(name, result);
    const dirty = machine?.code?.uncommitted_engine_files?.length ? "+" : "";
    const info = [
      cell(date?.slice(0, 16).replace("T", " ")),
      cell(machine?.code?.commit ? `${machine.code.commit}${dirty}` : ""),
      cell([machine?.cpus ? `${machine.cpus} cpus` : "", machine?.cpu_model, machine?.node].filter(Boolean).join(", ")),
      cell(machine?.loadavg_at_start?.join(" ")),
    ];
    if (!figures.length) lines.push(`| ${name} | (no figure read) | | | | | | ${info.join(" | ")} |`);
    for (const f of figures)
      lines.push(
        `| ${name} | ${cell(f.figure)} | ${cell(f.value)} | ${cell(f.raw)} | ${cell(f.ratio === null || f.ratio === undefined ? "" : `${f.ratio}x`)} | ${cell(f.target)} | ${cell(f.met)} | ${info.join(" | ")} |`,
      );
  }
  return [
    "# Benchmarks",
    "",
    "`npm run bench` runs every benchmark of this folder one after the other with its",
    "defaults (`npm run bench -- sending many-accounts` runs some; `npm run bench -- --list`",
    "lists them), each writing `bench/results/<name>.json`, then regenerates this file",
    "(`node --import tsx bench/report.ts` regenerates it alone). Each benchmark's header",
    "comment says what it measures and takes which arguments.",
    "",
    "Figures come from the latest run of each benchmark, on the machine it names; a",
    "commit with `+` had uncommitted changes to the engine. The raw limit is what the",
    "same work costs without the engine (plain nodemailer, a bare HTTP route, a bare",
    "queue), measured in the same run; the ratio is the figure over it. On a machine",
    "shared with other work (see the load average) the figures are indicative.",
    "",
    ...lines,
    "",
    others.length ? `Other result files (variants and diagnostics): ${others.join(", ")}.` : "",
    "",
    "Per-send cost (CPU-ms per send of every process, PostgreSQL statements, rows and WAL,",
    "Redis commands and bytes) is in `per_send_cost` of each engine run in",
    "`results/sending.json` and `results/many-accounts.json`.",
    "",
  ].join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync(join(REPO_ROOT, "bench/README.md"), renderReport());
  console.log("bench/README.md written");
}
