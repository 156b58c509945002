import assert from "node:assert/strict";
import { test } from "node:test";
import { planSchedule, planScheduleChunk, type PlanInput } from "../src/sending/schedule-plan.js";
import { localDay, nextOpening, type SendSchedule } from "../src/sending/send-window.js";
import { ids, step1, stream } from "./schedule-plan-helpers.js";

const seeded = () => {
  let r = 0.13;
  return () => (r = (r * 9301 + 0.49297) % 1);
};
const newYork: SendSchedule = { timezone: "America/New_York", days: ["mon", "tue", "wed", "thu", "fri"], startTime: "09:00", endTime: "17:00", useContactTimezone: false };
const base = (extra: Partial<PlanInput>): PlanInput => ({
  now: new Date("2026-11-17T15:00:00Z"),
  minWaitSeconds: 120,
  maxWaitSeconds: 420,
  stepDelaysMinutes: [0],
  credentials: [],
  enrollmentIds: [],
  random: seeded(),
  ...extra,
});
const gaps = (sends: ReturnType<typeof planSchedule>) => {
  const times = step1(sends)
    .map((s) => s.dueAt.getTime())
    .sort((a, b) => a - b);
  return times.slice(1).map((t, i) => (t - times[i]!) / 1000);
};

for (const inboxes of [1, 5]) {
  test(`batch jitter with ${inboxes} inbox(es): consecutive step-1 sends of the batch are min..max seconds apart, inboxes take turns`, () => {
    const credentials = Array.from({ length: inboxes }, (_, i) => stream(`c${i}`, 1000));
    const sends = planSchedule(base({ credentials, enrollmentIds: ids(40) }));
    for (const gap of gaps(sends)) assert.ok(gap >= 120 && gap <= 420, `gap ${gap}s`);
    const perInbox = new Map<string, number>();
    for (const s of step1(sends)) perInbox.set(s.credentialId, (perInbox.get(s.credentialId) ?? 0) + 1);
    assert.deepEqual([...perInbox.values()], Array(inboxes).fill(40 / inboxes));
  });
}

test("jitter scope inbox: each inbox is its own stream, so 5 inboxes send 5 at once", () => {
  const credentials = Array.from({ length: 5 }, (_, i) => stream(`c${i}`, 1000));
  const sends = step1(planSchedule(base({ credentials, enrollmentIds: ids(40), jitterScope: "inbox" })));
  const now = new Date("2026-11-17T15:00:00Z").getTime();
  assert.equal(sends.filter((s) => s.dueAt.getTime() === now).length, 5);
  for (const c of credentials) {
    const mine = sends.filter((s) => s.credentialId === c.id).map((s) => s.dueAt.getTime());
    for (let i = 1; i < mine.length; i++) {
      const gap = (mine[i]! - mine[i - 1]!) / 1000;
      assert.ok(gap >= 120 && gap <= 420, `${c.id} gap ${gap}s`);
    }
  }
});

test("dispatched on a Friday evening, a Mon-Fri 09:00-17:00 New York batch starts Monday 09:00 New York time; follow-ups land in the window", () => {
  const now = new Date("2026-11-20T23:30:00Z"); // Friday 18:30 EST
  const sends = planSchedule(base({ now, schedule: newYork, credentials: [stream("a", 100), stream("b", 100)], enrollmentIds: ids(10), stepDelaysMinutes: [0, 60 * 24 * 4, 60 * 9] }));
  const first = step1(sends);
  assert.equal(first[0]!.dueAt.toISOString(), "2026-11-23T14:00:00.000Z");
  for (const gap of gaps(sends)) assert.ok(gap >= 120 && gap <= 420, `gap ${gap}s`);
  for (const s of sends) {
    assert.equal(nextOpening(newYork, "America/New_York", s.dueAt).getTime(), s.dueAt.getTime(), `${s.stepPosition} ${s.dueAt.toISOString()} outside`);
  }
  // step 2: 4 days after Monday morning is Friday morning; step 3 nine hours after step 1 plus 4 days is Friday 18:00: next Monday 09:00
  const e1 = sends.filter((s) => s.enrollmentId === "e1");
  assert.equal(e1[1]!.dueAt.toISOString(), "2026-11-27T14:00:00.000Z");
  assert.equal(e1[2]!.dueAt.toISOString(), "2026-11-30T14:00:00.000Z");
  assert.deepEqual(new Set(first.map((s) => s.limitDay)), new Set(["2026-11-23"]));
});

test("a contact's time zone overrides the campaign's with use_contact_timezone", () => {
  const now = new Date("2026-11-20T23:30:00Z");
  const schedule = { ...newYork, useContactTimezone: true };
  const contactTimezones = new Map([
    ["e1", "Europe/Berlin"],
    ["e2", null],
    ["e3", "Asia/Tokyo"],
  ]);
  const sends = step1(planSchedule(base({ now, schedule, contactTimezones, credentials: [stream("a", 100)], enrollmentIds: ids(3) })));
  assert.equal(sends[0]!.dueAt.toISOString(), "2026-11-23T08:00:00.000Z", "Berlin Monday 09:00 CET");
  assert.equal(sends[1]!.dueAt.toISOString(), "2026-11-23T14:00:00.000Z", "the campaign's zone");
  assert.equal(sends[2]!.dueAt.toISOString(), "2026-11-23T00:00:00.000Z", "Tokyo Monday 09:00 JST");
  assert.equal(sends[2]!.limitDay, "2026-11-23");
});

