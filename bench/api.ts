// API benchmark: authenticated GET /campaigns (auth, rate limit, Postgres read,
// usage recording) beside a bare Express route, in the same run on this machine:
// first as fast as `connections` connections go (throughput, latency under
// saturation), then at a fixed `rate` requests per second over the same
// connections (latency at a steady load below saturation).
// The saturated runs alternate, bare then API, `rounds` times, and the figures
// are each one's median: other work on a shared machine comes and goes, and
// alternating spreads it over both sides.
//   node --import tsx bench/api.ts [seconds=10] [connections=50] [rate=500] [rounds=3]
// Writes bench/results/api.json.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { Agent, get as httpGet } from "node:http";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { QUOTA_NAMES, setAccountQuotas } from "@outreach/domain";
import { createTestDatabase, findFreePort, REPO_ROOT, waitFor } from "@outreach/testing";
import { startBenchApi } from "./lib/apps.js";

const seconds = Number(process.argv[2] ?? 10);
const connections = Number(process.argv[3] ?? 50);
const rate = Number(process.argv[4] ?? 500);
const rounds = Number(process.argv[5] ?? 3);

/**
 * CPU time (user + system, ms) the given processes have used so far, from
 * /proc (null elsewhere). Per request, it shows where the work goes when other
 * load on the machine makes throughput and latency noisy.
 */
function cpuMsOf(pids: number[]): number | null {
  if (!existsSync("/proc/self/stat")) return null;
  let ticks = 0;
  for (const pid of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
      ticks += Number(fields[11]) + Number(fields[12]); // utime, stime
    } catch {
      // the process has gone
    }
  }
  return ticks * 10; // USER_HZ is 100 on Linux
}

/** The PostgreSQL backends serving `databaseName` (their process titles name it). */
function postgresBackends(databaseName: string): number[] {
  if (!existsSync("/proc/self/cmdline")) return [];
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        const title = readFileSync(`/proc/${pid}/cmdline`, "utf8");
        return title.startsWith("postgres:") && title.includes(` ${databaseName} `);
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** Runs `work` and adds the CPU the server (and its PostgreSQL backends) spent per request. */
async function withCpu<T extends { requests: number }>(serverPid: number | undefined, databaseName: string | null, work: () => Promise<T>) {
  const backends = databaseName ? postgresBackends(databaseName) : [];
  const before = [cpuMsOf(serverPid ? [serverPid] : []), cpuMsOf(backends)];
  const result = await work();
  const after = [cpuMsOf(serverPid ? [serverPid] : []), cpuMsOf(backends)];
  const perRequest = (i: number) => (before[i] === null || after[i] === null || !result.requests ? null : Math.round(((after[i]! - before[i]!) / result.requests) * 1000) / 1000);
  const { requests: _requests, ...rest } = result;
  return { ...rest, server_cpu_ms_per_request: perRequest(0), ...(databaseName ? { postgres_cpu_ms_per_request: perRequest(1) } : {}) };
}

/** Saturating load: every connection sends its next request as soon as the last is answered. */
async function load(url: string, headers: Record<string, string> = {}) {
  const result = await autocannon({ url, connections, duration: seconds, headers });
  return {
    requests: result.requests.total,
    requests_per_second: Math.round(result.requests.average),
    latency_p50_ms: result.latency.p50,
    latency_p99_ms: result.latency.p99,
    non_2xx: result.non2xx,
    errors: result.errors,
  };
}

/**
 * Open-loop load at a fixed rate: one request every 1000/perSecond ms on a
 * schedule that does not wait for answers, over at most `connections` kept-alive
 * sockets. (autocannon's overallRate sends each connection's whole per-second
 * quota back to back at the start of every second, which measures bursts, not a
 * steady rate.) Latency runs from the scheduled moment to the last byte of the
 * answer, so a request that waited for a socket or for a late tick counts that wait.
 */
async function paced(url: string, headers: Record<string, string>, perSecond: number, durationS: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
  let non2xx = 0;
  let errors = 0;
  const send = (scheduledAt: number) =>
    new Promise<void>((resolve) => {
      const req = httpGet(url, { agent, headers }, (res) => {
        if (res.statusCode! < 200 || res.statusCode! > 299) non2xx++;
        res.resume();
        res.on("end", () => {
          latencies.push(performance.now() - scheduledAt);
          resolve();
        });
      });
      req.on("error", () => {
        errors++;
        resolve();
      });
    });
  const intervalMs = 1000 / perSecond;
  const total = Math.round(perSecond * durationS);
  const inFlight: Promise<void>[] = [];
  const startedAt = performance.now();
  let sent = 0;
  await new Promise<void>((done) => {
    const tick = () => {
      const now = performance.now();
      while (sent < total && startedAt + sent * intervalMs <= now) inFlight.push(send(startedAt + sent++ * intervalMs));
      if (sent < total) setTimeout(tick, 1);
      else done();
    };
    tick();
  });
  await Promise.all(inFlight);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]! * 10) / 10;
  return {
    requests: latencies.length,
    requests_per_second: Math.round(latencies.length / ((performance.now() - startedAt) / 1000)),
    latency_p50_ms: at(0.5),
    latency_p99_ms: at(0.99),
    latency_max_ms: at(1),
    non_2xx: non2xx,
    errors,
  };
}

