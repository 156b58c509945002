// Contact-import memory benchmark: the api's peak RSS (VmHWM) while it takes two
// maximum contact imports at once, from two accounts. The api runs as the pod runs
// it: the esbuild bundle (apps/api/dist/main.js, built here), NODE_ENV=production.
// Each scenario gets a fresh api process, so its VmHWM is that scenario's peak.
//   max-rows:  250,000 rows (the row cap) of long but plausible contacts, filling
//              the body up to just under the 64 MiB cap: both imports succeed.
//   max-body:  64 MiB of short contacts (about 600,000 rows, over the row cap):
//              both are refused with 422, after the api has read the whole body.
//   node --import tsx bench/import-memory.ts [label=after] [scenarios=max-rows,max-body]
// API_NODE_OPTIONS (e.g. --max-old-space-size=256) is passed to the api process, as
// NODE_OPTIONS in a pod would be; without it V8 sizes its heap from the machine's
// 24 GB and collects lazily, so RSS then shows garbage not yet collected.
// Merges its run into bench/results/import-memory.json under the label (so "before"
// and "after" sit side by side).
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import { createTestDatabase, findFreePort, REPO_ROOT, uniqueQueuePrefix, waitFor } from "@outreach/testing";
import { procStatusMb } from "./lib/cpu.js";

const label = process.argv[2] ?? "after";
const scenarios = (process.argv[3] ?? "max-rows,max-body").split(",").filter(Boolean);
const BODY_CAP = 64 * 1024 * 1024;
const MAX_ROWS = 250_000;
const RESULT_FILE = join(REPO_ROOT, "bench/results/import-memory.json");

/** A JSON import body of exactly `rows` rows whose size is just under `targetBytes` (padding the company names), or of short rows until the cap. */
function buildBody(kind: "max-rows" | "max-body"): { body: Buffer; rows: number } {
  const parts: string[] = [];
  let size = '{"contact_import":{"name":"bench","contacts":[]}}'.length;
  let rows = 0;
  if (kind === "max-rows") {
    const row = (i: number, company: string) =>
      JSON.stringify({ email: `firstname.lastname-${i}@company-${i % 997}.example.com`, first_name: `Alexandrina ${i % 5000}`, last_name: `Montgomery-Whitfield ${i % 3000}`, company });
    let bare = size;
    for (let i = 0; i < MAX_ROWS; i++) bare += row(i, "").length + 1;
    // the same company length on every row, as long as the cap allows
    const companyLength = Math.floor((BODY_CAP - 1024 - bare) / MAX_ROWS);
    const filler = " International Trading, Logistics and Holdings Group GmbH & Co. KG, Division of Northern European Affairs".repeat(4);
    for (let i = 0; i < MAX_ROWS; i++) {
      const text = row(i, `Company ${String(i % 1000).padStart(3, "0")}${filler}`.slice(0, companyLength));
      parts.push(text);
      size += text.length + 1;
      rows++;
    }
  } else {
    for (let i = 0; ; i++) {
      const text = JSON.stringify({ email: `person-${i}@example${i % 97}.com`, first_name: `First${i}`, last_name: `Last${i % 5000}`, company: `Company ${i % 1000}` });
      if (size + text.length + 1 > BODY_CAP - 1024) break;
      parts.push(text);
      size += text.length + 1;
      rows++;
    }
  }
  const body = Buffer.from(`{"contact_import":{"name":"bench","contacts":[${parts.join(",")}]}}`);
  if (body.length > BODY_CAP) throw new Error(`body of ${body.length} bytes is over the cap`);
  return { body, rows };
}

