import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { describe, test } from "node:test";
import { assertEnvelope, call, createCampaign, credential, step, workflowApiForFile } from "./workflow-fixtures.js";

const env = workflowApiForFile();

const db = () => env.api.database.db;

describe("reply_actions and on_completion on campaigns", () => {
  test("defaults: no reply actions and no on_completion, stored as nothing", async () => {
    const campaign = await createCampaign(env);
    assert.deepEqual(campaign.reply_actions, []);
    assert.equal(campaign.on_completion, null);
    const row = await db().campaign.findUniqueOrThrow({ where: { id: campaign.id } });
    assert.deepEqual(row.replyActions, []);
    assert.equal(row.onCompletion, null);
  });

  test("set on create and by PATCH, shown as given (wait_days defaults to 3), stored for the engine, and cleared with null and []", async () => {
    const nurture = await createCampaign(env);
    const meeting = await createCampaign(env);
    const campaign = await createCampaign(env, {
      reply_actions: [
        { category: "interested", move_to_campaign_id: meeting.id },
        { category: "out_of_office", move_to_campaign_id: nurture.id },
      ],
      on_completion: { move_to_campaign_id: nurture.id },
    });
    assert.deepEqual(campaign.reply_actions, [
      { category: "interested", move_to_campaign_id: meeting.id },
      { category: "out_of_office", move_to_campaign_id: nurture.id },
    ]);
    assert.deepEqual(campaign.on_completion, { move_to_campaign_id: nurture.id, wait_days: 3 });
    const row = await db().campaign.findUniqueOrThrow({ where: { id: campaign.id } });
    assert.deepEqual(row.onCompletion, { moveToCampaignId: nurture.id, waitDays: 3 });
    assert.deepEqual(row.replyActions, [
      { category: "interested", moveToCampaignId: meeting.id },
      { category: "out_of_office", moveToCampaignId: nurture.id },
    ]);

    const patched = await call(env, "PATCH", `/campaigns/${campaign.id}`, { body: { campaign: { on_completion: { move_to_campaign_id: meeting.id, wait_days: 0 } } } });
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual(patched.body.on_completion, { move_to_campaign_id: meeting.id, wait_days: 0 });
    assert.equal(patched.body.reply_actions.length, 2, "a field left out is unchanged");

    const cleared = await call(env, "PATCH", `/campaigns/${campaign.id}`, { body: { on_completion: null, reply_actions: [] } });
    assert.equal(cleared.status, 200, cleared.text);
    assert.equal(cleared.body.on_completion, null);
    assert.deepEqual(cleared.body.reply_actions, []);
    assert.equal((await db().campaign.findUniqueOrThrow({ where: { id: campaign.id } })).onCompletion, null);
    assert.deepEqual((await call(env, "GET", `/campaigns/${campaign.id}`)).body.on_completion, null);
  });

  test("another account's campaign, an unknown id or a malformed one is 404 campaign_not_found, and nothing is written", async () => {
    const foreign = await createCampaign(env, {}, env.b.token);
    const campaign = await createCampaign(env);
    const before = await db().campaign.count({ where: { accountId: env.a.accountId } });
    for (const id of [foreign.id, randomUUID(), "not-a-uuid"]) {
      const created = await call(env, "POST", "/campaigns", {
        body: { campaign: { name: "x", smtp_credentials: [credential()], sequence_steps: [step(1)], on_completion: { move_to_campaign_id: id } } },
      });
      assertEnvelope(env, created, 404, "campaign_not_found");
      const patched = await call(env, "PATCH", `/campaigns/${campaign.id}`, { body: { reply_actions: [{ category: "interested", move_to_campaign_id: id }] } });
      assertEnvelope(env, patched, 404, "campaign_not_found");
    }
    assert.equal(await db().campaign.count({ where: { accountId: env.a.accountId } }), before);
    assert.deepEqual((await db().campaign.findUniqueOrThrow({ where: { id: campaign.id } })).replyActions, []);
  });

  test("422 validation_failed: the campaign itself (a self-loop), two actions for one category, the category other, wait_days out of 0..90", async () => {
    const campaign = await createCampaign(env);
    const target = await createCampaign(env);
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ on_completion: { move_to_campaign_id: campaign.id } }, /on_completion\.move_to_campaign_id must name another campaign/],
      [{ reply_actions: [{ category: "interested", move_to_campaign_id: campaign.id }] }, /reply_actions\[0\]\.move_to_campaign_id must name another campaign/],
      [
        {
          reply_actions: [
            { category: "interested", move_to_campaign_id: target.id },
            { category: "interested", move_to_campaign_id: target.id },
          ],
        },
        /at most one action per category/,
      ],
      [{ reply_actions: [{ category: "other", move_to_campaign_id: target.id }] }, /category/],
      [{ on_completion: { move_to_campaign_id: target.id, wait_days: 91 } }, /wait_days/],
      [{ on_completion: { move_to_campaign_id: target.id, wait_days: -1 } }, /wait_days/],
      [{ on_completion: { move_to_campaign_id: target.id, wait_days: 1.5 } }, /wait_days/],
      [{ on_completion: { wait_days: 1 } }, /move_to_campaign_id/],
    ];
    for (const [body, message] of cases) {
      const res = await call(env, "PATCH", `/campaigns/${campaign.id}`, { body });
      assertEnvelope(env, res, 422, "validation_failed", message);
    }
    const row = await db().campaign.findUniqueOrThrow({ where: { id: campaign.id } });
    assert.deepEqual([row.replyActions, row.onCompletion], [[], null]);
  });
});
