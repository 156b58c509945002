import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { describe, test } from "node:test";
import { assertEnvelope, call, createCampaign, emails, workflowApiForFile, step, utcMidnight } from "./workflow-fixtures.js";

const DAY = 86_400_000;

const env = workflowApiForFile();

const db = () => env.api.database.db;

function dayString(offset: number) {
  return new Date(utcMidnight().getTime() + offset * DAY).toISOString().slice(0, 10);
}

async function enrollment(campaignId: string, data: Record<string, unknown> = {}) {
  const contact = await db().contact.create({ data: { accountId: env.a.accountId, email: emails(1, "fc")[0]! } });
  return db().enrollment.create({ data: { accountId: env.a.accountId, campaignId, contactId: contact.id, ...data } });
}

type State = "scheduled" | "queued" | "sending" | "sent" | "bounced" | "failed" | "cancelled";

async function stepSend(campaignId: string, stepPosition: number, state: State, dueAt: Date) {
  const e = await enrollment(campaignId, { dispatchedAt: new Date() });
  await db().stepSend.create({ data: { accountId: env.a.accountId, campaignId, enrollmentId: e.id, stepPosition, state, dueAt } });
}

describe("GET /campaigns/:id/send_forecast", () => {
  test("14 daily buckets from today by default, every day present, zeros included", async () => {
    const campaign = await createCampaign(env);
    const res = await call(env, "GET", `/campaigns/${campaign.id}/send_forecast`);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, {
      campaign_id: campaign.id,
      timezone: "UTC",
      days: Array.from({ length: 14 }, (_, i) => ({ date: dayString(i), step_1: 0, follow_ups: 0, total: 0 })),
      total_scheduled: 0,
      overdue: 0,
      undispatched_pending: 0,
    });
  });

  test("counts scheduled and queued sends by due day, step 1 apart from follow-ups; overdue and undispatched pending aside", async () => {
    const campaign = await createCampaign(env, { sequence_steps: [step(1), step(2), step(3)] });
    const today = utcMidnight().getTime();
    const at = (days: number, minutes = 60) => new Date(today + days * DAY + minutes * 60_000);
    await stepSend(campaign.id, 1, "scheduled", at(0, 1));
    await stepSend(campaign.id, 1, "queued", at(0, 1439));
    await stepSend(campaign.id, 2, "scheduled", at(0, 600));
    await stepSend(campaign.id, 1, "scheduled", at(2));
    await stepSend(campaign.id, 2, "queued", at(2));
    await stepSend(campaign.id, 3, "scheduled", at(2));
    await stepSend(campaign.id, 1, "scheduled", at(4, 1439));
    await stepSend(campaign.id, 2, "scheduled", at(20)); // beyond 14 days
    // not going out any more, or already out: not counted
    for (const state of ["sending", "sent", "bounced", "failed", "cancelled"] as const) await stepSend(campaign.id, 1, state, at(1));
    // overdue: scheduled before today (queued ones are already handed over)
    await stepSend(campaign.id, 1, "scheduled", at(-1));
    await stepSend(campaign.id, 2, "scheduled", at(-30));
    await stepSend(campaign.id, 1, "queued", at(-1));
    await stepSend(campaign.id, 1, "cancelled", at(-1));
    // pending enrollments no dispatch has planned yet (one sent, one dispatched: not counted)
    await enrollment(campaign.id);
    await enrollment(campaign.id, { batchNumber: 2 });
    await enrollment(campaign.id, { status: "sent" });
    // another campaign's rows stay out
    const other = await createCampaign(env);
    await stepSend(other.id, 1, "scheduled", at(0));
    await stepSend(other.id, 1, "scheduled", at(-1));
    await enrollment(other.id);

    const res = await call(env, "GET", `/campaigns/${campaign.id}/send_forecast?days=7`);
    assert.equal(res.status, 200, res.text);
    const expected = [
      { date: dayString(0), step_1: 2, follow_ups: 1, total: 3 },
      { date: dayString(1), step_1: 0, follow_ups: 0, total: 0 },
      { date: dayString(2), step_1: 1, follow_ups: 2, total: 3 },
      { date: dayString(3), step_1: 0, follow_ups: 0, total: 0 },
      { date: dayString(4), step_1: 1, follow_ups: 0, total: 1 },
      { date: dayString(5), step_1: 0, follow_ups: 0, total: 0 },
      { date: dayString(6), step_1: 0, follow_ups: 0, total: 0 },
    ];
    assert.deepEqual(res.body, { campaign_id: campaign.id, timezone: "UTC", days: expected, total_scheduled: 7, overdue: 2, undispatched_pending: 2 });

    const wide = await call(env, "GET", `/campaigns/${campaign.id}/send_forecast?days=21`);
    assert.equal(wide.body.days.length, 21);
    assert.deepEqual(wide.body.days[20], { date: dayString(20), step_1: 0, follow_ups: 1, total: 1 });
    assert.equal(wide.body.total_scheduled, 8);

    const one = await call(env, "GET", `/campaigns/${campaign.id}/send_forecast?days=1`);
    assert.deepEqual(one.body.days, [expected[0]]);
    assert.equal(one.body.total_scheduled, 3);
  });

  test("with a schedule, days are the schedule's time zone's", async () => {
    const campaign = await createCampaign(env, { schedule: { timezone: "Pacific/Kiritimati", days: ["mon", "tue", "wed", "thu", "fri", "sat", "sun"], start_time: "00:00", end_time: "00:00" } });
    // UTC+14: 11:00 UTC is already the next day there, 09:00 UTC not yet
    const today = utcMidnight().getTime();
    await stepSend(campaign.id, 1, "scheduled", new Date(today + DAY + 9 * 3_600_000));
    await stepSend(campaign.id, 1, "scheduled", new Date(today + DAY + 11 * 3_600_000));
    const res = await call(env, "GET", `/campaigns/${campaign.id}/send_forecast?days=5`);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.timezone, "Pacific/Kiritimati");
    const localToday = new Date(Date.now() + 14 * 3_600_000).toISOString().slice(0, 10);
    assert.equal(res.body.days[0].date, localToday);
    const byDate = new Map(res.body.days.map((d: { date: string; step_1: number }) => [d.date, d.step_1]));
    assert.equal(byDate.get(dayString(2)), 1, "11:00 UTC tomorrow is the day after in Kiritimati");
    assert.equal(byDate.get(dayString(1)), 1);
  });

  test("days is 1 to 365", async () => {
    const campaign = await createCampaign(env);
    const year = await call(env, "GET", `/campaigns/${campaign.id}/send_forecast?days=365`);
    assert.equal(year.status, 200);
    assert.equal(year.body.days.length, 365);
    assert.equal(year.body.days[364].date, dayString(364));
    for (const [query, message] of [
      ["days=0", /days must be greater than or equal to 1/],
      ["days=366", /days must be less than or equal to 365/],
      ["days=abc", /days must be a number/],
      ["days=1.5", /days must be an integer/],
      ["days=2&days=3", /days must be a number/],
      ["weeks=2", /weeks is not allowed/],
    ] as const) {
      assertEnvelope(env, await call(env, "GET", `/campaigns/${campaign.id}/send_forecast?${query}`), 422, "validation_failed", message);
    }
  });

  test("unknown, malformed and another account's campaigns are 404 campaign_not_found", async () => {
    const foreign = await createCampaign(env, {}, env.b.token);
    for (const id of [randomUUID(), "nope", foreign.id]) {
      assertEnvelope(env, await call(env, "GET", `/campaigns/${id}/send_forecast`), 404, "campaign_not_found");
    }
  });
});
