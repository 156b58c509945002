import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { seedCampaign, startEngine, waitFor, type Engine } from "./harness.js";

// A send is released when it is due, inside its window; one picked up after the
// window closed (a backlog, no free session) must wait for the next opening, not
// go out at night.
let engine: Engine;
before(async () => {
  engine = await startEngine();
});
after(async () => {
  await engine?.stop();
});

const hhmm = (d: Date) => d.toISOString().slice(11, 16);

test("a step 1 due inside its window but picked up after it closed waits for the next opening, unsent and without spending an attempt", async () => {
  const { account, campaign, contacts } = await seedCampaign(engine, { credentials: [{ username: "window-inbox", dailyLimit: 100 }], contacts: ["late@example.com", "open@example.com"] });
  const now = new Date();
  // every day, a window opening two hours from now and closing an hour later (UTC): now is outside it
  const opensAt = new Date(now.getTime() + 2 * 3600_000);
  const schedule = {
    timezone: "UTC",
    days: ["mon", "tue", "wed", "thu", "fri", "sat", "sun"],
    start_time: hhmm(opensAt),
    end_time: hhmm(new Date(opensAt.getTime() + 3600_000)),
    use_contact_timezone: false,
  };
  await engine.db.campaign.update({ where: { id: campaign.id }, data: { status: "active", schedule } });
  const credential = await engine.db.smtpCredential.findFirstOrThrow({ where: { campaignId: campaign.id } });
  const enrollment = await engine.db.enrollment.findFirstOrThrow({ where: { contactId: contacts[0]!.id } });
  // as planned inside yesterday's window, and left behind
  const send = await engine.db.stepSend.create({
    data: {
      accountId: account.id,
      campaignId: campaign.id,
      enrollmentId: enrollment.id,
      stepPosition: 1,
      credentialId: credential.id,
      state: "scheduled",
      dueAt: new Date(now.getTime() - 60_000),
      limitDay: new Date(now.toISOString().slice(0, 10)),
    },
  });

  await waitFor(async () => (await engine.db.stepSend.findUniqueOrThrow({ where: { id: send.id } })).lastError === "outside the sending window", { what: "the sender to defer the send" });
  const deferred = await engine.db.stepSend.findUniqueOrThrow({ where: { id: send.id } });
  assert.equal(deferred.state, "scheduled");
  assert.equal(deferred.attempts, 0);
  const expected = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), opensAt.getUTCHours(), opensAt.getUTCMinutes()));
  if (expected < now) expected.setUTCDate(expected.getUTCDate() + 1);
  assert.equal(deferred.dueAt.toISOString(), expected.toISOString(), "the next opening of the window");
  assert.equal(deferred.limitDay?.toISOString().slice(0, 10), expected.toISOString().slice(0, 10), "counted on the day it now goes out");
  assert.equal(engine.smtp.messages.filter((m) => m.username === "window-inbox").length, 0, "nothing sent outside the window");
});
