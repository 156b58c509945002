import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { assertCampaignsRejected, assertEnvelope, call, createCampaign, credential, step, workflowApiForFile } from "./workflow-fixtures.js";

const env = workflowApiForFile();

const db = () => env.api.database.db;

function campaignFields(overrides: Record<string, unknown> = {}) {
  return { name: "Conditions", smtp_credentials: [credential()], sequence_steps: [step(1), step(2)], ...overrides };
}

describe("step conditions and stop_on_click on campaigns", () => {
  test("defaults: every step's condition is none, stop_on_click is false, no condition_not_met skips", async () => {
    const campaign = await createCampaign(env, { sequence_steps: [step(1), step(2)] });
    assert.deepEqual(
      campaign.sequence_steps.map((s: any) => s.condition),
      ["none", "none"],
    );
    assert.equal(campaign.stop_on_click, false);
    assert.equal(campaign.skipped.condition_not_met, 0);
    const rows = await db().sequenceStep.findMany({ where: { campaignId: campaign.id }, orderBy: { position: "asc" } });
    assert.deepEqual(
      rows.map((r) => r.condition),
      ["none", "none"],
    );
  });

  test("steps 2 and later keep their condition, stored and shown; stop_on_click is set on create and by PATCH", async () => {
    const campaign = await createCampaign(env, {
      stop_on_click: true,
      sequence_steps: [step(1), step(2, { condition: "not_clicked" }), step(3, { condition: "opened" }), step(4, { condition: "clicked" }), step(5, { condition: "not_opened" })],
    });
    const expected = ["none", "not_clicked", "opened", "clicked", "not_opened"];
    assert.deepEqual(
      campaign.sequence_steps.map((s: any) => s.condition),
      expected,
    );
    assert.equal(campaign.stop_on_click, true);
    const shown = await call(env, "GET", `/campaigns/${campaign.id}`);
    assert.equal(shown.status, 200, shown.text);
    assert.deepEqual(
      shown.body.sequence_steps.map((s: any) => s.condition),
      expected,
    );
    const rows = await db().sequenceStep.findMany({ where: { campaignId: campaign.id }, orderBy: { position: "asc" } });
    assert.deepEqual(
      rows.map((r) => r.condition),
      expected,
    );

    const patched = await call(env, "PATCH", `/campaigns/${campaign.id}`, { body: { campaign: { stop_on_click: false } } });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.body.stop_on_click, false);
    assert.equal((await db().campaign.findUniqueOrThrow({ where: { id: campaign.id } })).stopOnClick, false);
    assert.equal((await call(env, "PATCH", `/campaigns/${campaign.id}`, { body: { stop_on_click: true } })).body.stop_on_click, true);
  });

  test("422 validation_failed for a condition on step 1, an unknown condition and a stop_on_click that is no boolean; nothing is created", async () => {
    await assertCampaignsRejected(env, campaignFields, [
      [{ sequence_steps: [step(1, { condition: "clicked" }), step(2)] }, "campaign.sequence_steps", /step 1 must have condition "none" \(got "clicked"\)/],
      [{ sequence_steps: [step(1), step(2, { condition: "replied" })] }, "campaign.sequence_steps.1.condition", /must be one of \[none, opened, not_opened, clicked, not_clicked\]/],
      [{ sequence_steps: [step(1), step(2, { condition: null })] }, "campaign.sequence_steps.1.condition", /must be one of/],
      [{ stop_on_click: "yes" }, "campaign.stop_on_click", /must be a boolean/],
    ]);
    const campaign = await createCampaign(env);
    const res = await call(env, "PATCH", `/campaigns/${campaign.id}`, { body: { campaign: { stop_on_click: "no" } } });
    assertEnvelope(env, res, 422, "validation_failed", /stop_on_click must be a boolean/);
  });

  test("GET /campaigns/:id/skips takes kind=condition_not_met and refuses an unknown kind", async () => {
    const campaign = await createCampaign(env, { sequence_steps: [step(1), step(2, { condition: "clicked" })] });
    const listed = await call(env, "GET", `/campaigns/${campaign.id}/skips?kind=condition_not_met`);
    assert.equal(listed.status, 200, listed.text);
    assert.deepEqual(listed.body, []);
    const bad = await call(env, "GET", `/campaigns/${campaign.id}/skips?kind=condition_failed`);
    assertEnvelope(env, bad, 422, "validation_failed", /condition_not_met/);
  });
});
