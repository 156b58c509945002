import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { getPlanUsage } from "@outreach/domain";
import { signUp } from "./helpers.js";
import { assertEnvelope, call, createCampaign, credential, emails, importContacts, QueueProbe, startWorkflowApi, step, utcMidnight, type WorkflowEnv } from "./workflow-fixtures.js";

let env: WorkflowEnv;
let probe: QueueProbe<"campaign-dispatch">;

before(async () => {
  env = await startWorkflowApi();
  probe = new QueueProbe(env, "campaign-dispatch");
});
after(async () => {
  await probe?.close();
  await env?.api.close();
});

const db = () => env.api.database.db;

/** The campaign-dispatch jobs waiting for this campaign. */
async function jobsOf(campaignId: string) {
  return (await probe.jobs()).filter((job) => job.campaignId === campaignId);
}

/** Enrolls n fresh contacts of account A into the campaign, in one batch, through the API. */
async function enroll(campaignId: string, n: number, batchNumber = 1, token = env.a.token) {
  const importId = await importContacts(env, emails(n), token);
  const res = await call(env, "POST", `/campaigns/${campaignId}/enroll`, { token, body: { contact_import_id: importId, batch_number: batchNumber } });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.enrolled, n);
}

describe("POST /campaigns/:id/dispatch", () => {
  test("activates a pending campaign and queues one campaign-dispatch job for the lowest pending batch", async () => {
    const campaign = await createCampaign(env);
    await enroll(campaign.id, 3, 2);
    await enroll(campaign.id, 2, 7);

    const res = await call(env, "POST", `/campaigns/${campaign.id}/dispatch`);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { campaign_id: campaign.id, batch_number: 2, status: "active", pending: 3, queued: true, reason: null });
    assert.equal((await db().campaign.findUniqueOrThrow({ where: { id: campaign.id } })).status, "active");
    assert.deepEqual(await jobsOf(campaign.id), [{ accountId: env.a.accountId, campaignId: campaign.id, batchNumber: 2 }]);
    // the dispatcher plans the sends; the API writes none
    assert.equal(await db().stepSend.count({ where: { campaignId: campaign.id } }), 0);
    assert.equal(await db().enrollment.count({ where: { campaignId: campaign.id, dispatchedAt: { not: null } } }), 0);
  });

  test("takes the given batch; without one, the lowest batch with pending enrollments not dispatched yet", async () => {
    const campaign = await createCampaign(env);
    await enroll(campaign.id, 2, 1);
    await enroll(campaign.id, 3, 4);
    await enroll(campaign.id, 1, 9);

    const given = await call(env, "POST", `/campaigns/${campaign.id}/dispatch`, { body: { batch_number: 9 } });
    assert.deepEqual([given.status, given.body.batch_number, given.body.pending, given.body.queued], [200, 9, 1, true]);

    // batch 1 was dispatched and one of its contacts already got mail: the next batch is 4
    await db().enrollment.updateMany({ where: { campaignId: campaign.id, batchNumber: 1 }, data: { dispatchedAt: new Date() } });
    const next = await call(env, "POST", `/campaigns/${campaign.id}/dispatch`, { body: {} });
    assert.deepEqual([next.status, next.body.batch_number, next.body.pending, next.body.status], [200, 4, 3, "active"]);

    // a batch whose enrollments are no longer pending does not count either
    await db().enrollment.updateMany({ where: { campaignId: campaign.id, batchNumber: 4 }, data: { status: "sent", sentAt: new Date() } });
    const nullBatch = await call(env, "POST", `/campaigns/${campaign.id}/dispatch`, { body: { batch_number: null } });
    assert.deepEqual([nullBatch.status, nullBatch.body.batch_number], [200, 9]);

    assert.deepEqual(
      (await jobsOf(campaign.id)).map((job) => job.batchNumber).sort((a, b) => a - b),
      [4, 9, 9],
    );
  });

  test("nothing pending is 422 no_pending_enrollments; the campaign stays pending and nothing is queued", async () => {
    const campaign = await createCampaign(env);
    assertEnvelope(env, await call(env, "POST", `/campaigns/${campaign.id}/dispatch`), 422, "no_pending_enrollments");

    await enroll(campaign.id, 2, 3);
    const missing = await call(env, "POST", `/campaigns/${campaign.id}/dispatch`, { body: { batch_number: 1 } });
    assertEnvelope(env, missing, 422, "no_pending_enrollments", /Batch 1/);
    assert.deepEqual(missing.body.details, { batch_number: 1 });

    await db().enrollment.updateMany({ where: { campaignId: campaign.id }, data: { dispatchedAt: new Date() } });
    assertEnvelope(env, await call(env, "POST", `/campaigns/${campaign.id}/dispatch`), 422, "no_pending_enrollments");
    assertEnvelope(env, await call(env, "POST", `/campaigns/${campaign.id}/dispatch`, { body: { batch_number: 3 } }), 422, "no_pending_enrollments");

    assert.equal((await db().campaign.findUniqueOrThrow({ where: { id: campaign.id } })).status, "pending");
    assert.deepEqual(await jobsOf(campaign.id), []);
  });

  test("unknown, malformed and another account's campaigns are 404 campaign_not_found", async () => {
    const foreign = await createCampaign(env, {}, env.b.token);
    await enroll(foreign.id, 1, 1, env.b.token);
    for (const id of [randomUUID(), "123", foreign.id]) {
      assertEnvelope(env, await call(env, "POST", `/campaigns/${id}/dispatch`), 404, "campaign_not_found");
    }
    assert.equal((await db().campaign.findUniqueOrThrow({ where: { id: foreign.id } })).status, "pending");
    assert.deepEqual(await jobsOf(foreign.id), []);
  });

  test("bad bodies are 422 validation_failed and change nothing", async () => {
    const campaign = await createCampaign(env);
    await enroll(campaign.id, 1);
    for (const [body, message] of [
      [{ batch_number: 0 }, /batch_number must be greater than or equal to 1/],
      [{ batch_number: 1_000_001 }, /batch_number must be less than or equal to 1000000/],
      [{ batch_number: "1" }, /batch_number must be a number/],
      [{ batch_number: 1.5 }, /batch_number must be an integer/],
      [{ batch: 1 }, /batch is not allowed/],
      [[1], /must be of type object/],
    ] as Array<[unknown, RegExp]>) {
      assertEnvelope(env, await call(env, "POST", `/campaigns/${campaign.id}/dispatch`, { body }), 422, "validation_failed", message);
    }
    assertEnvelope(env, await call(env, "POST", `/campaigns/${campaign.id}/dispatch`, { rawBody: "batch_number=1", headers: { "content-type": "text/plain" } }), 400, "bad_request");
    assert.equal((await db().campaign.findUniqueOrThrow({ where: { id: campaign.id } })).status, "pending");
    assert.deepEqual(await jobsOf(campaign.id), []);
  });

  test("a paused campaign: 200 with queued false and reason campaign_paused; it stays paused", async () => {
    const campaign = await createCampaign(env);
    await enroll(campaign.id, 2);
    await db().campaign.update({ where: { id: campaign.id }, data: { status: "paused", pausedReason: "manual" } });
    const res = await call(env, "POST", `/campaigns/${campaign.id}/dispatch`);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { campaign_id: campaign.id, batch_number: 1, status: "paused", pending: 2, queued: false, reason: "campaign_paused" });
    assert.deepEqual(await jobsOf(campaign.id), []);
    const row = await db().campaign.findUniqueOrThrow({ where: { id: campaign.id } });
    assert.deepEqual([row.status, row.pausedReason], ["paused", "manual"]);
  });

  test("all credentials disabled: queued false, reason no_enabled_credentials; the campaign stays pending", async () => {
    const campaign = await createCampaign(env, { smtp_credentials: [credential(), credential({ label: "Second", from_email: "two@example.com" })] });
    await enroll(campaign.id, 2);
    await db().smtpCredential.updateMany({ where: { campaignId: campaign.id }, data: { disabledAt: new Date(), disabledReason: "bounce rate" } });
    const res = await call(env, "POST", `/campaigns/${campaign.id}/dispatch`);
    assert.deepEqual(res.body, { campaign_id: campaign.id, batch_number: 1, status: "pending", pending: 2, queued: false, reason: "no_enabled_credentials" });
    assert.deepEqual(await jobsOf(campaign.id), []);
    assert.equal((await db().campaign.findUniqueOrThrow({ where: { id: campaign.id } })).status, "pending");

    // one re-enabled credential is enough
    await db().smtpCredential.updateMany({ where: { campaignId: campaign.id, label: "Second" }, data: { disabledAt: null } });
    const again = await call(env, "POST", `/campaigns/${campaign.id}/dispatch`);
    assert.deepEqual([again.body.queued, again.body.reason, again.body.status], [true, null, "active"]);
    assert.equal((await jobsOf(campaign.id)).length, 1);
  });

  test("no credentials at all: reason no_enabled_credentials; no steps: reason no_steps", async () => {
    const noCredentials = await createCampaign(env);
    await enroll(noCredentials.id, 1);
    await db().smtpCredential.deleteMany({ where: { campaignId: noCredentials.id } });
    const res = await call(env, "POST", `/campaigns/${noCredentials.id}/dispatch`);
    assert.deepEqual([res.status, res.body.queued, res.body.reason], [200, false, "no_enabled_credentials"]);

    const noSteps = await createCampaign(env, { sequence_steps: [step(1), step(2)] });
    await enroll(noSteps.id, 1);
    await db().sequenceStep.deleteMany({ where: { campaignId: noSteps.id } });
    const res2 = await call(env, "POST", `/campaigns/${noSteps.id}/dispatch`);
    assert.deepEqual(res2.body, { campaign_id: noSteps.id, batch_number: 1, status: "pending", pending: 1, queued: false, reason: "no_steps" });

    assert.deepEqual(await jobsOf(noCredentials.id), []);
    assert.deepEqual(await jobsOf(noSteps.id), []);
  });

  test("every enabled credential at its daily_limit today: reason daily_limit_reached; room on one credential is enough", async () => {
    const campaign = await createCampaign(env, {
      // three mailboxes (a shared mailbox shares its daily budget: see send-window-plan.test.ts)
      smtp_credentials: [
        credential({ label: "A", smtp_username: "a@example.com", daily_limit: 2 }),
        credential({ label: "B", from_email: "b@example.com", smtp_username: "b@example.com", daily_limit: 1 }),
        credential({ label: "C", from_email: "c@example.com", smtp_username: "c@example.com", daily_limit: 1 }),
      ],
    });
    const [credA, credB, credC] = campaign.smtp_credentials.map((c: any) => c.id as string);
    await enroll(campaign.id, 3, 1); // already booked today (the fixture below)
    await enroll(campaign.id, 2, 2); // the batch to dispatch
    const booked = await db().enrollment.findMany({ where: { campaignId: campaign.id, batchNumber: 1 }, orderBy: { id: "asc" } });
    const today = utcMidnight();
    const book = (enrollmentId: string, credentialId: string, state: "sent" | "scheduled" | "cancelled") =>
      db().stepSend.create({ data: { accountId: env.a.accountId, campaignId: campaign.id, enrollmentId, stepPosition: 1, credentialId, state, dueAt: new Date(), limitDay: today } });
    await book(booked[0]!.id, credA, "sent");
    await book(booked[1]!.id, credA, "scheduled");
    await book(booked[2]!.id, credB, "sent");
    await db().enrollment.updateMany({ where: { campaignId: campaign.id, batchNumber: 1 }, data: { dispatchedAt: new Date() } });
    // C has no booking today, but it is disabled
    await db().smtpCredential.update({ where: { id: credC }, data: { disabledAt: new Date() } });

    const res = await call(env, "POST", `/campaigns/${campaign.id}/dispatch`);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { campaign_id: campaign.id, batch_number: 2, status: "pending", pending: 2, queued: false, reason: "daily_limit_reached" });
    assert.deepEqual(await jobsOf(campaign.id), []);

    // a cancelled booking frees its place
    await db().stepSend.updateMany({ where: { enrollmentId: booked[1]!.id }, data: { state: "cancelled" } });
    const freed = await call(env, "POST", `/campaigns/${campaign.id}/dispatch`);
    assert.deepEqual([freed.body.queued, freed.body.reason, freed.body.status], [true, null, "active"]);
    assert.deepEqual(await jobsOf(campaign.id), [{ accountId: env.a.accountId, campaignId: campaign.id, batchNumber: 2 }]);
  });

  test("an active campaign is dispatched again without a state change", async () => {
    const campaign = await createCampaign(env);
    await enroll(campaign.id, 1, 1);
    await enroll(campaign.id, 1, 2);
    assert.equal((await call(env, "POST", `/campaigns/${campaign.id}/dispatch`)).body.status, "active");
    await db().enrollment.updateMany({ where: { campaignId: campaign.id, batchNumber: 1 }, data: { dispatchedAt: new Date() } });
    const res = await call(env, "POST", `/campaigns/${campaign.id}/dispatch`);
    assert.deepEqual([res.body.batch_number, res.body.status, res.body.queued], [2, "active", true]);
    assert.equal((await jobsOf(campaign.id)).length, 2);
  });
});

