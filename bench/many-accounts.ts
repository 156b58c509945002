// Many-accounts benchmark: 2,000 accounts, each with one active campaign, one inbox
// and 5 sends due now. How long until every account has its first message at the
// sink (p50, p99, max; target p99 <= 5 s), and until all 10,000 are sent.
//   node --import tsx bench/many-accounts.ts [accounts=2000] [sends_per_account=5] [senders=1,2] [mode=scheduled]
// Every account's inbox points at the instant sink with its own AUTH username, so
// each arrival is attributed to its account. Everything is seeded with bulk SQL
// (a few statements whatever the count) into a fresh database per sender count.
// Modes:
//   scheduled  the sends are seeded as the planner leaves them (enrollments dispatched,
//              step-1 step_sends "scheduled" on the account's inbox, today's limit day)
//              but due tomorrow; once the dispatcher and sender(s) are ready, one UPDATE
//              makes all 10,000 due now. Time 0 is just before that UPDATE. This
//              measures release and sending alone.
//   dispatch   the enrollments are seeded pending; time 0 is just before one addBulk of
//              a campaign-dispatch job per account (jitter 0), so planning is included.
// One dispatcher and `senders` sender processes; daily_limit 1,000 per inbox.
// Also: duplicates (must be 0), SMTP sessions opened, per-send cost (bench/lib/send-cost.ts).
// Writes bench/results/many-accounts.json.
import { createTestDatabase, uniqueQueuePrefix, sealCredentialPasswordsInPlace } from "@outreach/testing";
import { Keyring } from "@outreach/core";
import { executor, type Db } from "@outreach/db";
import { EngineApps } from "./lib/apps.js";
import { CpuMeter } from "./lib/cpu.js";
import { maxOf, round } from "./lib/numbers.js";
import { dispatchClient, dropQueuePrefix } from "./lib/queues.js";
import { log, machineInfo, writeResult } from "./lib/results.js";
import { analyze } from "./lib/seeding.js";
import { argNumber, ENCRYPTION_KEY } from "./lib/settings.js";
import { startInstantSink, type Sink } from "./lib/smtp-sinks.js";
import { BENCH_TAG, startSendCost, trackStatements } from "./lib/send-cost.js";

const accounts = argNumber(0, 2_000);
const perAccount = argNumber(1, 5);
const senderCounts = (process.argv[4] || "1,2")
  .split(",")
  .map(Number)
  .filter((n) => n > 0);
const mode = process.argv[5] || "scheduled";
if (mode !== "scheduled" && mode !== "dispatch") throw new Error(`mode must be scheduled or dispatch, got ${mode}`);
const TIMEOUT_MS = Number(process.env.BENCH_TIMEOUT_MS ?? 600_000);
const TARGET_P99_MS = 5_000;
const DAILY_LIMIT = 1_000;

const usernameOf = (g: number) => `ma-${g}-inbox`;

