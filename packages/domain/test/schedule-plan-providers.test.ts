import assert from "node:assert/strict";
import { test } from "node:test";
import type { RecipientProvider } from "../src/audience/mail-provider.js";
import { planSchedule, type JitterScope } from "../src/sending/schedule-plan.js";
import { ids, step1, stream } from "./schedule-plan-helpers.js";

const now = new Date("2026-03-10T15:00:00.000Z");

/** e1..e6: Google, none, Google, Microsoft, Google, Google. */
const providers = new Map<string, RecipientProvider>([
  ["e1", "google"],
  ["e3", "google"],
  ["e4", "microsoft"],
  ["e5", "google"],
  ["e6", "google"],
]);

const plan = (jitterScope: JitterScope, googleLimit: number, recipientProviders: Map<string, RecipientProvider> | undefined = providers) =>
  step1(
    planSchedule({
      now,
      minWaitSeconds: 60,
      maxWaitSeconds: 60,
      stepDelaysMinutes: [0, 1440],
      credentials: [stream("g", googleLimit, { provider: "google" }), stream("m", 100, { provider: "microsoft" }), stream("o", 100, { provider: "other" })],
      enrollmentIds: ids(6),
      jitterScope,
      recipientProviders,
    }),
  );

const byEnrollment = (sends: ReturnType<typeof plan>) => Object.fromEntries(sends.map((s) => [s.enrollmentId, s.credentialId]));

for (const scope of ["batch", "inbox"] as const) {
  test(`recipients go to an inbox of their provider when it has room that day (jitter scope ${scope})`, () => {
    const sends = plan(scope, 100);
    const chosen = byEnrollment(sends);
    assert.deepEqual([chosen.e1, chosen.e3, chosen.e5, chosen.e6], ["g", "g", "g", "g"]);
    assert.equal(chosen.e4, "m");
    assert.ok(
      sends.every((s) => s.limitDay === "2026-03-10"),
      "all today",
    );
  });

  test(`with the provider's inbox at its daily limit, its recipients go to another inbox the same day (jitter scope ${scope})`, () => {
    const sends = plan(scope, 2);
    const chosen = byEnrollment(sends);
    assert.deepEqual([chosen.e1, chosen.e3], ["g", "g"]);
    assert.notEqual(chosen.e5, "g");
    assert.notEqual(chosen.e6, "g");
    assert.ok(
      sends.every((s) => s.limitDay === "2026-03-10"),
      "nobody waits for the Google inbox's next day",
    );
    assert.equal(sends.filter((s) => s.credentialId === "g").length, 2, "the daily limit holds");
  });
}

test("without recipient providers the inboxes take turns as before", () => {
  const chosen = plan("batch", 100, new Map()).map((s) => s.credentialId);
  assert.deepEqual(chosen, ["g", "m", "o", "g", "m", "o"]);
});