describe("POST /campaigns/:id/dispatch at the plan limit", () => {
  test("402 plan_limit_reached with details, checked after the campaign's 404 and before no_pending_enrollments", async () => {
    const c = await signUp(env.api);
    const as = { ...env, a: c };
    const usage = await getPlanUsage(db(), c.accountId);
    await db().usagePeriod.create({ data: { accountId: c.accountId, periodStart: usage.periodStart, periodEnd: usage.periodEnd, sends: usage.monthlyLimit } });

    const empty = await createCampaign(as);
    const res = await call(as, "POST", `/campaigns/${empty.id}/dispatch`);
    assertEnvelope(env, res, 402, "plan_limit_reached");
    assert.deepEqual(res.body.details, { current_period_sends: 100, monthly_limit: 100, plan_slug: "free" });

    const campaign = await createCampaign(as);
    await enroll(campaign.id, 2, 1, c.token);
    assertEnvelope(env, await call(as, "POST", `/campaigns/${campaign.id}/dispatch`), 402, "plan_limit_reached");
    assertEnvelope(env, await call(as, "POST", `/campaigns/${randomUUID()}/dispatch`), 404, "campaign_not_found");
    assert.equal((await db().campaign.findUniqueOrThrow({ where: { id: campaign.id } })).status, "pending");
    assert.deepEqual(await jobsOf(campaign.id), []);

    // one send below the limit: accepted
    await db().usagePeriod.update({ where: { accountId_periodStart: { accountId: c.accountId, periodStart: usage.periodStart } }, data: { sends: 99 } });
    const ok = await call(as, "POST", `/campaigns/${campaign.id}/dispatch`);
    assert.deepEqual([ok.status, ok.body.queued, ok.body.status], [200, true, "active"]);
    assert.equal((await jobsOf(campaign.id)).length, 1);
  });
});
