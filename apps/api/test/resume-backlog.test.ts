import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { loadConfig } from "@outreach/core";
import { executor } from "@outreach/db";
import { startWorker } from "@outreach/runtime";
import { createBulkCampaign, findFreePort, holdBulkSends, LOOPBACK_MAIL_ENV, waitFor } from "@outreach/testing";
import { releaseDueSends } from "@outreach/domain";
import { dispatcherWorker } from "../../dispatcher/src/worker.js";
import { call, startWorkflowApi, type WorkflowEnv } from "./workflow-fixtures.js";

const HELD = 50_000;
const STEPS = 2;

let env: WorkflowEnv;
let dispatcher: Awaited<ReturnType<typeof startWorker>> | undefined;

before(async () => {
  env = await startWorkflowApi();
});
after(async () => {
  await dispatcher?.close();
  await env?.api.close();
});

test("resume of a paused campaign with a big backlog answers at once, active; a job plans every held send again exactly once before any is released", async () => {
  const db = env.api.database.db;
  const { campaignId, credentialIds } = await createBulkCampaign(db, {
    accountId: env.a.accountId,
    enrollments: HELD,
    steps: STEPS,
    credentials: 2,
    status: "paused",
    minWaitSeconds: 60,
    maxWaitSeconds: 120,
  });
  await db.campaign.update({ where: { id: campaignId }, data: { pausedReason: "manual" } });
  const longAgo = new Date(Date.now() - 3 * 86_400_000);
  await holdBulkSends(db, campaignId, credentialIds[0]!, longAgo);

  const [{ now: resumedAt }] = (await executor(db).rows<{ now: Date }>(`SELECT now()`)) as [{ now: Date }];
  const res = await call(env, "POST", `/campaigns/${campaignId}/resume`);
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body, { id: campaignId, status: "active", paused_reason: null, rescheduled: HELD });
  // active at once, but nothing can go out with its stale time while the held sends are planned again
  assert.deepEqual(await releaseDueSends(db, env.a.accountId), []);
  // paused and resumed again meanwhile: the same single re-plan carries on
  assert.equal((await call(env, "POST", `/campaigns/${campaignId}/pause`)).status, 200);
  const again = await call(env, "POST", `/campaigns/${campaignId}/resume`);
  assert.equal(again.status, 200, again.text);
  assert.equal(again.body.status, "active");
  assert.deepEqual(await releaseDueSends(db, env.a.accountId), []);

  dispatcher = await startWorker(
    dispatcherWorker,
    loadConfig("dispatcher", { DATABASE_URL: env.api.database.url, QUEUE_PREFIX: env.api.config.queuePrefix, LOG_LEVEL: "error", HEALTH_PORT: String(await findFreePort()), ...LOOPBACK_MAIL_ENV }),
  );
  await waitFor(async () => (await db.campaign.findUniqueOrThrow({ where: { id: campaignId } })).resumeReplanBefore === null, { timeoutMs: 90_000, intervalMs: 250, what: "the re-plan to finish" });
  const shown = await call(env, "GET", `/campaigns/${campaignId}`);
  assert.equal(shown.body.status, "active");
  assert.equal(shown.body.paused_reason, null);

  const [counts] = await executor(db).rows<{ rows: number; pairs: number; step1: number; replanned: number; stale: number; enrollments: number }>(
    `
    SELECT count(*)::int AS rows,
           count(DISTINCT ("enrollmentId", "stepPosition"))::int AS pairs,
           count(*) FILTER (WHERE "stepPosition" = 1)::int AS step1,
           count(*) FILTER (WHERE "stepPosition" = 1 AND "createdAt" >= $1 AND "dueAt" >= $2 AND state IN ('scheduled', 'queued'))::int AS replanned,
           count(*) FILTER (WHERE "dueAt" < $3)::int AS stale,
           count(DISTINCT "enrollmentId")::int AS enrollments
    FROM step_sends WHERE "campaignId" = $4::uuid`,
    [resumedAt, resumedAt, resumedAt, campaignId],
  );
  assert.deepEqual(counts, { rows: HELD * STEPS, pairs: HELD * STEPS, step1: HELD, replanned: HELD, stale: 0, enrollments: HELD });
  // planned again onto both inboxes, spaced by the campaign's wait
  const perInbox = await executor(db).rows<{ n: number }>(
    `
    SELECT count(*)::int AS n FROM step_sends WHERE "campaignId" = $1::uuid AND "stepPosition" = 1 GROUP BY "credentialId"`,
    [campaignId],
  );
  assert.equal(perInbox.length, 2);
});
