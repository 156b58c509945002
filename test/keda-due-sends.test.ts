// The KEDA postgresql triggers' queries (k8s/components/keda), taken from the manifests as
// they are, run on a database seeded with 1,000,000 step_sends: each returns what it should,
// and stays cheap: indexed (no sequential scan of step_sends) and reading a bounded number of
// rows whatever the backlog. KEDA runs them every pollingInterval seconds.
//
//   node --import tsx --test test/keda-due-sends.test.ts
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseAllDocuments } from "yaml";
import { createRawPool, type RawPool } from "@outreach/db";
import { createTestDatabase, type TestDatabase } from "@outreach/testing";
import { SEND_CONCURRENCY_PER_ACCOUNT } from "../packages/core/src/limits.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const KEDA = join(ROOT, "k8s/components/keda");
const ROWS = 1_000_000;

/** The query of the ScaledObject's postgresql trigger, as the manifest has it. */
function triggerQuery(file: string): { query: string; target: number } {
  const [doc] = parseAllDocuments(readFileSync(join(KEDA, file), "utf8"));
  const so = doc!.toJS() as { kind: string; spec: { triggers: Array<{ type: string; metadata: { query: string; targetQueryValue: string } }> } };
  assert.equal(so.kind, "ScaledObject");
  const trigger = so.spec.triggers.find((t) => t.type === "postgresql");
  assert.ok(trigger, `${file}: a postgresql trigger`);
  return { query: trigger.metadata.query, target: Number(trigger.metadata.targetQueryValue) };
}

const uuid = (kind: number, a: number, b = 0) => `${kind.toString(16).padStart(8, "0")}-0000-4000-8000-${(a * 1000 + b).toString(16).padStart(12, "0")}`;
const accountId = (k: number) => uuid(1, k);
const campaignId = (k: number, j: number) => uuid(2, k, j);

// The seeded world: ACCOUNTS accounts, each with two active campaigns (0, 1) and a paused one
// (2); account 0 also has an active campaign whose resume is being re-planned (3), which the
// release skips. Per account k: due sends 3k on campaign 0 (account 19 also a backlog of
// 20,000), k % 5 on campaign 1, 500 on the paused one, k % 4 in flight; not-yet-due and sent
// sends fill the table to a million. Account 5 is suspended: its due sends are held (only its
// sends in flight count).
const ACCOUNTS = 20;
const SUSPENDED = 5;
const dueOn0 = (k: number) => 3 * k + (k === 19 ? 20_000 : 0);
const dueOn1 = (k: number) => k % 5;
const inFlight = (k: number) => k % 4;
const cap = SEND_CONCURRENCY_PER_ACCOUNT;
const EXPECTED_SLOTS = Array.from({ length: ACCOUNTS }, (_, k) =>
  k === SUSPENDED ? Math.min(cap, inFlight(k)) : Math.min(cap, Math.min(cap, dueOn0(k)) + Math.min(cap, dueOn1(k)) + inFlight(k)),
).reduce((a, b) => a + b, 0);

type Group = [account: number, campaign: number, state: string, when: "due" | "future" | "past", count: number];

function groups(): Group[] {
  const out: Group[] = [];
  for (let k = 0; k < ACCOUNTS; k++) {
    out.push([k, 0, "scheduled", "due", dueOn0(k)], [k, 1, "scheduled", "due", dueOn1(k)], [k, 2, "scheduled", "due", 500]);
    for (let i = 0; i < inFlight(k); i++) out.push([k, i % 2, i % 2 ? "sending" : "queued", "past", 1]);
    out.push([k, 0, "scheduled", "future", 2_000], [k, 1, "scheduled", "future", 2_000]);
  }
  out.push([0, 3, "scheduled", "due", 1_000]);
  const used = out.reduce((n, g) => n + g[4], 0);
  // the rest: sent, over every campaign
  const sent = ROWS - used;
  const per = Math.floor(sent / (ACCOUNTS * 3));
  for (let k = 0; k < ACCOUNTS; k++) for (let j = 0; j < 3; j++) out.push([k, j, "sent", "past", per]);
  out.push([0, 0, "sent", "past", sent - per * ACCOUNTS * 3]);
  return out.filter((g) => g[4] > 0);
}

let database: TestDatabase;
let pool: RawPool;
let seededIndexes: string[] = [];

