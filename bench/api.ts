// API benchmark: authenticated GET /campaigns (auth, rate limit, Postgres read,
// usage recording) beside a bare Express route, in the same run on this machine.
//   node --import tsx bench/api.ts [seconds=10] [connections=50]
// Writes bench/results/api.json.
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import autocannon from "autocannon";
import { createTestDatabase, findFreePort, REPO_ROOT, startAppProcess, uniqueQueuePrefix, waitFor } from "@outreach/testing";

const seconds = Number(process.argv[2] ?? 10);
const connections = Number(process.argv[3] ?? 50);

async function load(url: string, headers: Record<string, string> = {}) {
  await autocannon({ url, connections, duration: 2, headers }); // warm-up
  const result = await autocannon({ url, connections, duration: seconds, headers });
  return {
    requests_per_second: Math.round(result.requests.average),
    latency_p50_ms: result.latency.p50,
    latency_p99_ms: result.latency.p99,
    non_2xx: result.non2xx,
    errors: result.errors,
  };
}

const database = await createTestDatabase();
const api = await startAppProcess("api", {
  // API_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the API under load
  nodeArgs: process.env.API_NODE_ARGS?.split(" ").filter(Boolean),
  env: { DATABASE_URL: database.url, QUEUE_PREFIX: uniqueQueuePrefix(), RATE_LIMIT_PER_MINUTE: "100000000", LOG_LEVEL: "error", NODE_ENV: "production", ENCRYPTION_KEY: Buffer.alloc(32, 3).toString("base64") },
});
const barePort = await findFreePort();
const bare = spawn(process.execPath, ["--import", "tsx", join(REPO_ROOT, "bench/bare-server.ts")], { env: { ...process.env, PORT: String(barePort) }, stdio: "ignore" });
try {
  const signup: any = await (await fetch(`${api.baseUrl}/signup`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: "bench@example.com" }) })).json();
  const token = signup.api_key.plaintext as string;
  const headers = { authorization: `Bearer ${token}` };
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

  const bareResult = await load(`http://127.0.0.1:${barePort}/campaigns`);
  const apiResult = await load(`${api.baseUrl}/campaigns`, headers);
  const report = {
    date: new Date().toISOString(),
    machine: { cpus: (await import("node:os")).cpus().length, node: process.version },
    settings: { seconds, connections, campaigns_listed: 20 },
    bare_express: bareResult,
    authenticated_get_campaigns: apiResult,
    ratio_rps: Math.round((apiResult.requests_per_second / bareResult.requests_per_second) * 1000) / 1000,
    ratio_p99: Math.round((apiResult.latency_p99_ms / Math.max(bareResult.latency_p99_ms, 1)) * 100) / 100,
  };
  mkdirSync(join(REPO_ROOT, "bench/results"), { recursive: true });
  writeFileSync(join(REPO_ROOT, "bench/results/api.json"), JSON.stringify(report, null, 2) + "\n");
  console.log(JSON.stringify(report, null, 2));
} finally {
  bare.kill("SIGTERM");
  await api.stop();
  await database.drop();
}
