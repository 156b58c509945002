import assert from "node:assert/strict";
import { test } from "node:test";
import { localDay, nextOpening, openingFromDay, parseSchedule, scheduleZone, sendDay, type SendSchedule } from "../src/sending/send-window.js";

const weekdays: SendSchedule = { timezone: "America/New_York", days: ["mon", "tue", "wed", "thu", "fri"], startTime: "09:00", endTime: "17:00", useContactTimezone: false };
const iso = (d: Date) => d.toISOString();

test("the stored schedule object is read back, null means any time", () => {
  assert.equal(parseSchedule(null), null);
  assert.deepEqual(parseSchedule({ timezone: "America/New_York", days: ["mon", "tue", "wed", "thu", "fri"], start_time: "09:00", end_time: "17:00", use_contact_timezone: false }), weekdays);
  assert.equal(nextOpening(null, "UTC", new Date("2026-11-21T03:00:00Z")).toISOString(), "2026-11-21T03:00:00.000Z");
});

test("a Friday evening in New York opens on Monday 09:00 New York time; inside the window a time stays", () => {
  // Friday 2026-11-20 18:30 EST
  assert.equal(iso(nextOpening(weekdays, "America/New_York", new Date("2026-11-20T23:30:00Z"))), "2026-11-23T14:00:00.000Z");
  // Friday 10:00 EST is inside
  assert.equal(iso(nextOpening(weekdays, "America/New_York", new Date("2026-11-20T15:00:00Z"))), "2026-11-20T15:00:00.000Z");
  // Monday 07:00 EST: opens at 09:00 the same day
  assert.equal(iso(nextOpening(weekdays, "America/New_York", new Date("2026-11-23T12:00:00Z"))), "2026-11-23T14:00:00.000Z");
  // 17:00 is the end: closed
  assert.equal(iso(nextOpening(weekdays, "America/New_York", new Date("2026-11-23T22:00:00Z"))), "2026-11-24T14:00:00.000Z");
});

test("the contact's zone applies with use_contact_timezone, the campaign's otherwise or when the contact has none", () => {
  assert.equal(scheduleZone(null, "Europe/Berlin"), "UTC");
  assert.equal(scheduleZone(weekdays, "Europe/Berlin"), "America/New_York");
  const own = { ...weekdays, useContactTimezone: true };
  assert.equal(scheduleZone(own, "Europe/Berlin"), "Europe/Berlin");
  assert.equal(scheduleZone(own, null), "America/New_York");
  // Friday 18:30 in New York is Saturday 00:30 in Berlin: Berlin's Monday 09:00 CET
  assert.equal(iso(nextOpening(own, "Europe/Berlin", new Date("2026-11-20T23:30:00Z"))), "2026-11-23T08:00:00.000Z");
});

test("a window crossing midnight belongs to the day it starts on", () => {
  const night: SendSchedule = { timezone: "Asia/Tokyo", days: ["fri"], startTime: "22:00", endTime: "02:00", useContactTimezone: false };
  // Friday 2026-11-20 21:00 JST: opens at 22:00 (13:00Z)
  assert.equal(iso(nextOpening(night, "Asia/Tokyo", new Date("2026-11-20T12:00:00Z"))), "2026-11-20T13:00:00.000Z");
  // Saturday 01:00 JST is still Friday's window, and counts on Friday
  const saturdayOne = new Date("2026-11-20T16:00:00Z");
  assert.equal(iso(nextOpening(night, "Asia/Tokyo", saturdayOne)), iso(saturdayOne));
  assert.equal(localDay("Asia/Tokyo", saturdayOne), "2026-11-21");
  assert.equal(sendDay(night, "Asia/Tokyo", saturdayOne), "2026-11-20");
  // Saturday 02:00 JST: closed until next Friday 22:00
  assert.equal(iso(nextOpening(night, "Asia/Tokyo", new Date("2026-11-20T17:00:00Z"))), "2026-11-27T13:00:00.000Z");
  // the next window day after Friday's
  assert.equal(iso(openingFromDay(night, "Asia/Tokyo", "2026-11-21")), "2026-11-27T13:00:00.000Z");
});

test("DST: the window follows the wall clock across the change", () => {
  const daily: SendSchedule = { ...weekdays, days: ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] };
  // 2026-11-01 the US leaves daylight time: 09:00 is 13:00Z on Saturday, 14:00Z on Sunday
  assert.equal(iso(openingFromDay(daily, "America/New_York", "2026-10-31")), "2026-10-31T13:00:00.000Z");
  assert.equal(iso(openingFromDay(daily, "America/New_York", "2026-11-01")), "2026-11-01T14:00:00.000Z");
  // 2026-03-08 02:30 does not exist in New York: the window opens at the first valid instant after the gap
  const early: SendSchedule = { ...daily, startTime: "02:30", endTime: "05:00" };
  assert.equal(iso(nextOpening(early, "America/New_York", new Date("2026-03-08T05:00:00Z"))), "2026-03-08T07:30:00.000Z");
  assert.equal(openingFromDay(null, "UTC", "2026-03-08").toISOString(), "2026-03-08T00:00:00.000Z");
});

test("nextOpening and sendDay agree with a direct computation for times asked in any order (the window cache)", async () => {
  const { DateTime } = await import("luxon");
  const weekdayNames = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];
  const schedules: SendSchedule[] = [
    weekdays,
    { timezone: "Europe/London", days: ["sat", "sun", "wed"], startTime: "22:30", endTime: "03:15", useContactTimezone: false },
    { timezone: "Australia/Lord_Howe", days: ["mon", "sun"], startTime: "01:00", endTime: "01:00", useContactTimezone: false },
  ];
  let r = 0.42;
  const random = () => (r = (r * 7919 + 0.1234567) % 1);
  for (const schedule of schedules) {
    const zone = schedule.timezone;
    const windows = (at: Date) => {
      const today = DateTime.fromJSDate(at, { zone }).startOf("day");
      const found: Array<{ start: number; end: number; day: string }> = [];
      for (let i = -1; i <= 8; i++) {
        const d = today.plus({ days: i });
        if (!schedule.days.includes(weekdayNames[d.weekday - 1] as never)) continue;
        const [sh, sm] = schedule.startTime.split(":").map(Number);
        const [eh, em] = schedule.endTime.split(":").map(Number);
        const start = DateTime.fromObject({ year: d.year, month: d.month, day: d.day, hour: sh, minute: sm }, { zone });
        const e = schedule.endTime <= schedule.startTime ? d.plus({ days: 1 }) : d;
        const end = DateTime.fromObject({ year: e.year, month: e.month, day: e.day, hour: eh, minute: em }, { zone });
        found.push({ start: start.toMillis(), end: end.toMillis(), day: d.toISODate()! });
      }
      return found;
    };
    for (let i = 0; i < 300; i++) {
      const at = new Date(Date.UTC(2026, 0, 1) + Math.floor(random() * 365 * 86_400_000));
      const ws = windows(at);
      const inside = ws.find((w) => w.start <= at.getTime() && at.getTime() < w.end);
      const expected = inside ? at.getTime() : Math.min(...ws.filter((w) => w.start > at.getTime()).map((w) => w.start));
      assert.equal(nextOpening(schedule, zone, at).getTime(), expected, `${zone} ${at.toISOString()}`);
      assert.equal(sendDay(schedule, zone, at), inside ? inside.day : localDay(zone, at), `${zone} ${at.toISOString()}`);
    }
  }
});
