import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createRedis, loadConfig, TypedQueue } from "@outreach/core";
import { executor } from "@outreach/db";
import { createBulkCampaign, createTestDatabase, LOOPBACK_MAIL_ENV, startAppProcess, uniqueQueuePrefix, waitFor, type AppProcess, type TestDatabase } from "@outreach/testing";

const ENROLLMENTS = 30_000;
const STEPS = 3;

let database: TestDatabase;
const processes: AppProcess[] = [];

before(async () => {
  database = await createTestDatabase();
});
after(async () => {
  await Promise.all(processes.map((p) => p.stop("SIGKILL")));
  await database?.drop();
});

async function dispatched(campaignId: string): Promise<number> {
  const [row] = await executor(database.db).rows<{ n: number }>(`SELECT count(*)::int AS n FROM enrollments WHERE "campaignId" = $1::uuid AND "dispatchedAt" IS NOT NULL`, [campaignId]);
  return row!.n;
}

test("a dispatcher SIGKILLed mid-batch and restarted plans every step of the batch exactly once", async () => {
  const { accountId, campaignId } = await createBulkCampaign(database.db, { enrollments: ENROLLMENTS, steps: STEPS, credentials: 3, dailyLimit: 4_000, minWaitSeconds: 1, maxWaitSeconds: 5 });
  const env = {
    DATABASE_URL: database.url,
    QUEUE_PREFIX: uniqueQueuePrefix(),
    ...LOOPBACK_MAIL_ENV,
    // 300 enrollments x 3 steps per chunk; a killed job is taken over within seconds
    DISPATCH_CHUNK_SIZE: "900",
    DISPATCH_JOB_LOCK_MS: "2000",
  };
  const config = loadConfig("dispatcher", env);
  const producer = createRedis(config, "producer");
  const queue = new TypedQueue("campaign-dispatch", config, producer);
  try {
    const first = await startAppProcess("dispatcher", { env });
    processes.push(first);
    await queue.add({ accountId, campaignId, batchNumber: 1 }, { jobId: "kill-restart" });

    // kill -9 as soon as some chunks are committed
    await waitFor(async () => (await dispatched(campaignId)) > 0, { timeoutMs: 60_000, intervalMs: 10, what: "a first committed chunk" });
    first.child.kill("SIGKILL");
    await first.exited;
    const atKill = await dispatched(campaignId);
    assert.ok(atKill < ENROLLMENTS, `the batch must still be in progress when killed (${atKill} of ${ENROLLMENTS} dispatched): dispatch is one transaction, not chunks`);

    const second = await startAppProcess("dispatcher", { env });
    processes.push(second);
    await waitFor(async () => (await dispatched(campaignId)) === ENROLLMENTS, { timeoutMs: 90_000, intervalMs: 200, what: "every enrollment dispatched after the restart" });
    const job = await waitFor(
      async () => {
        const j = await queue.queue.getJob("kill-restart");
        return j?.finishedOn ? j : undefined;
      },
      { timeoutMs: 30_000, what: "the dispatch job to finish" },
    );
    assert.equal(job.failedReason, undefined, `the job failed: ${job.failedReason}`);

    const [counts] = await executor(database.db).rows<{ rows: number; pairs: number; enrollments: number; step1: number; complete: number }>(
      `
      SELECT count(*)::int AS rows,
             count(DISTINCT ("enrollmentId", "stepPosition"))::int AS pairs,
             count(DISTINCT "enrollmentId")::int AS enrollments,
             count(*) FILTER (WHERE "stepPosition" = 1)::int AS step1,
             (SELECT count(*)::int FROM (SELECT 1 FROM step_sends WHERE "campaignId" = $1::uuid GROUP BY "enrollmentId" HAVING count(*) = $2) c) AS complete
      FROM step_sends WHERE "campaignId" = $3::uuid`,
      [campaignId, STEPS, campaignId],
    );
    assert.deepEqual(counts, { rows: ENROLLMENTS * STEPS, pairs: ENROLLMENTS * STEPS, enrollments: ENROLLMENTS, step1: ENROLLMENTS, complete: ENROLLMENTS });

    // the daily limit held across chunks and across the restart
    const overbooked = await executor(database.db).rows<{ credentialId: string; day: Date; n: number }>(
      `
      SELECT "credentialId", "limitDay" AS day, count(*)::int AS n FROM step_sends
      WHERE "campaignId" = $1::uuid AND "stepPosition" = 1 GROUP BY 1, 2 HAVING count(*) > 4000`,
      [campaignId],
    );
    assert.deepEqual(overbooked, []);
    // every enrollment's credential is the one of its step 1
    const [mismatch] = await executor(database.db).rows<{ n: number }>(
      `
      SELECT count(*)::int AS n FROM enrollments e JOIN step_sends s ON s."enrollmentId" = e.id AND s."stepPosition" = 1
      WHERE e."campaignId" = $1::uuid AND e."credentialId" IS DISTINCT FROM s."credentialId"`,
      [campaignId],
    );
    assert.equal(mismatch!.n, 0);
  } finally {
    await queue.close();
    await producer.quit();
  }
});
