// `npm run demo` (scripts/demo.mjs --exit): the newcomer path runs end to end
// on a database and Redis prefix of its own, resets what an earlier run left,
// prints the API key and the reply it detected, and leaves nothing running.
// What it prints is checked against the database it used, not taken on trust.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { Redis } from "ioredis";
import { createDbClient, executor } from "@outreach/db";
import { TEST_ADMIN_URL } from "@outreach/testing";

const ROOT = join(import.meta.dirname, "..");
const suffix = `${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
const DATABASE = `outreach_demo_test_${suffix}`;
const PREFIX = `demo-test-${suffix.replace("_", "-")}`;
const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";

function databaseUrl(name: string): string {
  const url = new URL(TEST_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function onAdmin(sql: string): Promise<void> {
  const admin = createDbClient(TEST_ADMIN_URL, { poolMax: 1 });
  try {
    await executor(admin).execute(sql);
  } finally {
    await admin.$disconnect();
  }
}

async function redisKeys(redis: Redis): Promise<string[]> {
  const keys: string[] = [];
  let cursor = "0";
  do {
    const [next, found] = await redis.scan(cursor, "MATCH", `${PREFIX}:*`, "COUNT", 1000);
    cursor = next;
    keys.push(...found);
  } while (cursor !== "0");
  return keys;
}

const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
after(async () => {
  await onAdmin(`DROP DATABASE IF EXISTS "${DATABASE}" WITH (FORCE)`);
  const keys = await redisKeys(redis);
  if (keys.length) await redis.unlink(...keys);
  redis.disconnect();
  rmSync(join(tmpdir(), DATABASE), { recursive: true, force: true });
});

function runDemo(): Promise<{ code: number | string; output: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, DEMO_DATABASE: DATABASE, DEMO_QUEUE_PREFIX: PREFIX, DEMO_CATCHER: "builtin" };
  delete env.PORT;
  delete env.MAILPIT_SMTP;
  delete env.DEMO_EXIT;
  const child = spawn(process.execPath, [join(ROOT, "scripts/demo.mjs"), "--exit"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  // a demo that hangs is stopped the way a user would (SIGTERM stops everything it started)
  const timer = setTimeout(() => child.kill("SIGTERM"), 150_000);
  return new Promise((resolve) => {
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? signal ?? -1, output });
    });
  });
}

test("npm run demo is this script", () => {
  const scripts = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
  assert.equal(scripts.demo, "node scripts/demo.mjs");
});

test("npm run demo -- --exit: 3 emails sent and 1 reply detected, recorded in the demo's own database; an earlier run's data is reset", async () => {
  // what an earlier demo run leaves behind: its database and Redis keys under its prefix
  await onAdmin(`CREATE DATABASE "${DATABASE}"`);
  const leftover = createDbClient(databaseUrl(DATABASE), { poolMax: 1 });
  await executor(leftover).execute("CREATE TABLE left_by_an_earlier_run (id int)");
  await leftover.$disconnect();
  await redis.set(`${PREFIX}:left-by-an-earlier-run`, "1");

  const { code, output } = await runDemo();
  assert.equal(code, 0, output);
  assert.match(output, /reply detected/);
  const line = output.split("\n").find((l) => l.startsWith("DEMO_RESULT "));
  assert.ok(line, output);
  const result = JSON.parse(line.slice("DEMO_RESULT ".length)) as { api_base: string; api_key: string; account_id: string; campaign_id: string; database: string; queue_prefix: string };
  assert.equal(result.database, DATABASE);
  assert.equal(result.queue_prefix, PREFIX);
  assert.match(result.api_key, /^ak_live_[A-Za-z0-9_-]{43}$/);
  assert.match(output, new RegExp(`API key\\s+${result.api_key}`), "the summary shows the key");
  assert.match(output, new RegExp(`export KEY=${result.api_key}`), "and how to use it");

  // --exit left nothing running: the API it announced no longer answers
  await assert.rejects(fetch(`${result.api_base}/healthz`, { signal: AbortSignal.timeout(2000) }));

  const db = createDbClient(databaseUrl(DATABASE), { poolMax: 1 });
  try {
    const count = async (sql: string, ...params: unknown[]) => Number((await executor(db).rows<{ n: bigint }>(sql, params))[0]!.n);
    assert.equal(await count(`SELECT count(*) AS n FROM pg_tables WHERE tablename = 'left_by_an_earlier_run'`), 0, "the demo database was created afresh");
    // the key it printed is the account's real key (only its SHA-256 is stored)
    const tokenHash = createHash("sha256").update(result.api_key).digest("hex");
    assert.equal(await count(`SELECT count(*) AS n FROM api_keys WHERE "tokenHash" = $1 AND "accountId" = $2::uuid AND "revokedAt" IS NULL`, tokenHash, result.account_id), 1);
    // three first emails went out through SMTP
    assert.equal(await count(`SELECT count(*) AS n FROM step_sends WHERE "campaignId" = $1::uuid AND "stepPosition" = 1 AND state = 'sent' AND "messageId" IS NOT NULL`, result.campaign_id), 3);
    // one reply, matched to the enrollment whose first email it answers
    const replies = await executor(db).rows<{ fromEmail: string; status: string }>(
      `SELECT m."fromEmail", e.status::text AS status FROM inbound_messages m JOIN enrollments e ON e.id = m."enrollmentId" WHERE m."campaignId" = $1::uuid AND m.kind = 'reply'`,
      [result.campaign_id],
    );
    assert.deepEqual(replies, [{ fromEmail: "ada@lovelace.example", status: "replied" }]);
    // the replier's follow-up was cancelled, the two others' are still planned
    const followUps = await executor(db).rows<{ email: string; state: string }>(
      `SELECT c.email, s.state::text AS state FROM step_sends s JOIN enrollments e ON e.id = s."enrollmentId" JOIN contacts c ON c.id = e."contactId" WHERE s."campaignId" = $1::uuid AND s."stepPosition" = 2 ORDER BY c.email`,
      [result.campaign_id],
    );
    assert.deepEqual(followUps, [
      { email: "ada@lovelace.example", state: "cancelled" },
      { email: "alan@turing.example", state: "scheduled" },
      { email: "grace@hopper.example", state: "scheduled" },
    ]);
  } finally {
    await db.$disconnect();
  }
  assert.equal(await redis.get(`${PREFIX}:left-by-an-earlier-run`), null, "the demo's Redis keys were reset");
});