test("daily limits count days in the schedule's zone; a DST change inside a batch keeps 09:00 local", () => {
  const every: SendSchedule = { ...newYork, days: ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] };
  const now = new Date("2026-10-30T23:00:00Z"); // Friday 19:00 EDT, Oct 30; daylight time ends Sunday Nov 1
  const sends = step1(planSchedule(base({ now, schedule: every, credentials: [stream("a", 2)], enrollmentIds: ids(6), minWaitSeconds: 60, maxWaitSeconds: 60 })));
  assert.deepEqual(
    sends.map((s) => [s.dueAt.toISOString(), s.limitDay]),
    [
      ["2026-10-31T13:00:00.000Z", "2026-10-31"],
      ["2026-10-31T13:01:00.000Z", "2026-10-31"],
      ["2026-11-01T14:00:00.000Z", "2026-11-01"],
      ["2026-11-01T14:01:00.000Z", "2026-11-01"],
      ["2026-11-02T14:00:00.000Z", "2026-11-02"],
      ["2026-11-02T14:01:00.000Z", "2026-11-02"],
    ],
  );
});

test("a window crossing midnight: sends after midnight count on the day the window opened", () => {
  const night: SendSchedule = { timezone: "UTC", days: ["mon"], startTime: "23:00", endTime: "01:00", useContactTimezone: false };
  const now = new Date("2026-11-23T22:00:00Z"); // Monday
  const sends = step1(planSchedule(base({ now, schedule: night, credentials: [stream("a", 3)], enrollmentIds: ids(4), minWaitSeconds: 1800, maxWaitSeconds: 1800 })));
  assert.deepEqual(
    sends.map((s) => [s.dueAt.toISOString(), s.limitDay]),
    [
      ["2026-11-23T23:00:00.000Z", "2026-11-23"],
      ["2026-11-23T23:30:00.000Z", "2026-11-23"],
      ["2026-11-24T00:00:00.000Z", "2026-11-23"],
      ["2026-11-30T23:00:00.000Z", "2026-11-30"],
    ],
  );
});

test("ramp: the day's limit grows from start_per_day by increase_per_day up to daily_limit", () => {
  const now = new Date("2026-11-17T00:00:00Z");
  const ramp = { startPerDay: 1, increasePerDay: 2, startedAt: now };
  const sends = step1(planSchedule(base({ now, credentials: [stream("a", 4, { ramp })], enrollmentIds: ids(12), minWaitSeconds: 0, maxWaitSeconds: 0 })));
  const perDay = new Map<string, number>();
  for (const s of sends) perDay.set(s.limitDay!, (perDay.get(s.limitDay!) ?? 0) + 1);
  assert.deepEqual(
    [...perDay.entries()],
    [
      ["2026-11-17", 1],
      ["2026-11-18", 3],
      ["2026-11-19", 4],
      ["2026-11-20", 4],
    ],
  );
});

test("credentials of one mailbox share its daily limit", () => {
  const booked = new Map([["2026-11-17", 3]]);
  const now = new Date("2026-11-17T15:00:00Z");
  const sends = step1(planSchedule(base({ now, credentials: [stream("a", 5, { mailbox: "m", booked }), stream("b", 5, { mailbox: "m", booked })], enrollmentIds: ids(4) })));
  assert.equal(sends.filter((s) => s.limitDay === "2026-11-17").length, 2, "3 already booked by other campaigns, limit 5");
  assert.equal(localDay("UTC", sends[2]!.dueAt), "2026-11-18");
});

test("with a schedule and contact zones, a batch planned in chunks is the batch planned at once", () => {
  const schedule = { ...newYork, useContactTimezone: true };
  const zones = ["Europe/Berlin", null, "America/Los_Angeles", "Asia/Tokyo"];
  const contactTimezones = new Map(ids(48).map((id, i) => [id, zones[i % 4]!]));
  const input = base({ now: new Date("2026-11-20T23:30:00Z"), schedule, contactTimezones, random: () => 0.5, stepDelaysMinutes: [0, 60 * 24] });
  for (const jitterScope of ["batch", "inbox"] as const) {
    const credentials = [stream("a", 7), stream("b", 5, { mailbox: "m" }), stream("c", 3, { mailbox: "m" })];
    const whole = planSchedule({ ...input, jitterScope, credentials, enrollmentIds: ids(48) });
    const chunked = [];
    let streams = credentials;
    for (let i = 0; i < 48; i += 10) {
      const chunk = planScheduleChunk({ ...input, jitterScope, credentials: streams, enrollmentIds: ids(48).slice(i, i + 10) });
      chunked.push(...chunk.sends);
      streams = chunk.streams;
    }
    assert.deepEqual(chunked, whole, jitterScope);
  }
});

test("DST inside a batch's window: the night the clocks go back has an hour more, and the jitter stays in real time", () => {
  const night: SendSchedule = { timezone: "America/New_York", days: ["sun"], startTime: "00:00", endTime: "04:00", useContactTimezone: false };
  const now = new Date("2026-10-31T12:00:00Z"); // the window opens Sunday 2026-11-01 00:00 EDT; 04:00 is EST
  const sends = step1(planSchedule(base({ now, schedule: night, credentials: [stream("a", 100)], enrollmentIds: ids(11), minWaitSeconds: 1800, maxWaitSeconds: 1800 })));
  assert.equal(sends[0]!.dueAt.toISOString(), "2026-11-01T04:00:00.000Z");
  // 00:00 EDT to 04:00 EST is five hours: ten sends half an hour apart
  assert.equal(sends[9]!.dueAt.toISOString(), "2026-11-01T08:30:00.000Z");
  assert.ok(gaps(sends.slice(0, 10)).every((g) => g === 1800));
  assert.equal(sends[10]!.dueAt.toISOString(), "2026-11-08T05:00:00.000Z", "the next Sunday 00:00 EST");
});
