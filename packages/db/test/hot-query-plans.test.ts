import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import pg from "pg";
import { applyMigrations, MIGRATIONS_DIR } from "../src/index.js";
import * as queries from "../src/queries/index.js";
import type { Executor, PrismaQueryable } from "../src/queries/index.js";
import { dropScratchDatabases, scratchDatabase } from "./support/live-schema.js";

// The plans of the hot statements (the release of due sends, a campaign's statistics,
// the retention purge, the backlog gauges, the claim of a send, a reply's match, the outbox relay's
// drain, the webhook deliveries' pick-up, the sweeps of lost sends) on tables seeded
// like a platform's (most sends finished, a few scheduled, due or in flight; events
// and deliveries mostly relayed and finished) and ANALYZEd: each must read through
// its intended index and never scan a big table whole. The statements come from the
// query functions themselves (their text is captured and EXPLAINed instead of run),
// and the release's from the function release_due_sends as the database holds it.
// The statistics are computed from every row (a sample larger than the tables), so
// the plans do not depend on a random sample.

/** Tables that grow with every send: none may be read by a sequential scan. */
const BIG_TABLES = ["step_sends", "enrollments", "contacts", "events", "webhook_deliveries", "webhook_attempts", "request_logs", "idempotency_records", "enrollment_skips"];

const ACCOUNTS = 20;
const CAMPAIGNS = 200;
/** enrollments per campaign (3 step sends each): 60,000 step sends */
const PER_CAMPAIGN = 100;
/** events (and request logs) over the last 30 days and an hour (the hour past a 30-day retention: what a purge every minute leaves at most); a delivery for each of every other account */
const EVENTS = 60_000;
const NOW = new Date("2026-06-01T12:00:00Z");
const id = (kind: string, n: number | string) => `md5('${kind}' || ${n})::uuid`;

let client: pg.Client;
/** account 0, campaign 20 (active, of account 0) */
let accountId: string;
let campaignId: string;

before(async () => {
  const { url } = await scratchDatabase("plan");
  await applyMigrations(url, MIGRATIONS_DIR);
  client = new pg.Client({ connectionString: url });
  await client.connect();
  await seed();
  ({ accountId, campaignId } = (await client.query<{ accountId: string; campaignId: string }>(`SELECT ${id("a", 0)}::text AS "accountId", ${id("k", 20)}::text AS "campaignId"`)).rows[0]!);
});

after(async () => {
  await client?.end();
  await dropScratchDatabases();
});

/**
 * Enrollment g (1..CAMPAIGNS x PER_CAMPAIGN) of campaign k = 1 + (g - 1) / PER_CAMPAIGN, of account k % ACCOUNTS;
 * campaigns k % 10 < 7 active, else paused. Step p (1..3) due g minutes + 3(p-1) days before NOW - 180 days
 * + g * 4 minutes: past steps sent (2% bounced, 1% failed, 4% skipped, later steps cancelled after a bounce),
 * steps due within the last two hours scheduled (1 in 50 queued, 1 in 50 sending), later ones scheduled.
 * Events: one per enrollment over the last 40 days (those of the last minute not yet relayed); one
 * finished delivery and its attempt per event of an even account (1 in 7 of the last hour's pending).
 */
