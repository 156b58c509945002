import assert from "node:assert/strict";
import { test } from "node:test";
import { planSchedule, planScheduleChunk } from "../src/sending/schedule-plan.js";
import { ids, stream } from "./schedule-plan-helpers.js";

const now = new Date("2026-03-10T22:00:00.000Z");

test("a batch planned in chunks, each continuing from the streams the previous one returned, is the batch planned at once", () => {
  // a constant jitter makes the one-shot plan and the chunked plan comparable send by send
  const input = { now, minWaitSeconds: 300, maxWaitSeconds: 300, stepDelaysMinutes: [0, 60 * 24, 60 * 24 * 3], random: () => 0.5 };
  const credentials = [stream("a", 7), stream("b", 5)];
  const whole = planSchedule({ ...input, credentials, enrollmentIds: ids(60) });

  const chunked = [];
  let streams = credentials;
  for (let i = 0; i < 60; i += 12) {
    const chunk = planScheduleChunk({ ...input, credentials: streams, enrollmentIds: ids(60).slice(i, i + 12) });
    chunked.push(...chunk.sends);
    streams = chunk.streams;
  }
  assert.deepEqual(chunked, whole);
  // the streams handed on carry the bookings: 60 step-1 sends, never over a limit
  const booked = streams.flatMap((s) => [...s.booked.entries()].map(([day, n]) => ({ id: s.id, day, n, limit: s.dailyLimit })));
  assert.equal(
    booked.reduce((sum, b) => sum + b.n, 0),
    60,
  );
  for (const b of booked) assert.ok(b.n <= b.limit, `${b.id} ${b.day}: ${b.n} > ${b.limit}`);
  assert.ok(streams.every((s) => s.lastDueAt !== null));
  assert.equal(credentials[0]!.booked.size, 0, "the caller's streams are not changed");
});
