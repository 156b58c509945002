// The performance table: the measures with a target, run side by side in one run on one
// machine (each benchmark as its own process, one after the other), then read back from
// their result files into one table beside the figures they replaced and their targets.
//   npm run bench:table                 run the five measures, then write the table
//   npm run bench:table -- --no-run     write the table from the result files as they are
//   npm run bench:table -- api sending  run these parts only, then write the table
// Parts: sending (instant and remote-like sinks, 1 sender, 5 inboxes), api (GET /campaigns
// beside bare Express), imap (one poller watching 2,000 inboxes of one Dovecot), dispatch
// (1M enrollments x 3 steps). Writes bench/results/performance-table.json (its `figures` are
// shown in bench/README.md) and prints the table as Markdown.
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { REPO_ROOT } from "@outreach/testing";
import { renderReport, type Figure } from "./report.js";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

interface Part {
  bench: string;
  args: string[];
  env?: Record<string, string>;
}

const IMAP_INBOXES = 2000;
const PARTS: Record<string, Part> = {
  sending: { bench: "sending", args: ["5000", "5", "1", "instant,remote", "3000", "20", "1"] },
  api: { bench: "api", args: ["10", "50", "500"] },
  imap: { bench: "replies", args: ["100", "20", String(IMAP_INBOXES), "100"], env: { BENCH_PHASES: "many", BENCH_RESULT_NAME: "replies-many" } },
  dispatch: { bench: "dispatch-memory", args: ["1000000x3"] },
};

interface Row {
  measure: string;
  before: string;
  now: string;
  target: string;
  met: boolean | null;
  source: string;
  date?: string;
}

const read = (name: string): Json => {
  try {
    return JSON.parse(readFileSync(join(REPO_ROOT, "bench/results", `${name}.json`), "utf8"));
  } catch {
    return undefined;
  }
};
const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
const round = (v: number | undefined, digits = 2) => (v === undefined ? undefined : Math.round(v * 10 ** digits) / 10 ** digits);
const figure = (result: Json, name: string): Figure | undefined => (result?.figures as Figure[] | undefined)?.find((f) => f.figure === name);
const both = (...checks: Array<boolean | undefined>): boolean | null => (checks.some((c) => c === undefined) ? null : checks.every(Boolean));

function sendingRows(): Row[] {
  const r = read("sending");
  const instant = figure(r, "instant, 1 sender: sends/s");
  const remote = figure(r, "remote, 1 sender: sends/s");
  const sessions = figure(r, "remote, 1 sender: SMTP sessions per inbox (most)");
  const instantRatio = num(instant?.ratio);
  const remoteRatio = num(remote?.ratio);
  const perInbox = num(sessions?.value);
  return [
    {
      measure: "sends/s vs raw pooled nodemailer, instant sink, 1 sender, 5 inboxes",
      before: "0.18x (284 vs 1,573/s)",
      now: instant ? `${instantRatio}x (${instant.value} vs ${instant.raw}/s)` : "not measured",
      target: ">= 0.4x",
      met: both(instantRatio === undefined ? undefined : instantRatio >= 0.4),
      source: "sending.json",
      date: r?.date,
    },
    {
      measure: "same, remote-like sink (20 ms per reply)",
      before: "0.90x, 10 sessions",
      now: remote ? `${remoteRatio}x (${remote.value} vs ${remote.raw}/s), ${perInbox ?? "?"} sessions per inbox at most` : "not measured",
      target: "keep >= 0.9x, <= 2 sessions per inbox",
      met: both(remoteRatio === undefined ? undefined : remoteRatio >= 0.9, perInbox === undefined ? undefined : perInbox <= 2),
      source: "sending.json",
      date: r?.date,
    },
  ];
}

function apiRow(): Row {
  const r = read("api");
  const api = r?.authenticated_get_campaigns;
  const bare = r?.bare_express;
  const ratio = round(num(api?.requests_per_second) && num(bare?.requests_per_second) ? api.requests_per_second / bare.requests_per_second : undefined, 3);
  const p99 = num(api?.latency_p99_ms);
  return {
    measure: "authenticated GET /campaigns vs bare Express",
    before: "0.41x",
    now: api ? `${ratio}x (${api.requests_per_second} vs ${bare?.requests_per_second} req/s), p99 ${p99} ms` : "not measured",
    target: ">= 0.5x, p99 <= 25 ms",
    met: both(ratio === undefined ? undefined : ratio >= 0.5, p99 === undefined ? undefined : p99 <= 25),
    source: "api.json",
    date: r?.date,
  };
}