async function seed(): Promise<void> {
  const enrollments = CAMPAIGNS * PER_CAMPAIGN;
  const acct = `${id("a", "(k % " + ACCOUNTS + ")")}`;
  // enrollments round-robin over the campaigns, one every 13.7 minutes over the last 190 days
  const facts = `CROSS JOIN LATERAL (SELECT 1 + (g - 1) % ${CAMPAIGNS} AS k, $1::timestamptz - interval '190 days' + g * interval '822 seconds' AS t1) f`;
  const sql = [
    `INSERT INTO plans (slug, name, tier, "monthlyLimit", "createdAt") VALUES ('scale', 'Scale', 3, 1000000, $1::timestamptz)`,
    `INSERT INTO accounts (id, email, "planId", "currentPeriodEnd", "updatedAt")
     SELECT ${id("a", "i")}, 'plans-' || i || '@example.com', (SELECT id FROM plans), $1::timestamptz, $1::timestamptz FROM generate_series(0, ${ACCOUNTS - 1}) i`,
    `INSERT INTO webhooks (id, "accountId", url, "secretEnc", "updatedAt")
     SELECT ${id("w", "i")}, ${id("a", "i")}, 'https://hooks.example.com/' || i, 'unused', $1::timestamptz FROM generate_series(0, ${ACCOUNTS - 1}) i WHERE i % 2 = 0`,
    `INSERT INTO campaigns (id, "accountId", name, status, "updatedAt")
     SELECT ${id("k", "k")}, ${acct}, 'campaign ' || k, (CASE WHEN k % 10 < 7 THEN 'active' ELSE 'paused' END)::"CampaignStatus", $1::timestamptz
     FROM generate_series(1, ${CAMPAIGNS}) k`,
    `INSERT INTO smtp_credentials (id, "accountId", "campaignId", label, "fromEmail", "smtpHost", "smtpPort", "smtpUsername", "smtpPasswordEnc", "dailyLimit")
     SELECT ${id("cr", "k")}, ${acct}, ${id("k", "k")}, 'inbox ' || k, 'inbox' || k || '@example.com', '127.0.0.1', 25, 'inbox' || k, 'unused', 500
     FROM generate_series(1, ${CAMPAIGNS}) k`,
    `INSERT INTO contacts (id, "accountId", email, "updatedAt")
     SELECT ${id("c", "g")}, ${acct}, 'c' || g || '@example.com', f.t1 FROM generate_series(1, ${enrollments}) g ${facts}`,
    `INSERT INTO enrollments (id, "accountId", "campaignId", "contactId", "credentialId", status, "sentAt", "bouncedAt", "createdAt", "updatedAt")
     SELECT ${id("e", "g")}, ${acct}, ${id("k", "k")}, ${id("c", "g")}, ${id("cr", "k")},
       (CASE WHEN f.t1 > $1::timestamptz - interval '12 hours' THEN 'pending' WHEN g % 50 = 0 THEN 'bounced' ELSE 'sent' END)::"EnrollmentStatus",
       CASE WHEN f.t1 <= $1::timestamptz - interval '12 hours' THEN f.t1 END,
       CASE WHEN f.t1 <= $1::timestamptz - interval '12 hours' AND g % 50 = 0 THEN f.t1 END, f.t1, f.t1
     FROM generate_series(1, ${enrollments}) g ${facts}`,
    `INSERT INTO enrollment_skips ("accountId", "campaignId", "contactId", kind, reason, "createdAt")
     SELECT ${acct}, ${id("k", "k")}, ${id("c", "g")}, 'blocklisted', 'on the blocklist', f.t1 FROM generate_series(1, ${enrollments}) g ${facts} WHERE g % 40 = 0`,
    `INSERT INTO step_sends (id, "accountId", "campaignId", "enrollmentId", "stepPosition", "credentialId", state, "dueAt", "messageId", "claimedAt", "claimedBy",
       "sentAt", outcome, "lastError", "updatedAt", "createdAt")
     SELECT ${id("s", "g || '.' || p")}, ${acct}, ${id("k", "k")}, ${id("e", "g")}, p, ${id("cr", "k")}, st::"StepSendState", due,
       CASE WHEN st IN ('sent', 'bounced') THEN '<' || g || '.' || p || '@example.com>' END,
       CASE WHEN st IN ('sent', 'bounced', 'failed', 'sending') THEN due END, CASE WHEN st IN ('sent', 'bounced', 'failed', 'sending') THEN 'sender-1' END,
       CASE WHEN st IN ('sent', 'bounced') THEN due END, (CASE WHEN st = 'sent' THEN 'accepted' END)::"DeliveryOutcome",
       CASE WHEN st = 'failed' THEN 'SMTP 550' END, CASE WHEN st IN ('queued', 'sending') THEN $1::timestamptz - interval '1 minute' ELSE due END, f.t1
     FROM generate_series(1, ${enrollments}) g ${facts} CROSS JOIN generate_series(1, 3) p
     CROSS JOIN LATERAL (SELECT f.t1 + (p - 1) * interval '3 days' AS due) d
     CROSS JOIN LATERAL (SELECT CASE
       WHEN p > 1 AND g % 50 = 0 AND f.t1 <= $1::timestamptz - interval '12 hours' THEN 'cancelled'
       WHEN due > $1::timestamptz - interval '12 hours' THEN
         CASE WHEN due <= $1::timestamptz AND g % 10 = 1 THEN 'queued' WHEN due <= $1::timestamptz AND g % 10 = 2 THEN 'sending' ELSE 'scheduled' END
       WHEN p = 1 AND g % 50 = 0 THEN 'bounced' WHEN p = 1 AND g % 100 = 3 THEN 'failed' WHEN p = 2 AND g % 25 = 4 THEN 'skipped'
       ELSE 'sent' END AS st) s`,
    `INSERT INTO events (id, "accountId", type, data, "createdAt", "dispatchedAt")
     SELECT ${id("ev", "e")}, ${id("a", "(e % " + ACCOUNTS + ")")}, 'email.sent', '{}'::jsonb, at, CASE WHEN at < $1::timestamptz - interval '1 minute' THEN at + interval '1 second' END
     FROM generate_series(1, ${EVENTS}) e CROSS JOIN LATERAL (SELECT $1::timestamptz - (e * 173 % (30 * 86400 + 3600)) * interval '1 second' AS at) a`,
    `INSERT INTO webhook_deliveries (id, "accountId", "webhookId", "eventId", "eventType", state, attempts, "nextAttemptAt", "createdAt", "completedAt")
     SELECT ${id("d", "e")}, ${id("a", "(e % " + ACCOUNTS + ")")}, ${id("w", "(e % " + ACCOUNTS + ")")}, ${id("ev", "e")}, 'email.sent', st::"DeliveryState", 1,
       CASE WHEN st = 'pending' THEN at + interval '5 minutes' END, at, CASE WHEN st <> 'pending' THEN at + interval '2 seconds' END
     FROM generate_series(1, ${EVENTS}) e CROSS JOIN LATERAL (SELECT $1::timestamptz - (e * 173 % (30 * 86400 + 3600)) * interval '1 second' AS at) a
     CROSS JOIN LATERAL (SELECT CASE WHEN at > $1::timestamptz - interval '1 hour' AND e % 7 = 0 THEN 'pending' ELSE 'succeeded' END AS st) s
     WHERE e % ${ACCOUNTS} % 2 = 0 AND at < $1::timestamptz - interval '1 minute'`,
    `INSERT INTO webhook_attempts (id, "deliveryId", number, "statusCode", "durationMs", "createdAt")
     SELECT gen_random_uuid(), d.id, 1, 200, 40, d."createdAt" FROM webhook_deliveries d WHERE $1::timestamptz IS NOT NULL`,
    `INSERT INTO api_keys (id, "accountId", label, prefix, "tokenHash")
     SELECT ${id("key", "i")}, ${id("a", "i")}, 'key', 'ok_' || i, md5('token' || i) FROM generate_series(0, ${ACCOUNTS - 1}) i WHERE $1::timestamptz IS NOT NULL`,
    `INSERT INTO request_logs ("accountId", "apiKeyId", "clientKind", method, route, status, "durationMs", "createdAt")
     SELECT ${id("a", "(e % " + ACCOUNTS + ")")}, ${id("key", "(e % " + ACCOUNTS + ")")}, 'direct', 'GET', '/campaigns', 200, 5, $1::timestamptz - (e * 173 % (30 * 86400 + 3600)) * interval '1 second'
     FROM generate_series(1, ${EVENTS}) e`,
    `INSERT INTO idempotency_records ("accountId", key, method, path, "requestHash", "expiresAt", "createdAt")
     SELECT ${id("a", "(g % " + ACCOUNTS + ")")}, 'key-' || g, 'POST', '/contacts', 'h', $1::timestamptz - (g * 7 % 86400) * interval '1 second' + interval '1 day', $1::timestamptz - (g * 7 % 86400) * interval '1 second'
     FROM generate_series(1, ${enrollments}) g`,
  ];
  for (const text of sql) await client.query(text, text.includes("$1") ? [NOW] : []);
  // statistics from every row: the plans do not depend on ANALYZE's random sample
  await client.query(`SET default_statistics_target = 1000`);
  await client.query(`VACUUM ANALYZE`);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Plan = any;

/** An executor that EXPLAINs every statement sent through it instead of running it (no rows, nothing changed). */
function explaining(): { ex: Executor; plans: Plan[] } {
  const plans: Plan[] = [];
  const explain = async (text: string, params: readonly unknown[] = []) => {
    const { rows } = await client.query(`EXPLAIN (FORMAT JSON) ${text}`, [...params]);
    plans.push(rows[0]["QUERY PLAN"][0].Plan);
    return [];
  };
  const ex: Executor = {
    rows: async <T>(text: string, params: readonly unknown[] = []) => (await explain(text, params)) as T[],
    values: async <T>(text: string, params: readonly unknown[] = []) => (await explain(text, params)) as T[],
    execute: async (text: string, params: readonly unknown[] = []) => (await explain(text, params), 0),
  };
  return { ex, plans };
}

/** The executor as a Prisma client without a pool, for the functions that take one (fromDb goes through it). */
function asPrisma(ex: Executor): PrismaQueryable {
  return {
    $queryRawUnsafe: ((text: string, ...params: unknown[]) => ex.rows(text, params)) as never,
    $executeRawUnsafe: ((text: string, ...params: unknown[]) => ex.execute(text, params)) as never,
  };
}

/** Every scan of a plan tree (subplans and CTEs included): node type, table, index. */
function scans(plan: Plan): Array<{ node: string; table?: string; index?: string }> {
  const found: Array<{ node: string; table?: string; index?: string }> = [];
  const walk = (node: Plan) => {
    if (/Scan/.test(node["Node Type"])) found.push({ node: node["Node Type"], table: node["Relation Name"], index: node["Index Name"] });
    for (const child of node.Plans ?? []) walk(child);
  };
  walk(plan);
  return found;
}

/** The plans of what `run` sends: the indexes they read and the tables they scan whole. */
async function plansOf(run: (ex: Executor) => Promise<unknown>): Promise<{ indexes: Set<string>; seqScans: string[]; all: string }> {
  const { ex, plans } = explaining();
  await run(ex);
  assert.ok(plans.length > 0, "no statement was sent");
  const all = plans.flatMap(scans);
  return {
    indexes: new Set(all.map((s) => s.index).filter((i): i is string => Boolean(i))),
    seqScans: all.filter((s) => s.node === "Seq Scan" && s.table && BIG_TABLES.includes(s.table)).map((s) => s.table!),
    all: all.map((s) => `${s.node} ${s.table ?? ""} ${s.index ?? ""}`.trim()).join("; "),
  };
}

/** The statement of release_due_sends (its RETURN QUERY) as the database holds it, its parameters numbered. */
async function releaseStatement(): Promise<string> {
  const { rows } = await client.query<{ src: string }>(`SELECT prosrc AS src FROM pg_proc WHERE proname = 'release_due_sends'`);
  assert.equal(rows.length, 1);
  const body = rows[0]!.src;
  const statement = body.slice(body.indexOf("RETURN QUERY") + "RETURN QUERY".length, body.lastIndexOf(";"));
  const params: Array<[string, string]> = [
    ["p_account", "$1::uuid"],
    ["p_now", "$2::timestamptz"],
    ["p_limit", "$3::int"],
    ["p_prefer", "$4::uuid"],
    ["p_window", "$5::int"],
  ];
  return params.reduce((text, [param, placeholder]) => text.replace(new RegExp(`\\b${param}\\b`, "g"), placeholder), statement);
}

interface Case {
  name: string;
  run: (ex: Executor) => Promise<unknown>;
  /** indexes the plan must read (a list: any one of them) */
  uses: Array<string | string[]>;
}

const later = new Date(NOW.getTime() + 60_000);
/** rows per retention batch, as the purge deletes them */
const PURGE_BATCH = 5000;
const RETENTION_CUTOFF = new Date(NOW.getTime() - 30 * 86_400_000);
const cases = (): Case[] => [
  {
    name: "release of an account's due sends (release_due_sends)",
    run: async (ex) => ex.rows(await releaseStatement(), [accountId, NOW, 10, null, 50]),
    uses: ["step_sends_inflight_account_idx", "step_sends_due_campaign_idx", "step_sends_enrollmentId_stepPosition_key", "step_sends_pkey"],
  },
  {
    name: "the feeder's skip scan of (account, campaign) pairs with due sends",
    run: (ex) => queries.scanDueCampaignPairs(ex, NOW, { accountId: "00000000-0000-0000-0000-000000000000", campaignId: "00000000-0000-0000-0000-000000000000" }, 5000, 1000),
    uses: ["step_sends_due_campaign_idx"],
  },
  {
    name: "campaign stats: sends per inbox",
    run: (ex) => queries.stepSendCredentialStats(ex, campaignId, NOW, later),
    // the totals from the campaign's count rows; today's from the day's range
    uses: ["step_sends_campaign_sent_day_idx"],
  },
  {
    name: "campaign stats: A/B variants",
    run: (ex) => queries.variantSendStats(ex, campaignId),
    uses: [["step_sends_campaignId_state_dueAt_idx", "step_sends_campaign_sent_day_idx", "step_sends_delivered_idx"]],
  },
  {
    name: "campaign stats: recent failures",
    run: (ex) => queries.recentFailedSends(ex, campaignId, 10),
    uses: ["step_sends_recent_failures_idx", "enrollments_pkey", "contacts_pkey"],
  },
  {
    name: "campaign stats: enrollments per batch",
    run: (ex) => queries.enrollmentBatchStats(ex, campaignId),
    // the campaign's count rows (a small table): no enrollment read at all
    uses: [],
  },
  {
    name: "campaign stats: recent bounces",
    run: (ex) => queries.recentBouncedEnrollments(ex, campaignId, 10),
    uses: ["enrollments_recent_bounces_idx", "contacts_pkey"],
  },
  {
    name: "campaign stats: skips",
    run: (ex) => queries.enrollmentSkipCounts(ex, campaignId),
    uses: ["enrollment_skips_campaignId_kind_createdAt_idx"],
  },
  {
    name: "retention: finished webhook deliveries",
    run: (ex) => queries.deleteFinishedDeliveries(ex, RETENTION_CUTOFF, PURGE_BATCH),
    uses: ["webhook_deliveries_completedAt_idx"],
  },
  {
    name: "retention: relayed events",
    run: (ex) => queries.deleteRelayedEvents(ex, RETENTION_CUTOFF, PURGE_BATCH),
    uses: ["events_dispatchedAt_createdAt_idx", "webhook_deliveries_eventId_idx"],
  },
  {
    name: "retention: request logs",
    run: (ex) => queries.deleteOldRequestLogs(ex, RETENTION_CUTOFF, PURGE_BATCH),
    uses: ["request_logs_createdAt_idx"],
  },
  {
    name: "retention: idempotency records",
    run: (ex) => queries.deleteExpiredIdempotencyRecords(ex, later, PURGE_BATCH),
    uses: ["idempotency_records_expiresAt_idx"],
  },
  {
    name: "backlog gauge: open step sends by state",
    run: (ex) => queries.countOpenStepSendsByState(ex),
    uses: ["step_sends_state_dueAt_idx"],
  },
  {
    name: "backlog gauge: schedule lag",
    run: (ex) => queries.oldestDueReleasableSend(ex, NOW),
    uses: ["step_sends_due_campaign_idx"],
  },
  {
    name: "backlog gauge: webhook backlog",
    run: (ex) => queries.countWebhookBacklog(ex, NOW),
    uses: ["events_undispatched_idx", "webhook_deliveries_pending_idx"],
  },
  {
    name: "claim of sends (claim_and_load_sends)",
    run: (ex) => queries.claimSendContexts(asPrisma(ex), ["00000000-0000-4000-8000-000000000001"], "sender-1", NOW),
    uses: [["step_sends_pkey", "step_sends_inflight_account_idx", "step_sends_inflight_idx"]],
  },
  {
    name: "lost-release sweep: sends queued long ago",
    run: (ex) => queries.queuedSendsReleasedBefore(ex, new Date(NOW.getTime() - 15 * 60_000), 500),
    uses: [["step_sends_inflight_idx", "step_sends_state_dueAt_idx"]],
  },
  {
    name: "interrupted-send sweep: sends left in sending",
    run: (ex) => queries.failSendingSendsOf(ex, "interrupted", NOW, new Date(NOW.getTime() - 10 * 60_000), ["sender-2"]),
    uses: [["step_sends_inflight_idx", "step_sends_inflight_account_idx", "step_sends_state_dueAt_idx"]],
  },
  {
    name: "reply matching: the step a reply cites, by Message-ID or by the send id in it",
    run: (ex) => queries.findStepByMessageIds(ex, accountId, ["<1.1@example.com>", "<reply@mail.example>"], ["00000000-0000-4000-8000-000000000001"]),
    uses: ["step_sends_messageId_key", "step_sends_pkey"],
  },
  {
    name: "outbox relay: events to relay",
    run: (ex) => queries.lockEventsToRelay(ex, 500),
    uses: ["events_undispatched_idx"],
  },
  {
    name: "webhook pick-up: an account's due deliveries",
    run: (ex) => queries.holdDueDeliveries(ex, accountId, 10, later, NOW),
    uses: ["webhook_deliveries_pending_idx"],
  },
  {
    name: "webhook pick-up: accounts with due deliveries",
    run: (ex) => queries.leaseAccountsWithDueDeliveries(ex, { holder: "deliverer-1", until: later, limit: 50, exclude: [], from: "00000000-0000-0000-0000-000000000000", before: null }, NOW),
    uses: ["webhook_deliveries_pending_idx"],
  },
];

test("the seeded tables look like a platform's: most sends finished, some scheduled, due or in flight", async () => {
  const { rows } = await client.query<{ state: string; n: number }>(`SELECT state::text AS state, count(*)::int AS n FROM step_sends GROUP BY 1`);
  const by = Object.fromEntries(rows.map((r) => [r.state, r.n]));
  const total = rows.reduce((sum, r) => sum + r.n, 0);
  assert.equal(total, CAMPAIGNS * PER_CAMPAIGN * 3);
  assert.ok(by.sent! > total * 0.8, JSON.stringify(by));
  for (const state of ["scheduled", "queued", "sending", "bounced", "failed", "skipped", "cancelled"]) assert.ok((by[state] ?? 0) > 0, `no ${state} send: ${JSON.stringify(by)}`);
  const due = await client.query(`SELECT 1 FROM step_sends WHERE "accountId" = $1 AND state = 'scheduled' AND "dueAt" <= $2 LIMIT 1`, [accountId, NOW]);
  assert.equal(due.rowCount, 1, "account 0 has due sends");
});

for (const index of cases().keys()) {
  const c = cases()[index]!;
  const named = c.uses.map((u) => (Array.isArray(u) ? u.join(" or ") : u)).join(", ");
  test(`plan of ${c.name}: reads ${named}, no sequential scan of a big table`, async () => {
    const plan = await plansOf(c.run);
    for (const use of c.uses) {
      const anyOf = Array.isArray(use) ? use : [use];
      assert.ok(
        anyOf.some((name) => plan.indexes.has(name)),
        `${c.name} does not read ${anyOf.join(" or ")}: ${plan.all}`,
      );
    }
    assert.deepEqual(plan.seqScans, [], `${c.name} scans whole tables: ${plan.all}`);
  });
}
