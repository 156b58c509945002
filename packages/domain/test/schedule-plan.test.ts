import assert from "node:assert/strict";
import { test } from "node:test";
import { planSchedule, utcDay } from "../src/sending/schedule-plan.js";
import { ids, step1, stream } from "./schedule-plan-helpers.js";

const now = new Date("2026-03-10T15:00:00.000Z");

test("daily_limit 2 and 5 enrollments: 2 today, 2 tomorrow, 1 the day after", () => {
  const sends = step1(planSchedule({ now, minWaitSeconds: 0, maxWaitSeconds: 0, stepDelaysMinutes: [0], credentials: [stream("a", 2)], enrollmentIds: ids(5) }));
  assert.deepEqual(
    sends.map((s) => s.limitDay),
    ["2026-03-10", "2026-03-10", "2026-03-11", "2026-03-11", "2026-03-12"],
  );
  assert.equal(sends[0]!.dueAt.getTime(), now.getTime(), "the first send is due at once");
  assert.equal(sends[2]!.dueAt.toISOString(), "2026-03-11T00:00:00.000Z", "the next day starts at midnight UTC");
});

test("sends rotate across credentials and respect each one's limit (jitter scope inbox)", () => {
  const sends = step1(
    planSchedule({ now, minWaitSeconds: 60, maxWaitSeconds: 60, stepDelaysMinutes: [0], credentials: [stream("a", 3), stream("b", 1)], enrollmentIds: ids(6), jitterScope: "inbox" }),
  );
  const perDay = new Map<string, number>();
  for (const s of sends) perDay.set(`${s.credentialId} ${s.limitDay}`, (perDay.get(`${s.credentialId} ${s.limitDay}`) ?? 0) + 1);
  assert.equal(perDay.get("a 2026-03-10"), 3);
  assert.equal(perDay.get("b 2026-03-10"), 1);
  assert.equal(sends.filter((s) => s.limitDay === "2026-03-11").length, 2);
  assert.deepEqual(
    sends
      .slice(0, 2)
      .map((s) => s.credentialId)
      .sort(),
    ["a", "b"],
    "the first two go out on both inboxes at once",
  );
});

test("consecutive sends of one credential are spaced by the jitter range (jitter scope inbox)", () => {
  let r = 0;
  const random = () => (r = (r + 0.37) % 1);
  const sends = step1(planSchedule({ now, minWaitSeconds: 120, maxWaitSeconds: 420, stepDelaysMinutes: [0], credentials: [stream("a", 1000)], enrollmentIds: ids(50), random, jitterScope: "inbox" }));
  for (let i = 1; i < sends.length; i++) {
    const gap = (sends[i]!.dueAt.getTime() - sends[i - 1]!.dueAt.getTime()) / 1000;
    assert.ok(gap >= 120 && gap <= 420, `gap ${gap}`);
  }
});

test("later steps fire at the cumulative delay after step 1 and book no daily limit", () => {
  const sends = planSchedule({ now, minWaitSeconds: 0, maxWaitSeconds: 0, stepDelaysMinutes: [0, 60, 1440], credentials: [stream("a", 10)], enrollmentIds: ["e1"] });
  assert.deepEqual(
    sends.map((s) => [s.stepPosition, s.dueAt.toISOString(), s.limitDay, s.credentialId]),
    [
      [1, "2026-03-10T15:00:00.000Z", "2026-03-10", "a"],
      [2, "2026-03-10T16:00:00.000Z", null, "a"],
      [3, "2026-03-11T16:00:00.000Z", null, "a"],
    ],
  );
});

test("existing bookings and the last scheduled send are honoured", () => {
  const last = new Date(now.getTime() + 3600_000);
  const sends = step1(
    planSchedule({
      now,
      minWaitSeconds: 10,
      maxWaitSeconds: 10,
      stepDelaysMinutes: [0],
      credentials: [stream("a", 3, { booked: new Map([[utcDay(now), 2]]), lastDueAt: last })],
      enrollmentIds: ids(2),
    }),
  );
  assert.equal(sends[0]!.dueAt.getTime(), last.getTime() + 10_000, "continues after the last scheduled send");
  assert.equal(sends[0]!.limitDay, "2026-03-10");
  assert.equal(sends[1]!.limitDay, "2026-03-11", "the day had room for one more only");
});

test("without jitter, inboxes alternate instead of one taking everything", () => {
  const sends = step1(planSchedule({ now, minWaitSeconds: 0, maxWaitSeconds: 0, stepDelaysMinutes: [0], credentials: [stream("a", 100), stream("b", 100)], enrollmentIds: ids(6) }));
  assert.deepEqual(
    sends.map((s) => s.credentialId),
    ["a", "b", "a", "b", "a", "b"],
  );
});