function imapRow(): Row {
  const r = read("replies-many");
  const many = r?.many;
  const inboxes = num(many?.inboxes);
  const watched = num(many?.connect?.connected) ?? inboxes;
  const rss = num(many?.steady?.poller_rss_mb?.peak_vmhwm) ?? num(many?.steady?.poller_rss_mb?.window_max);
  return {
    measure: "IMAP inboxes watched by one poller process",
    before: "500 at 230-284 MB RSS",
    now: many ? `${watched} of ${inboxes} at ${rss} MB peak RSS, ready in ${many.poller_ready_ms} ms` : "not measured",
    target: ">= 2,000 within 512 MB",
    met: both(watched === undefined ? undefined : watched >= 2000, rss === undefined ? undefined : rss <= 512),
    source: "replies-many.json",
    date: r?.date,
  };
}

function dispatchRow(): Row {
  const r = read("dispatch-memory");
  const run = (r?.runs ?? []).find((x: Json) => x.enrollments === 1_000_000 && x.steps === 3);
  const peak = num(run?.dispatcher_rss_mb?.peak_vmhwm) ?? num(run?.dispatcher_rss_mb?.peak);
  return {
    measure: "dispatch of 1M enrollments x 3 steps",
    before: "not measured",
    now: run ? `${peak} MB peak RSS, ${Math.round(run.planning_ms / 1000)} s (${run.rows_per_second} step rows/s)` : "not measured",
    target: "bounded RSS (<= 300 MB), time recorded",
    met: both(peak === undefined ? undefined : peak <= 300),
    source: "dispatch-memory.json",
    date: r?.date,
  };
}

function runPart(part: Part): Promise<number | null> {
  console.error(
    `\n=== ${part.bench} ${part.args.join(" ")} (load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")})`,
  );
  const child = spawn(process.execPath, ["--import", "tsx", join(REPO_ROOT, "bench", `${part.bench}.ts`), ...part.args], {
    cwd: REPO_ROOT,
    stdio: "inherit",
    env: { ...process.env, ...part.env },
  });
  return new Promise((resolve) => child.once("exit", (code) => resolve(code)));
}

const args = process.argv.slice(2).filter((a) => a !== "--");
const chosen = args.filter((a) => !a.startsWith("--"));
for (const name of chosen) if (!PARTS[name]) throw new Error(`no part ${name}; parts: ${Object.keys(PARTS).join(", ")}`);
const failed: string[] = [];
const loadAtStart = loadavg().map((l) => round(l));
if (!args.includes("--no-run")) {
  for (const name of chosen.length ? chosen : Object.keys(PARTS)) if ((await runPart(PARTS[name]!)) !== 0) failed.push(name);
}

const rows = [...sendingRows(), apiRow(), imapRow(), dispatchRow()];
const verdict = (met: boolean | null) => (met === null ? "" : met ? "met" : "missed");
const markdown = [
  "| measure | before | now | target | met | measured (UTC) |",
  "|---|---|---|---|---|---|",
  ...rows.map((r) => `| ${r.measure} | ${r.before} | ${r.now} | ${r.target} | ${verdict(r.met)} | ${r.date?.slice(0, 16).replace("T", " ") ?? ""} |`),
].join("\n");
writeFileSync(
  join(REPO_ROOT, "bench/results/performance-table.json"),
  `${JSON.stringify(
    {
      date: new Date().toISOString(),
      machine: { cpus: cpus().length, cpu_model: cpus()[0]?.model.split(" ").slice(0, 3).join(" "), node: process.version, loadavg_at_start: loadAtStart },
      what: "the measures with a target of the performance table, each read from its benchmark's latest result file (run one after the other in this run unless --no-run)",
      failed_parts: failed,
      rows,
      figures: rows.map((r) => ({ figure: r.measure, value: r.now, target: r.target, met: verdict(r.met) || null })),
      markdown,
    },
    null,
    2,
  )}\n`,
);
writeFileSync(join(REPO_ROOT, "bench/README.md"), renderReport());
console.log(markdown);
process.exit(failed.length ? 1 : 0);
