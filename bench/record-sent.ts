// The cost of recording sends (recordSentSends, the sender's hot statement
// record_sent_batch) on a campaign of 3-step enrollments: per batch of sends
// moved from sending to sent, with the enrollment, later steps, usage and
// enrollment.sent written. Step-1 batches (later steps still scheduled) and
// step-3 batches (the last step: the enrollment completes) are measured apart.
//
// With BASELINE_STEP_SENDS=<path of another step-sends.ts> (e.g. an export of an
// earlier commit), that version's recordSentSends is measured in the same run on
// the same rows, batch for batch alternately, so both see the same load.
//
//   node --import tsx bench/record-sent.ts [enrollments=50000] [batch=50] [batches per step=100]
import { executor, recordSentSends, type Db, type SentSendColumns, type SentSendRow } from "@outreach/db";
import { createTestDatabase } from "@outreach/testing";
import { round } from "./lib/numbers.js";
import { log, machineInfo, writeResult } from "./lib/results.js";
import { analyze, seedAccount } from "./lib/seeding.js";
import { argNumber } from "./lib/settings.js";

type Recorder = (db: Db, sends: SentSendColumns) => Promise<SentSendRow[]>;

const enrollments = argNumber(0, 50_000);
const batch = argNumber(1, 50);
const batchesPerStep = argNumber(2, 100);

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]!;

async function seed(db: Db) {
  const { accountId, campaignId } = await seedAccount(db, {
    label: "rs",
    contacts: enrollments,
    credentials: 1,
    dailyLimit: 1_000_000,
    minWaitSeconds: 0,
    maxWaitSeconds: 0,
    smtp: { host: "127.0.0.1", port: 25 },
  });
  const sql = executor(db);
  await sql.execute(`INSERT INTO sequence_steps ("campaignId", position, subject, "bodyHtml", "delayMinutes") VALUES ($1::uuid, 2, '', 'b', 0), ($1::uuid, 3, '', 'b', 0)`, [campaignId]);
  const [credential] = await sql.rows<{ id: string }>(`SELECT id FROM smtp_credentials WHERE "campaignId" = $1::uuid`, [campaignId]);
  await sql.execute(
    `INSERT INTO step_sends ("accountId", "campaignId", "enrollmentId", "stepPosition", "credentialId", state, "dueAt", "updatedAt")
     SELECT e."accountId", e."campaignId", e.id, p, $2::uuid, 'scheduled', now() + (p * interval '1 minute'), now()
     FROM enrollments e CROSS JOIN generate_series(1, 3) AS p WHERE e."campaignId" = $1::uuid`,
    [campaignId, credential!.id],
  );
  await sql.execute(`UPDATE enrollments SET "dispatchedAt" = now(), "credentialId" = $2::uuid WHERE "campaignId" = $1::uuid`, [campaignId, credential!.id]);
  await analyze(db);
  const [account] = await sql.rows<{ start: Date; end: Date }>(`SELECT "currentPeriodStart" AS start, "currentPeriodEnd" AS "end" FROM accounts WHERE id = $1::uuid`, [accountId]);
  return { accountId, campaignId, credentialId: credential!.id, period: account! };
}

async function main() {
  const database = await createTestDatabase();
  const db = database.db;
  try {
    log(`seeding ${enrollments} enrollments x 3 steps`);
    const seeded = await seed(db);
    const sql = executor(db);
    const recorders: Array<[string, Recorder]> = [["current", recordSentSends]];
    if (process.env.BASELINE_STEP_SENDS) recorders.push(["baseline", ((await import(process.env.BASELINE_STEP_SENDS)) as { recordSentSends: Recorder }).recordSentSends]);
    const timings = new Map<string, number[]>(recorders.flatMap(([name]) => [1, 3].map((step) => [`${name} step ${step}`, []] as [string, number[]])));

    let offset = 0;
    for (const step of [1, 2, 3]) {
      for (let i = 0; i < batchesPerStep * recorders.length; i++) {
        // each round of the versions in turn, the order reversed every other round (neither always goes first)
        const turn = Math.floor(i / recorders.length);
        const k = i % recorders.length;
        const [name, record] = recorders[turn % 2 === 0 ? k : recorders.length - 1 - k]!;
        // the next `batch` enrollments' sends of this step, taken to sending as a claim does
        const ids = await sql.values<string>(
          `UPDATE step_sends SET state = 'sending' WHERE id IN (
             SELECT s.id FROM step_sends s JOIN enrollments e ON e.id = s."enrollmentId"
             WHERE s."campaignId" = $1::uuid AND s."stepPosition" = $2 AND s.state = 'scheduled' ORDER BY e."createdAt" LIMIT $3) RETURNING id`,
          [seeded.campaignId, step, batch],
        );
        if (ids.length !== batch) throw new Error(`step ${step}: ${ids.length} sends left to record, ${batch} wanted: seed more enrollments`);
        const now = new Date();
        const columns: SentSendColumns = {
          stepSendIds: ids,
          sentAts: ids.map(() => now),
          messageIds: ids.map((id) => `<${id}@bench.example>`),
          credentialIds: ids.map(() => seeded.credentialId),
          accountIds: ids.map(() => seeded.accountId),
          periodStarts: ids.map(() => seeded.period.start),
          periodEnds: ids.map(() => seeded.period.end),
          notes: ids.map(() => null),
          outcomes: ids.map(() => "accepted"),
          variantIds: ids.map(() => null),
        };
        const started = process.hrtime.bigint();
        const rows = await record(db, columns);
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        if (rows.length !== ids.length) throw new Error(`${name}: ${rows.length} of ${ids.length} sends recorded`);
        if (step !== 2) timings.get(`${name} step ${step}`)!.push(ms);
      }
      offset += batchesPerStep * recorders.length * batch;
    }
    const completed = await sql.values<number>(`SELECT count(*)::int FROM enrollments WHERE "campaignId" = $1::uuid AND "completedAt" IS NOT NULL`, [seeded.campaignId]);

    const results = Object.fromEntries(
      [...timings].map(([name, values]) => [
        name,
        { batches: values.length, median_ms: round(percentile(values, 50), 2), p95_ms: round(percentile(values, 95), 2), per_send_us: round((percentile(values, 50) * 1000) / batch, 1) },
      ]),
    );
    writeResult("record-sent", {
      benchmark: "record-sent",
      measured: "recordSentSends (record_sent_batch) per batch of sends, median and p95",
      enrollments,
      steps: 3,
      batch,
      sends_recorded: offset,
      enrollments_completed_by_current: completed[0],
      baseline: process.env.BASELINE_STEP_SENDS ?? null,
      results,
      machine: machineInfo(),
      date: new Date().toISOString(),
    });
  } finally {
    await database.drop();
  }
}

await main();
