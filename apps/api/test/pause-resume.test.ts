import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { describe, test } from "node:test";
import { assertEnvelope, call, createCampaign, emails, step, workflowApiForFile, utcMidnight } from "./workflow-fixtures.js";

const env = workflowApiForFile();

const db = () => env.api.database.db;

async function campaignWithStatus(status: "pending" | "active" | "paused", pausedReason: string | null = null, overrides: Record<string, unknown> = {}) {
  const campaign = await createCampaign(env, overrides);
  await db().campaign.update({ where: { id: campaign.id }, data: { status, pausedReason } });
  return campaign;
}

async function row(id: string) {
  return db().campaign.findUniqueOrThrow({ where: { id } });
}

async function enrollment(campaignId: string, data: Record<string, unknown> = {}) {
  const contact = await db().contact.create({ data: { accountId: env.a.accountId, email: emails(1, "pr")[0]! } });
  return db().enrollment.create({ data: { accountId: env.a.accountId, campaignId, contactId: contact.id, ...data } });
}

describe("POST /campaigns/:id/pause", () => {
  test("active -> paused with paused_reason manual", async () => {
    const campaign = await campaignWithStatus("active");
    const res = await call(env, "POST", `/campaigns/${campaign.id}/pause`);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { id: campaign.id, status: "paused", paused_reason: "manual" });
    const stored = await row(campaign.id);
    assert.deepEqual([stored.status, stored.pausedReason], ["paused", "manual"]);
    assert.equal((await call(env, "GET", `/campaigns/${campaign.id}`)).body.paused_reason, "manual");
  });

  test("a pending or paused campaign is 422 campaign_not_active and unchanged", async () => {
    for (const [status, reason] of [
      ["pending", null],
      ["paused", "all_credentials_disabled"],
    ] as const) {
      const campaign = await campaignWithStatus(status, reason);
      const res = await call(env, "POST", `/campaigns/${campaign.id}/pause`);
      assertEnvelope(env, res, 422, "campaign_not_active");
      assert.deepEqual(res.body.details, { status });
      const stored = await row(campaign.id);
      assert.deepEqual([stored.status, stored.pausedReason], [status, reason]);
    }
  });

  test("unknown, malformed and another account's campaigns are 404 campaign_not_found", async () => {
    const foreign = await createCampaign(env, {}, env.b.token);
    await db().campaign.update({ where: { id: foreign.id }, data: { status: "active" } });
    for (const id of [randomUUID(), "x", foreign.id]) {
      assertEnvelope(env, await call(env, "POST", `/campaigns/${id}/pause`), 404, "campaign_not_found");
      assertEnvelope(env, await call(env, "POST", `/campaigns/${id}/resume`), 404, "campaign_not_found");
    }
    assert.equal((await row(foreign.id)).status, "active");
  });

  test("concurrent pauses: exactly one succeeds, the others are 422 campaign_not_active", async () => {
    const campaign = await campaignWithStatus("active");
    const answers = await Promise.all(Array.from({ length: 5 }, () => call(env, "POST", `/campaigns/${campaign.id}/pause`)));
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 422, 422, 422, 422]);
    for (const a of answers.filter((a) => a.status === 422)) assertEnvelope(env, a, 422, "campaign_not_active");
  });
});