before(async () => {
  database = await createTestDatabase();
  const seeding = createRawPool(database.url, { poolMax: 1 });
  const client = await seeding.connect();
  const started = Date.now();
  let usable: Array<{ name: string; def: string }> = [];
  try {
    // The rows need no accounts, enrollments or contacts to count: foreign keys off for this
    // session. The table is filled without its indexes and they are built after (a million
    // inserts into thirteen indexes take a minute on this machine; building them, seconds).
    // Built again are the indexes the triggers' queries could use: those whose first column or
    // whose predicate is one they constrain (state, accountId, campaignId). Leaving out the
    // others (id, messageId, credentialId, enrollmentId first) only takes plans away, so a plan
    // without a sequential scan here has none with them either.
    await client.query("SET session_replication_role = replica");
    await client.query("SET synchronous_commit = off");
    await client.query("SET maintenance_work_mem = '256MB'");
    const { rows: indexes } = await client.query<{ name: string; def: string }>(
      `SELECT indexname AS name, indexdef AS def FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'step_sends'`,
    );
    assert.ok(
      indexes.some((i) => i.name === "step_sends_due_campaign_idx"),
      "the feeder's partial index of scheduled sends",
    );
    usable = indexes.filter((i) => /\(("accountId"|"campaignId"|state)[,)]/.test(i.def) || /WHERE .*state/.test(i.def));
    await client.query("ALTER TABLE step_sends DROP CONSTRAINT step_sends_pkey");
    for (const index of indexes) if (index.name !== "step_sends_pkey") await client.query(`DROP INDEX "${index.name}"`);
    await client.query("ALTER TABLE step_sends SET UNLOGGED");
    const campaigns: string[] = [];
    for (let k = 0; k < ACCOUNTS; k++) {
      for (const [j, status] of [
        [0, "active"],
        [1, "active"],
        [2, "paused"],
      ] as const)
        campaigns.push(`('${campaignId(k, j)}', '${accountId(k)}', 'c${k}-${j}', '${status}', NULL)`);
    }
    campaigns.push(`('${campaignId(0, 3)}', '${accountId(0)}', 'c0-3', 'active', now())`);
    const { rows: plans } = await client.query<{ id: string }>("SELECT id FROM plans LIMIT 1");
    await client.query(
      `INSERT INTO accounts (id, email, "planId", "currentPeriodEnd", "updatedAt", "suspendedAt") VALUES ($1, 'suspended@example.com', $2, now() + interval '30 days', now(), now())`,
      [accountId(SUSPENDED), plans[0]!.id],
    );
    await client.query(`INSERT INTO campaigns (id, "accountId", name, status, "resumeReplanBefore", "updatedAt")
      SELECT v.id::uuid, v.account::uuid, v.name, v.status::"CampaignStatus", v.replan, now() FROM (VALUES ${campaigns.join(", ")}) AS v(id, account, name, status, replan)`);
    let start = 1;
    const values = groups()
      .map(([k, j, state, when, count]) => {
        const row = `('${accountId(k)}', '${campaignId(k, j)}', '${state}', '${when}', ${start}, ${start + count - 1})`;
        start += count;
        return row;
      })
      .join(", ");
    // One statement: sequential ids (n, each group its own range of it), dueAt by kind.
    await client.query(`INSERT INTO step_sends (id, "accountId", "campaignId", "enrollmentId", "stepPosition", state, "dueAt", "updatedAt")
      SELECT lpad(to_hex(n), 32, '0')::uuid, g.account::uuid, g.campaign::uuid, lpad(to_hex(n), 32, '0')::uuid, 1, g.state::"StepSendState",
             CASE g.due WHEN 'due' THEN now() - make_interval(secs => 1 + n % 3600)
                        WHEN 'future' THEN now() + make_interval(days => 1, secs => n % 86400)
                        ELSE now() - make_interval(days => 2, secs => n % 86400) END,
             now()
      FROM (VALUES ${values}) AS g(account, campaign, state, due, first, last)
      CROSS JOIN LATERAL generate_series(g.first, g.last) AS n`);
    for (const index of usable) await client.query(index.def);
    await client.query("RESET session_replication_role");
    await client.query("ANALYZE campaigns");
    await client.query("ANALYZE step_sends");
  } finally {
    client.release();
    await seeding.end();
  }
  console.log(`# seeded ${ROWS} step_sends in ${Date.now() - started} ms`);
  seededIndexes = usable.map((i) => i.name);
  pool = createRawPool(database.url, { poolMax: 1 });
});

after(async () => {
  await pool?.end();
  await database?.drop();
});

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  Plans?: PlanNode[];
}
function nodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)];
}
async function explain(query: string, analyze = false): Promise<PlanNode[]> {
  const { rows } = await pool.query(`EXPLAIN (FORMAT JSON${analyze ? ", ANALYZE" : ""}) ${query}`);
  return nodes(rows[0]["QUERY PLAN"][0].Plan);
}

test("the table holds a million step sends, with the indexes the queries may use", async () => {
  const { rows } = await pool.query("SELECT count(*)::int AS n FROM step_sends");
  assert.equal(rows[0].n, ROWS);
  for (const name of [
    "step_sends_due_campaign_idx",
    "step_sends_inflight_account_idx",
    "step_sends_state_dueAt_idx",
    "step_sends_accountId_state_dueAt_idx",
    "step_sends_campaignId_state_dueAt_idx",
  ]) {
    assert.ok(seededIndexes.includes(name), `${name} is built`);
  }
});