function post(baseUrl: string, path: string, token: string | null, body: Buffer): Promise<{ status: number; json: any; ms: number }> {
  const url = new URL(path, baseUrl);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { "content-type": "application/json", "content-length": body.length };
    if (token) headers.authorization = `Bearer ${token}`;
    const req = http.request({ host: url.hostname, port: url.port, path: url.pathname, method: "POST", headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        resolve({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : null, ms: Math.round(performance.now() - started) });
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

function buildApi(): string {
  execFileSync(process.execPath, [join(REPO_ROOT, "scripts/build-app.mjs")], { cwd: join(REPO_ROOT, "apps/api"), stdio: "inherit" });
  return join(REPO_ROOT, "apps/api/dist/main.js");
}

async function startBundledApi(entry: string, env: Record<string, string>) {
  const port = await findFreePort();
  let output = "";
  const nodeOptions = (process.env.API_NODE_OPTIONS ?? "").split(" ").filter(Boolean);
  const child = spawn(process.execPath, [...nodeOptions, entry], { cwd: REPO_ROOT, env: { ...process.env, ...env, PORT: String(port) }, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout.on("data", (c) => (output += c));
  child.stderr.on("data", (c) => (output += c));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitFor(async () => (await fetch(`${baseUrl}/readyz`).catch(() => null))?.ok, { timeoutMs: 30_000, what: `api ready (${output.slice(-500)})` });
  return {
    baseUrl,
    pid: child.pid,
    output: () => output,
    async stop() {
      child.kill("SIGTERM");
      await exited;
    },
  };
}

async function runScenario(entry: string, kind: "max-rows" | "max-body") {
  const { body, rows } = buildBody(kind);
  const database = await createTestDatabase();
  const api = await startBundledApi(entry, {
    DATABASE_URL: database.url,
    QUEUE_PREFIX: uniqueQueuePrefix(),
    RATE_LIMIT_PER_MINUTE: "100000000",
    SIGNUP_LIMIT_PER_HOUR: "1000",
    LOG_LEVEL: "error",
    NODE_ENV: "production",
    ENCRYPTION_KEY: Buffer.alloc(32, 3).toString("base64"),
  });
  try {
    const tokens: string[] = [];
    for (const who of ["a", "b"]) {
      const signup = await post(api.baseUrl, "/signup", null, Buffer.from(JSON.stringify({ email: `bench-${who}@example.com` })));
      tokens.push(signup.json.api_key.plaintext);
    }
    // warm-up: one small import per account (code paths compiled, pools open)
    for (const token of tokens) {
      const warm = await post(api.baseUrl, "/contact_imports", token, Buffer.from(JSON.stringify({ contacts: [{ email: "warm@example.com" }] })));
      if (warm.status !== 201) throw new Error(`warm-up: ${warm.status} ${JSON.stringify(warm.json)}`);
    }
    const rssBeforeMb = procStatusMb(api.pid, "VmRSS");
    const hwmBeforeMb = procStatusMb(api.pid, "VmHWM");
    let sampledPeakMb = 0;
    const sampler = setInterval(() => (sampledPeakMb = Math.max(sampledPeakMb, procStatusMb(api.pid, "VmRSS") ?? 0)), 50);
    const started = performance.now();
    const results = await Promise.all(tokens.map((token) => post(api.baseUrl, "/contact_imports", token, body)));
    const wallMs = Math.round(performance.now() - started);
    clearInterval(sampler);
    const peakMb = procStatusMb(api.pid, "VmHWM");
    const expected = kind === "max-rows" ? 201 : 422;
    for (const r of results) {
      if (r.status !== expected) throw new Error(`${kind}: expected ${expected}, got ${r.status} ${JSON.stringify(r.json).slice(0, 300)}\n${api.output().slice(-2000)}`);
    }
    if (kind === "max-rows") {
      const count = await database.db.contact.count();
      if (count !== 2 * rows + 2) throw new Error(`expected ${2 * rows + 2} contacts, found ${count}`);
    }
    return {
      what: kind === "max-rows" ? "two concurrent imports of 250,000 rows each, body just under 64 MiB" : "two concurrent 64 MiB bodies of short rows (over the row cap, refused 422)",
      body_bytes: body.length,
      rows_per_body: rows,
      statuses: results.map((r) => r.status),
      ms_each: results.map((r) => r.ms),
      wall_ms: wallMs,
      counts: kind === "max-rows" ? results.map((r) => ({ imported: r.json.imported_count, duplicate: r.json.duplicate_count, invalid: r.json.invalid_count })) : undefined,
      api_rss_mb: { before_imports: rssBeforeMb, peak_before_imports: hwmBeforeMb, peak_sampled_every_50ms: sampledPeakMb, peak_vmhwm: peakMb },
    };
  } finally {
    await api.stop();
    await database.drop();
  }
}

const entry = buildApi();
const run: Record<string, unknown> = {
  date: new Date().toISOString(),
  machine: { cpus: cpus().length, memory_gb: Math.round(totalmem() / 1024 ** 3), node: process.version },
  api_node_options: process.env.API_NODE_OPTIONS ?? null,
};
for (const kind of scenarios) {
  if (kind !== "max-rows" && kind !== "max-body") throw new Error(`unknown scenario ${kind}`);
  console.log(`# ${label}: ${kind}`);
  run[kind] = await runScenario(entry, kind);
  console.log(JSON.stringify(run[kind], null, 2));
}

mkdirSync(join(REPO_ROOT, "bench/results"), { recursive: true });
const previous = existsSync(RESULT_FILE) ? JSON.parse(readFileSync(RESULT_FILE, "utf8")) : {};
const report = {
  what: "Peak RSS (VmHWM of /proc/<pid>/status) of the api process (the production bundle, NODE_ENV=production) during two concurrent maximum POST /contact_imports; one fresh process per scenario",
  ...previous,
  runs: { ...(previous.runs ?? {}), [label]: run },
};
writeFileSync(RESULT_FILE, JSON.stringify(report, null, 2) + "\n");
