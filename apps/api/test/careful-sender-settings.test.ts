import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { assertCampaignsRejected, assertEnvelope, call, createCampaign, credential, emails, importContacts, step, utcMidnight, workflowApiForFile } from "./workflow-fixtures.js";

// The controls careful senders use, as the API takes and shows them: text_only
// steps, the campaign-wide daily_limit, the schedule's skip_dates and the
// unsubscribe footer text.
const env = workflowApiForFile();

const db = () => env.api.database.db;
const WINDOW = { timezone: "Europe/Paris", start_time: "09:00", end_time: "17:00" };

function campaignFields(overrides: Record<string, unknown>) {
  return { name: "Careful", smtp_credentials: [credential()], sequence_steps: [step(1)], ...overrides };
}

describe("careful-sender settings", () => {
  test("defaults: no campaign cap, the default footer, HTML steps, no skip dates", async () => {
    const campaign = await createCampaign(env, { schedule: WINDOW });
    assert.equal(campaign.daily_limit, null);
    assert.equal(campaign.unsubscribe_footer, null);
    assert.equal(campaign.sequence_steps[0].text_only, false);
    assert.deepEqual(campaign.schedule.skip_dates, []);
    assert.equal(campaign.smtp_credentials[0].paused_until, null);
    assert.equal(campaign.smtp_credentials[0].paused_reason, null);
  });

  test("are stored and shown by POST, GET and PATCH; skip_dates sorted", async () => {
    const campaign = await createCampaign(env, {
      daily_limit: 4,
      unsubscribe_footer: "  Not for you? {{unsubscribe_url}} and we stop.  ",
      schedule: { ...WINDOW, skip_dates: ["2026-12-25", "2026-12-24", "2027-01-01"] },
      sequence_steps: [step(1, { text_only: true }), step(2)],
    });
    assert.equal(campaign.daily_limit, 4);
    assert.equal(campaign.unsubscribe_footer, "Not for you? {{unsubscribe_url}} and we stop.");
    assert.deepEqual(campaign.schedule.skip_dates, ["2026-12-24", "2026-12-25", "2027-01-01"]);
    assert.deepEqual(
      campaign.sequence_steps.map((s: any) => s.text_only),
      [true, false],
    );
    const shown = (await call(env, "GET", `/campaigns/${campaign.id}`)).body;
    assert.deepEqual(
      [shown.daily_limit, shown.unsubscribe_footer, shown.schedule.skip_dates, shown.sequence_steps[0].text_only],
      [4, "Not for you? {{unsubscribe_url}} and we stop.", ["2026-12-24", "2026-12-25", "2027-01-01"], true],
    );
    const row = await db().campaign.findUniqueOrThrow({ where: { id: campaign.id }, include: { steps: { orderBy: { position: "asc" } } } });
    assert.deepEqual([row.dailyLimit, row.unsubscribeFooter, row.steps.map((s) => s.textOnly)], [4, "Not for you? {{unsubscribe_url}} and we stop.", [true, false]]);

    const patched = await call(env, "PATCH", `/campaigns/${campaign.id}`, { body: { campaign: { daily_limit: null, unsubscribe_footer: "Opt out here" } } });
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual([patched.body.daily_limit, patched.body.unsubscribe_footer], [null, "Opt out here"]);
    const again = await call(env, "PATCH", `/campaigns/${campaign.id}`, { body: { daily_limit: 25, unsubscribe_footer: null, schedule: { ...WINDOW, skip_dates: [] } } });
    assert.equal(again.status, 200, again.text);
    assert.deepEqual([again.body.daily_limit, again.body.unsubscribe_footer, again.body.schedule.skip_dates], [25, null, []]);
    const stored = await db().campaign.findUniqueOrThrow({ where: { id: campaign.id } });
    assert.deepEqual([stored.dailyLimit, stored.unsubscribeFooter], [25, null]);
  });

  test("invalid values are 422 naming the field, and write nothing", async () => {
    const manyDates = Array.from({ length: 367 }, (_, i) => new Date(Date.UTC(2027, 0, 1) + i * 86_400_000).toISOString().slice(0, 10));
    await assertCampaignsRejected(env, campaignFields, [
      [{ daily_limit: 0 }, "campaign.daily_limit", /campaign\.daily_limit must be greater than or equal to 1/],
      [{ daily_limit: 2.5 }, "campaign.daily_limit", /must be an integer/],
      [{ daily_limit: "10" }, "campaign.daily_limit", /must be a number/],
      [{ unsubscribe_footer: "x".repeat(501) }, "campaign.unsubscribe_footer", /length must be less than or equal to 500/],
      [{ unsubscribe_footer: "line one\nline two" }, "campaign.unsubscribe_footer", /single line/],
      [{ unsubscribe_footer: "" }, "campaign.unsubscribe_footer", /not allowed to be empty/],
      [{ schedule: { ...WINDOW, skip_dates: ["2026-13-01"] } }, "campaign.schedule.skip_dates.0", /campaign\.schedule\.skip_dates\[0\] is not a calendar date/],
      [{ schedule: { ...WINDOW, skip_dates: ["2026-02-30"] } }, "campaign.schedule.skip_dates.0", /not a calendar date/],
      [{ schedule: { ...WINDOW, skip_dates: ["25/12/2026"] } }, "campaign.schedule.skip_dates.0", /campaign\.schedule\.skip_dates\[0\] must be a date as YYYY-MM-DD/],
      [{ schedule: { ...WINDOW, skip_dates: ["2026-12-25", "2026-12-25"] } }, "campaign.schedule.skip_dates.1", /repeats a date/],
      [{ schedule: { ...WINDOW, skip_dates: manyDates } }, "campaign.schedule.skip_dates", /must contain less than or equal to 366 items/],
      [{ sequence_steps: [step(1, { text_only: "yes" })] }, "campaign.sequence_steps.0.text_only", /must be a boolean/],
    ]);
    const campaign = await createCampaign(env);
    const bad = await call(env, "PATCH", `/campaigns/${campaign.id}`, { body: { daily_limit: -3 } });
    assertEnvelope(env, bad, 422, "validation_failed", /^daily_limit must be greater than or equal to 1/);
  });

  test("dispatch is held as daily_limit_reached once the campaign's daily_limit is booked today, whatever room its inboxes have", async () => {
    const campaign = await createCampaign(env, { daily_limit: 1, smtp_credentials: [credential({ daily_limit: 50 })] });
    const enroll = async (n: number, batchNumber: number) => {
      const res = await call(env, "POST", `/campaigns/${campaign.id}/enroll`, { body: { contact_import_id: await importContacts(env, emails(n)), batch_number: batchNumber } });
      assert.equal(res.status, 200, res.text);
    };
    await enroll(1, 1);
    await enroll(1, 2);
    const [booked] = await db().enrollment.findMany({ where: { campaignId: campaign.id, batchNumber: 1 } });
    await db().stepSend.create({
      data: {
        accountId: env.a.accountId,
        campaignId: campaign.id,
        enrollmentId: booked!.id,
        stepPosition: 1,
        credentialId: campaign.smtp_credentials[0].id,
        state: "sent",
        dueAt: new Date(),
        limitDay: utcMidnight(),
      },
    });
    await db().enrollment.update({ where: { id: booked!.id }, data: { dispatchedAt: new Date() } });
    const held = await call(env, "POST", `/campaigns/${campaign.id}/dispatch`);
    assert.equal(held.status, 200, held.text);
    assert.deepEqual([held.body.queued, held.body.reason], [false, "daily_limit_reached"]);
    const raised = await call(env, "PATCH", `/campaigns/${campaign.id}`, { body: { daily_limit: 2 } });
    assert.equal(raised.status, 200, raised.text);
    const queued = await call(env, "POST", `/campaigns/${campaign.id}/dispatch`);
    assert.deepEqual([queued.body.queued, queued.body.reason], [true, null]);
  });
});