async function loadAtRate(url: string, headers: Record<string, string> = {}) {
  return paced(url, headers, rate, seconds);
}

/** Each figure's median over the runs (a run's numbers may come from different runs). */
function medians<T extends Record<string, number | null | undefined>>(runs: T[]): T {
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;
  const keys = Object.keys(runs[0]!) as Array<keyof T>;
  return Object.fromEntries(keys.map((key) => [key, runs.some((run) => run[key] === null || run[key] === undefined) ? null : median(runs.map((run) => run[key] as number))])) as T;
}

async function warmUp(url: string, headers: Record<string, string> = {}) {
  await autocannon({ url, connections, duration: 2, headers });
}

const database = await createTestDatabase();
// API_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the API under load
const api = await startBenchApi(database.url, { env: { MAIL_ALLOW_PRIVATE_HOSTS: "true" }, nodeArgs: process.env.API_NODE_ARGS?.split(" ").filter(Boolean) });
const barePort = await findFreePort();
const bare = spawn(process.execPath, ["--import", "tsx", join(REPO_ROOT, "bench/bare-server.ts")], { env: { ...process.env, PORT: String(barePort) }, stdio: "ignore" });
try {
  const signup: any = await (await fetch(`${api.baseUrl}/signup`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: "bench@example.com" }) })).json();
  const token = signup.api_key.plaintext as string;
  const headers = { authorization: `Bearer ${token}` };
  // 20 campaigns: more than a free account may hold
  await setAccountQuotas(
    database.db,
    signup.account_id,
    QUOTA_NAMES.map((quota) => [quota, null]),
  );
  for (let i = 0; i < 20; i++) {
    const res = await fetch(`${api.baseUrl}/campaigns`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({
        campaign: {
          name: `Campaign ${i}`,
          smtp_credentials: [{ label: "a", from_email: "a@example.com", smtp_host: "127.0.0.1", smtp_port: 2525, smtp_username: "a", smtp_password: "p", daily_limit: 100 }],
          sequence_steps: [{ position: 1, subject: "Hi {{first_name}}", body_html: "<p>Hello</p>", delay_minutes: 0 }],
        },
      }),
    });
    if (res.status !== 201) throw new Error(`campaign create failed: ${res.status} ${await res.text()}`);
  }
  await waitFor(async () => (await fetch(`http://127.0.0.1:${barePort}/campaigns`)).ok, { what: "bare server" });

  const bareUrl = `http://127.0.0.1:${barePort}/campaigns`;
  const apiUrl = `${api.baseUrl}/campaigns`;
  const databaseName = new URL(database.url).pathname.slice(1);
  const loadAtStart = loadavg()[0]!;
  await warmUp(bareUrl);
  await warmUp(apiUrl, headers);
  type Measured = Awaited<ReturnType<typeof withCpu<Awaited<ReturnType<typeof load>>>>>;
  const bareRuns: Measured[] = [];
  const apiRuns: Measured[] = [];
  for (let round = 0; round < rounds; round++) {
    bareRuns.push(await withCpu(bare.pid, null, () => load(bareUrl)));
    apiRuns.push(await withCpu(api.child.pid, databaseName, () => load(apiUrl, headers)));
  }
  const bareResult = medians(bareRuns);
  const apiResult = medians(apiRuns);
  const bareFixed = await withCpu(bare.pid, null, () => loadAtRate(bareUrl));
  const apiFixed = await withCpu(api.child.pid, databaseName, () => loadAtRate(apiUrl, headers));
  const report = {
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, node: process.version },
    // other work on the machine skews every figure, CPU per request the least
    load_average_1m: { start: Math.round(loadAtStart * 100) / 100, end: Math.round(loadavg()[0]! * 100) / 100 },
    settings: { seconds, connections, fixed_rate_per_second: rate, campaigns_listed: 20, saturated_rounds: rounds },
    bare_express: bareResult,
    authenticated_get_campaigns: apiResult,
    ratio_rps: Math.round((apiResult.requests_per_second / bareResult.requests_per_second) * 1000) / 1000,
    ratio_p99: Math.round((apiResult.latency_p99_ms / Math.max(bareResult.latency_p99_ms, 1)) * 100) / 100,
    fixed_rate: { bare_express: bareFixed, authenticated_get_campaigns: apiFixed },
    saturated_rounds: { bare_express: bareRuns, authenticated_get_campaigns: apiRuns },
  };
  mkdirSync(join(REPO_ROOT, "bench/results"), { recursive: true });
  writeFileSync(join(REPO_ROOT, "bench/results/api.json"), JSON.stringify(report, null, 2) + "\n");
  console.log(JSON.stringify(report, null, 2));
} finally {
  bare.kill("SIGTERM");
  await api.stop();
  await database.drop();
}