/** accounts, campaigns, steps, inboxes, contacts and enrollments (and in scheduled mode the step-1 sends, due tomorrow) */
async function seed(db: Db, sink: Sink): Promise<Array<{ accountId: string; campaignId: string }>> {
  await executor(db).execute(
    `INSERT INTO accounts (email, "planId", "currentPeriodStart", "currentPeriodEnd", "updatedAt")
     SELECT 'ma-' || g || '@bench.example', (SELECT id FROM plans WHERE slug = 'scale'), now(), now() + interval '30 days', now()
     FROM generate_series(1, $1::int) AS g`,
    [accounts],
  );
  await executor(db).execute(
    `INSERT INTO campaigns ("accountId", name, status, "minWaitSeconds", "maxWaitSeconds", "updatedAt")
     SELECT id, 'bench ' || email, 'active', 0, 0, now() FROM accounts WHERE email LIKE 'ma-%@bench.example'`,
  );
  await executor(db).execute(
    `INSERT INTO sequence_steps ("campaignId", position, subject, "bodyHtml", "delayMinutes")
     SELECT id, 1, 'Quick question, {{first_name}}', '<p>Hi {{first_name}},</p><p>I noticed {{company}} is hiring. Worth a short call next week?</p><p>Best,<br>Bench</p>', 0 FROM campaigns`,
  );
  // the account number g is in the account's email: ma-<g>@bench.example
  await executor(db).execute(
    `INSERT INTO smtp_credentials ("accountId", "campaignId", label, "fromEmail", "smtpHost", "smtpPort", "smtpSecure", "smtpUsername", "smtpPasswordEnc", "dailyLimit", "createdAt")
     SELECT c."accountId", c.id, u, u || '@sender.example', $1, $2, false, u, $3, $4, now()
     FROM campaigns c JOIN accounts a ON a.id = c."accountId", LATERAL (SELECT split_part(a.email, '@', 1) || '-inbox' AS u) n`,
    [sink.host, sink.port, "sealed below", DAILY_LIMIT],
  );
  const credentialIds = (await executor(db).rows<{ id: string }>(`SELECT id FROM smtp_credentials`)).map((r) => r.id);
  await sealCredentialPasswordsInPlace(db, new Keyring(ENCRYPTION_KEY), credentialIds, "secret");
  await executor(db).execute(
    `INSERT INTO contacts ("accountId", email, "firstName", "lastName", company, "createdAt", "updatedAt")
     SELECT a.id, split_part(a.email, '@', 1) || '-' || k || '@example' || k || '.com', 'First' || k, 'Last' || k, 'Company ' || k, now(), now()
     FROM accounts a CROSS JOIN generate_series(1, $1::int) AS k WHERE a.email LIKE 'ma-%@bench.example'`,
    [perAccount],
  );
  if (mode === "dispatch") {
    await executor(db).execute(
      `INSERT INTO enrollments ("accountId", "campaignId", "contactId", "batchNumber", "createdAt", "updatedAt")
       SELECT c."accountId", c.id, t.id, 1, now(), now() FROM campaigns c JOIN contacts t ON t."accountId" = c."accountId"`,
    );
  } else {
    // as scheduleEnrollments leaves them: dispatched on the inbox, step 1 booked on today's limit day
    await executor(db).execute(
      `INSERT INTO enrollments ("accountId", "campaignId", "contactId", "batchNumber", "credentialId", "dispatchedAt", "createdAt", "updatedAt")
       SELECT c."accountId", c.id, t.id, 1, s.id, now(), now(), now()
       FROM campaigns c JOIN contacts t ON t."accountId" = c."accountId" JOIN smtp_credentials s ON s."campaignId" = c.id`,
    );
    await executor(db).execute(
      `INSERT INTO step_sends ("accountId", "campaignId", "enrollmentId", "stepPosition", "credentialId", "dueAt", "limitDay", state, "updatedAt")
       SELECT e."accountId", e."campaignId", e.id, 1, e."credentialId", now() + interval '1 day', (now() AT TIME ZONE 'UTC')::date, 'scheduled', now()
       FROM enrollments e`,
    );
  }
  return executor(db).rows(`${BENCH_TAG} SELECT "accountId", id AS "campaignId" FROM campaigns`);
}

function quantile(sorted: number[], q: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}