describe("POST /campaigns/:id/resume", () => {
  test("paused -> active, clearing paused_reason, whatever paused it", async () => {
    for (const reason of ["manual", "all_credentials_disabled"]) {
      const campaign = await campaignWithStatus("paused", reason);
      const res = await call(env, "POST", `/campaigns/${campaign.id}/resume`);
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, { id: campaign.id, status: "active", paused_reason: null, rescheduled: 0 });
      const stored = await row(campaign.id);
      assert.deepEqual([stored.status, stored.pausedReason], ["active", null]);
    }
  });

  test("a pending or active campaign is 422 campaign_not_paused and unchanged", async () => {
    for (const status of ["pending", "active"] as const) {
      const campaign = await campaignWithStatus(status);
      const res = await call(env, "POST", `/campaigns/${campaign.id}/resume`);
      assertEnvelope(env, res, 422, "campaign_not_paused");
      assert.deepEqual(res.body.details, { status });
      assert.equal((await row(campaign.id)).status, status);
    }
  });

  test("pause then resume plans the held sends again from the resume time; sends already out are untouched", async () => {
    const campaign = await campaignWithStatus("active", null, { sequence_steps: [step(1), step(2, { delay_minutes: 90 })] });
    const credentialId = campaign.smtp_credentials[0].id as string;
    const longAgo = new Date(Date.now() - 3 * 86_400_000);
    const held = await enrollment(campaign.id, { dispatchedAt: longAgo, credentialId });
    const heldStep1 = await db().stepSend.create({
      data: { accountId: env.a.accountId, campaignId: campaign.id, enrollmentId: held.id, stepPosition: 1, credentialId, state: "scheduled", dueAt: longAgo, limitDay: utcMidnight(longAgo) },
    });
    await db().stepSend.create({
      data: { accountId: env.a.accountId, campaignId: campaign.id, enrollmentId: held.id, stepPosition: 2, credentialId, state: "scheduled", dueAt: new Date(longAgo.getTime() + 90 * 60_000) },
    });
    // already sent step 1: its follow-up keeps its time
    const sent = await enrollment(campaign.id, { status: "sent", sentAt: longAgo, dispatchedAt: longAgo, credentialId });
    await db().stepSend.create({
      data: {
        accountId: env.a.accountId,
        campaignId: campaign.id,
        enrollmentId: sent.id,
        stepPosition: 1,
        credentialId,
        state: "sent",
        dueAt: longAgo,
        sentAt: longAgo,
        limitDay: utcMidnight(longAgo),
      },
    });
    const followUpDue = new Date(longAgo.getTime() + 90 * 60_000);
    const followUp = await db().stepSend.create({
      data: { accountId: env.a.accountId, campaignId: campaign.id, enrollmentId: sent.id, stepPosition: 2, credentialId, state: "scheduled", dueAt: followUpDue },
    });

    assert.equal((await call(env, "POST", `/campaigns/${campaign.id}/pause`)).status, 200);
    const resumedAt = new Date();
    const res = await call(env, "POST", `/campaigns/${campaign.id}/resume`);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { id: campaign.id, status: "active", paused_reason: null, rescheduled: 1 });

    const steps = await db().stepSend.findMany({ where: { enrollmentId: held.id }, orderBy: { stepPosition: "asc" } });
    assert.equal(steps.length, 2, "one row per step, still");
    assert.ok(steps[0]!.dueAt >= resumedAt, `step 1 due ${steps[0]!.dueAt.toISOString()} is not after the resume at ${resumedAt.toISOString()}`);
    assert.equal(steps[0]!.state, "scheduled");
    assert.equal(steps[0]!.credentialId, credentialId);
    assert.notEqual(steps[0]!.id, heldStep1.id);
    assert.equal(steps[0]!.limitDay!.toISOString(), utcMidnight(steps[0]!.dueAt).toISOString(), "booked on the day it now goes out");
    assert.equal(steps[1]!.dueAt.getTime() - steps[0]!.dueAt.getTime(), 90 * 60_000, "step 2 follows at its delay");
    const heldAfter = await db().enrollment.findUniqueOrThrow({ where: { id: held.id } });
    assert.ok(heldAfter.dispatchedAt! >= resumedAt);

    const untouched = await db().stepSend.findUniqueOrThrow({ where: { id: followUp.id } });
    assert.deepEqual([untouched.state, untouched.dueAt.toISOString()], ["scheduled", followUpDue.toISOString()]);
    assert.equal(await db().stepSend.count({ where: { enrollmentId: sent.id } }), 2);
  });

  test("concurrent resumes: exactly one succeeds and reschedules once", async () => {
    const campaign = await campaignWithStatus("paused", "manual");
    const credentialId = campaign.smtp_credentials[0].id as string;
    const past = new Date(Date.now() - 3_600_000);
    for (let i = 0; i < 3; i++) {
      const e = await enrollment(campaign.id, { dispatchedAt: past, credentialId });
      await db().stepSend.create({
        data: { accountId: env.a.accountId, campaignId: campaign.id, enrollmentId: e.id, stepPosition: 1, credentialId, state: "scheduled", dueAt: past, limitDay: utcMidnight(past) },
      });
    }
    const answers = await Promise.all(Array.from({ length: 4 }, () => call(env, "POST", `/campaigns/${campaign.id}/resume`)));
    const ok = answers.filter((a) => a.status === 200);
    assert.equal(ok.length, 1, answers.map((a) => a.text).join("\n"));
    assert.equal(ok[0]!.body.rescheduled, 3);
    for (const a of answers.filter((a) => a.status !== 200)) assertEnvelope(env, a, 422, "campaign_not_paused");
    assert.equal(await db().stepSend.count({ where: { campaignId: campaign.id } }), 3);
  });

  test("a campaign paused because all credentials are disabled resumes without rescheduling: nothing can send", async () => {
    const campaign = await campaignWithStatus("paused", "all_credentials_disabled");
    const credentialId = campaign.smtp_credentials[0].id as string;
    await db().smtpCredential.update({ where: { id: credentialId }, data: { disabledAt: new Date() } });
    const past = new Date(Date.now() - 3_600_000);
    const e = await enrollment(campaign.id, { dispatchedAt: past, credentialId });
    await db().stepSend.create({
      data: { accountId: env.a.accountId, campaignId: campaign.id, enrollmentId: e.id, stepPosition: 1, credentialId, state: "scheduled", dueAt: past, limitDay: utcMidnight(past) },
    });
    const res = await call(env, "POST", `/campaigns/${campaign.id}/resume`);
    assert.deepEqual(res.body, { id: campaign.id, status: "active", paused_reason: null, rescheduled: 0 });
    const kept = await db().stepSend.findFirstOrThrow({ where: { enrollmentId: e.id } });
    assert.equal(kept.dueAt.toISOString(), past.toISOString());
  });
});
