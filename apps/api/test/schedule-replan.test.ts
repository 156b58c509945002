import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { loadConfig } from "@outreach/core";
import { executor } from "@outreach/db";
import { releaseDueSends } from "@outreach/domain";
import { startWorker } from "@outreach/runtime";
import { createBulkCampaign, findFreePort, holdBulkSends, LOOPBACK_MAIL_ENV, waitFor } from "@outreach/testing";
import { dispatcherWorker } from "../../dispatcher/src/worker.js";
import { signUp, startTestApi, request, type TestApi } from "./helpers.js";

// a PATCH re-plans up to this many step rows itself; more go to the replan-held-sends job
const CHUNK = 10;
const STEPS = 2;

let api: TestApi;
let account: { accountId: string; token: string };
let dispatcher: Awaited<ReturnType<typeof startWorker>> | undefined;

before(async () => {
  api = await startTestApi({ DISPATCH_CHUNK_SIZE: String(CHUNK), RATE_LIMIT_PER_MINUTE: "100000" });
  account = await signUp(api);
});
after(async () => {
  await dispatcher?.close();
  await api?.close();
});

const db = () => api.database.db;

/** An active campaign of the account with `n` enrollments whose sends are all held, step 1 due in a week. */
async function heldCampaign(n: number, accountId = account.accountId) {
  const { campaignId, credentialIds } = await createBulkCampaign(db(), { accountId, enrollments: n, steps: STEPS, credentials: 1, status: "active", minWaitSeconds: 60, maxWaitSeconds: 120 });
  await holdBulkSends(db(), campaignId, credentialIds[0]!, new Date(Date.now() + 7 * 86_400_000));
  return campaignId;
}

async function step1Dues(campaignId: string): Promise<Array<{ dueAt: Date; createdAt: Date }>> {
  return db().stepSend.findMany({ where: { campaignId, stepPosition: 1, state: "scheduled" }, orderBy: { dueAt: "asc" }, select: { dueAt: true, createdAt: true } });
}

/** Consecutive step-1 sends are exactly `seconds` apart (min = max wait), the first from about now. */
function assertSpacedFrom(dues: Array<{ dueAt: Date; createdAt: Date }>, patchedAt: Date, seconds: number, n: number): void {
  assert.equal(dues.length, n);
  for (const due of dues) assert.ok(due.createdAt >= patchedAt, "every held step 1 was planned again");
  assert.ok(dues[0]!.dueAt.getTime() < patchedAt.getTime() + 3_600_000, `the first send goes out about now, not in a week (${dues[0]!.dueAt.toISOString()})`);
  for (let i = 1; i < dues.length; i++) assert.equal((dues[i]!.dueAt.getTime() - dues[i - 1]!.dueAt.getTime()) / 1000, seconds);
}

async function dbNow(): Promise<Date> {
  const [{ now }] = (await executor(db()).rows<{ now: Date }>(`SELECT now()`)) as [{ now: Date }];
  return now;
}

test("PATCH of the wait range of an active campaign re-plans its few held sends in the request", async () => {
  const campaignId = await heldCampaign(4); // 4 x 2 steps <= CHUNK
  const patchedAt = await dbNow();
  const res = await request(api.baseUrl, "PATCH", `/campaigns/${campaignId}`, { token: account.token, body: { campaign: { min_wait_seconds: 900, max_wait_seconds: 900 } } });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.status, "active");
  assertSpacedFrom(await step1Dues(campaignId), patchedAt, 900, 4);
  // later steps follow their step 1 again
  assert.equal(await db().stepSend.count({ where: { campaignId, stepPosition: 2, state: "scheduled" } }), 4);
});

test("PATCH of the schedule re-plans the held sends into the new window", async () => {
  const campaignId = await heldCampaign(4);
  // a window that opens in two hours (UTC, every day) and lasts two hours
  const hhmm = (d: Date) => d.toISOString().slice(11, 16);
  const now = await dbNow();
  const opening = new Date(Math.ceil((now.getTime() + 2 * 3_600_000) / 60_000) * 60_000);
  const closing = new Date(opening.getTime() + 2 * 3_600_000);
  const schedule = { timezone: "UTC", start_time: hhmm(opening), end_time: hhmm(closing) };
  const res = await request(api.baseUrl, "PATCH", `/campaigns/${campaignId}`, { token: account.token, body: { schedule } });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.schedule.start_time, hhmm(opening));
  const dues = await step1Dues(campaignId);
  assert.equal(dues.length, 4);
  for (const due of dues) {
    assert.ok(due.createdAt >= now, "planned again");
    assert.ok(due.dueAt >= opening && due.dueAt < closing, `${due.dueAt.toISOString()} inside ${opening.toISOString()}..${closing.toISOString()}`);
  }
});

test("PATCH of a setting the plan does not depend on, or of a paused campaign, leaves the held sends alone", async () => {
  const campaignId = await heldCampaign(3);
  const before = await step1Dues(campaignId);
  const renamed = await request(api.baseUrl, "PATCH", `/campaigns/${campaignId}`, { token: account.token, body: { name: "renamed", verify_email_mx: true } });
  assert.equal(renamed.status, 200, renamed.text);
  assert.deepEqual(await step1Dues(campaignId), before);
  await db().campaign.update({ where: { id: campaignId }, data: { status: "paused", pausedReason: "manual" } });
  const paused = await request(api.baseUrl, "PATCH", `/campaigns/${campaignId}`, { token: account.token, body: { jitter_scope: "inbox" } });
  assert.equal(paused.status, 200, paused.text);
  assert.deepEqual(await step1Dues(campaignId), before, "its resume plans them again");
});

test("PATCH of the jitter and wait range with a big backlog hands the re-plan to the replan-held-sends job; nothing goes out at a stale time meanwhile", async () => {
  const n = 30; // 30 x 2 steps > CHUNK
  const own = await signUp(api); // an account whose only due sends are this campaign's
  const campaignId = await heldCampaign(n, own.accountId);
  // due now: what a release would send at its stale time
  await db().stepSend.updateMany({ where: { campaignId, stepPosition: 1 }, data: { dueAt: new Date(Date.now() - 60_000) } });
  const patchedAt = await dbNow();
  const res = await request(api.baseUrl, "PATCH", `/campaigns/${campaignId}`, { body: { min_wait_seconds: 300, max_wait_seconds: 300, jitter_scope: "batch" }, token: own.token });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.status, "active");
  assert.deepEqual(await releaseDueSends(db(), own.accountId), []);

  dispatcher = await startWorker(
    dispatcherWorker,
    loadConfig("dispatcher", {
      DATABASE_URL: api.database.url,
      QUEUE_PREFIX: api.config.queuePrefix,
      LOG_LEVEL: "error",
      DISPATCH_CHUNK_SIZE: String(CHUNK),
      HEALTH_PORT: String(await findFreePort()),
      ...LOOPBACK_MAIL_ENV,
    }),
  );
  await waitFor(async () => (await db().campaign.findUniqueOrThrow({ where: { id: campaignId } })).resumeReplanBefore === null, {
    timeoutMs: 60_000,
    intervalMs: 200,
    what: "the re-plan job to finish",
  });
  assertSpacedFrom(await step1Dues(campaignId), patchedAt, 300, n);
  assert.equal(await db().stepSend.count({ where: { campaignId } }), n * STEPS, "each send planned once");
});