async function run(sink: Sink, senders: number) {
  const total = accounts * perAccount;
  const database = await createTestDatabase();
  const prefix = uniqueQueuePrefix();
  const apps = new EngineApps();
  const client = await dispatchClient(prefix);
  try {
    const seedStarted = performance.now();
    const campaigns = await seed(database.db, sink);
    await analyze(database.db);
    await trackStatements(database.db, database.name);
    const seedMs = Math.round(performance.now() - seedStarted);
    const processes = await apps.start(database.url, prefix, senders);
    const cpu = new CpuMeter(processes, database.name);
    const cost = await startSendCost(database, processes);
    sink.reset();
    log(`${mode}: ${accounts} accounts x ${perAccount} sends, ${senders} sender(s)`);

    cpu.begin();
    const startedAt = Date.now();
    if (mode === "scheduled") {
      await executor(database.db).execute(`UPDATE step_sends SET "dueAt" = now() WHERE state = 'scheduled'`);
    } else {
      await client.queue.addBulk(campaigns.map((c, i) => ({ name: "campaign-dispatch", data: { ...c, batchNumber: 1 }, opts: { jobId: `bench_${i}_1` } })));
    }
    const startCommittedMs = Date.now() - startedAt;
    const progress = setInterval(() => log(`  ${sink.count} / ${total} received, ${sink.firstByUser.size} / ${accounts} accounts reached`), 10_000);
    try {
      await sink.waitForCount(total, TIMEOUT_MS);
    } finally {
      clearInterval(progress);
    }
    const cpuUse = cpu.end();
    const lastAt = maxOf(sink.times);
    for (;;) {
      const [row] = await executor(database.db).rows<{ sent: number }>(`${BENCH_TAG} SELECT count(*)::int AS sent FROM step_sends WHERE state = 'sent'`);
      if ((row?.sent ?? 0) >= total || Date.now() - lastAt > 30_000) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    cost.markCpu();
    const firsts = [...Array(accounts).keys()].map((i) => sink.firstByUser.get(usernameOf(i + 1)));
    const missing = firsts.filter((t) => t === undefined).length;
    const latencies = firsts
      .filter((t): t is number => t !== undefined)
      .map((t) => t - startedAt)
      .sort((a, b) => a - b);
    const perInboxSessions = [...sink.sessionsByUser.values()];
    const snapshot = {
      received: sink.count,
      duplicates: sink.duplicates,
      sessions: sink.sessions,
      maxOpen: sink.maxOpenSessions,
      sessionsPerInboxMax: perInboxSessions.length ? Math.max(...perInboxSessions) : 0,
      sessionsPerInboxMean: perInboxSessions.length ? round(perInboxSessions.reduce((a, b) => a + b, 0) / perInboxSessions.length, 2) : 0,
      mostPerUser: Math.max(0, ...sink.byUser.values()),
    };
    await apps.stop();
    const perSend = await cost.finish(total);
    const states = await executor(database.db).rows<{ state: string; n: number }>(`${BENCH_TAG} SELECT state::text, count(*)::int AS n FROM step_sends GROUP BY 1`);
    const result = {
      senders,
      sends: total,
      seed_ms: seedMs,
      start_statement_ms: startCommittedMs,
      drain_all_ms: lastAt - startedAt,
      sends_per_second: round(total / ((lastAt - startedAt) / 1000), 1),
      first_message_per_account_ms: {
        p50: quantile(latencies, 0.5),
        p90: quantile(latencies, 0.9),
        p99: quantile(latencies, 0.99),
        max: latencies[latencies.length - 1] ?? null,
        accounts_never_reached: missing,
      },
      target_p99_ms: TARGET_P99_MS,
      target_met: missing === 0 && quantile(latencies, 0.99) <= TARGET_P99_MS,
      messages_received: snapshot.received,
      duplicate_recipients: snapshot.duplicates,
      most_messages_of_one_inbox: snapshot.mostPerUser,
      smtp_sessions: { opened: snapshot.sessions, open_at_most: snapshot.maxOpen, per_inbox_max: snapshot.sessionsPerInboxMax, per_inbox_mean: snapshot.sessionsPerInboxMean },
      step_sends_by_state: Object.fromEntries(states.map((s) => [s.state, s.n])),
      cpu_during_sending_pct: cpuUse,
      per_send_cost: perSend,
    };
    log(
      `  first message p50 ${result.first_message_per_account_ms.p50} ms, p99 ${result.first_message_per_account_ms.p99} ms; all in ${result.drain_all_ms} ms; ${snapshot.sessions} sessions, ${snapshot.duplicates} duplicates`,
    );
    return result;
  } finally {
    await apps.stop();
    apps.logOutput();
    await client.close();
    await database.drop();
    await dropQueuePrefix(prefix);
  }
}

const sink = await startInstantSink();
try {
  const runs = [];
  for (const senders of senderCounts) runs.push(await run(sink, senders));
  writeResult("many-accounts", {
    date: new Date().toISOString(),
    machine: machineInfo(),
    settings: { accounts, sends_per_account: perAccount, senders: senderCounts, mode, daily_limit: DAILY_LIMIT, jitter_seconds: [0, 0], dispatchers: 1, sink: "instant" },
    what:
      mode === "scheduled"
        ? "time 0: just before one UPDATE makes every seeded step-1 send due now; per account: time 0 to its first message's end of DATA at the sink"
        : "time 0: just before one addBulk of a campaign-dispatch job per account; per account: time 0 to its first message's end of DATA at the sink",
    figures: runs.flatMap((r) => [
      {
        figure: `${mode}, ${r.senders} sender${r.senders > 1 ? "s" : ""}: first message per account p99 (ms)`,
        value: r.first_message_per_account_ms.p99,
        target: `<= ${TARGET_P99_MS}`,
        met: r.target_met ? "met" : "missed",
      },
      { figure: `${mode}, ${r.senders} sender${r.senders > 1 ? "s" : ""}: drain ${r.sends} sends (ms)`, value: r.drain_all_ms },
      { figure: `${mode}, ${r.senders} sender${r.senders > 1 ? "s" : ""}: duplicates`, value: r.duplicate_recipients, target: "0", met: r.duplicate_recipients === 0 ? "met" : "missed" },
      { figure: `${mode}, ${r.senders} sender${r.senders > 1 ? "s" : ""}: SMTP sessions opened (${accounts} inboxes)`, value: r.smtp_sessions.opened },
      { figure: `${mode}, ${r.senders} sender${r.senders > 1 ? "s" : ""}: CPU-ms per send (engine)`, value: r.per_send_cost.cpu_ms_per_send.engine_total },
      { figure: `${mode}, ${r.senders} sender${r.senders > 1 ? "s" : ""}: PostgreSQL statements per send`, value: r.per_send_cost.postgres.statements.per_send ?? "unavailable" },
    ]),
    runs,
  });
} finally {
  await sink.close();
}