test("the sender's trigger counts the send slots wanted now: due and in-flight sends, at most SEND_CONCURRENCY_PER_ACCOUNT per account", async () => {
  const { query, target } = triggerQuery("sender-scaledobject.yaml");
  const { rows } = await pool.query(query);
  assert.equal(rows.length, 1);
  const [value] = Object.values(rows[0]);
  assert.equal(Number(value), EXPECTED_SLOTS, "paused and re-planning campaigns, a suspended account's due sends, future sends and sent ones do not count; account 19's backlog counts 10");
  assert.ok(target > 0 && target <= 50, "a replica's share is at most the 50 sends it works at once");

  // nothing due or in flight: 0, not null (KEDA needs a number)
  await pool.query("BEGIN");
  try {
    await pool.query(`UPDATE step_sends SET state = 'sent' WHERE state IN ('queued', 'sending') OR (state = 'scheduled' AND "dueAt" <= now())`);
    const empty = await pool.query(query);
    assert.equal(Number(Object.values(empty.rows[0])[0]), 0);
  } finally {
    await pool.query("ROLLBACK");
  }
});

test("the sender's trigger is indexed and bounded: no sequential scan of step_sends, at most a few rows read per active campaign", async () => {
  const { query } = triggerQuery("sender-scaledobject.yaml");
  const plan = await explain(query);
  const onSends = plan.filter((n) => n["Relation Name"] === "step_sends");
  assert.ok(onSends.length > 0, "it reads step_sends");
  assert.deepEqual(
    onSends.filter((n) => n["Node Type"] === "Seq Scan"),
    [],
    "no Seq Scan on step_sends",
  );
  assert.ok(
    onSends.every((n) => /Index/.test(n["Node Type"])),
    `index scans only: ${onSends.map((n) => `${n["Node Type"]} ${n["Index Name"] ?? ""}`).join(", ")}`,
  );

  const analyzed = await explain(query, true);
  const read = analyzed.filter((n) => n["Relation Name"] === "step_sends").reduce((sum, n) => sum + (n["Actual Rows"] ?? 0) * (n["Actual Loops"] ?? 1), 0);
  const activeCampaigns = ACCOUNTS * 2 + 1;
  const inFlightRows = Array.from({ length: ACCOUNTS }, (_, k) => inFlight(k)).reduce((a, b) => a + b, 0);
  assert.ok(read <= activeCampaigns * SEND_CONCURRENCY_PER_ACCOUNT + inFlightRows, `${read} step_sends rows read for a backlog of over 30,000 due sends`);
});

test("the IMAP poller's trigger counts the inboxes to watch, through indexes", async () => {
  const { query, target } = triggerQuery("imap-poller-scaledobject.yaml");
  assert.ok(target >= 100);
  // per campaign: 40 inboxes; with IMAP on 30 (of which 3 stopped after refused logins, 2
  // without a password, 4 backing off after a refused login: still watched soon)
  await pool.query("BEGIN");
  try {
    await pool.query(`INSERT INTO smtp_credentials (id, "accountId", "campaignId", label, "fromEmail", "smtpHost", "smtpPort", "smtpUsername", "smtpPasswordEnc", "dailyLimit",
                                                    "imapHost", "imapPort", "imapUsername", "imapPasswordEnc", "imapStoppedAt", "imapRetryAt")
      SELECT gen_random_uuid(), c."accountId", c.id, 'inbox', 'a@example.com', 'smtp.example.com', 587, 'a', 'enc', 100,
             CASE WHEN i <= 30 THEN 'imap.example.com' END, CASE WHEN i <= 30 THEN 993 END, CASE WHEN i <= 30 THEN 'a' END,
             CASE WHEN i <= 28 THEN 'enc' END, CASE WHEN i <= 3 THEN now() END, CASE WHEN i BETWEEN 4 AND 7 THEN now() + interval '1 minute' END
      FROM campaigns c CROSS JOIN generate_series(1, 40) AS i`);
    await pool.query("ANALYZE smtp_credentials");
    const { rows } = await pool.query(query);
    const activeCampaigns = ACCOUNTS * 2 + 1;
    assert.equal(Number(Object.values(rows[0])[0]), activeCampaigns * (28 - 3), "active campaigns' inboxes with IMAP host and password, not stopped");
    const plan = await explain(query);
    assert.ok(!plan.some((n) => n["Relation Name"] === "step_sends"), "never reads step_sends");
    const credentials = plan.filter((n) => n["Relation Name"] === "smtp_credentials");
    assert.ok(credentials.length > 0);
  } finally {
    await pool.query("ROLLBACK");
  }
});
