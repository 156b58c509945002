import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { rescheduleHeldSends, unsubscribeContact } from "@outreach/domain";
import { startDnsServer, type DnsTestServer } from "@outreach/testing";
import { eventsOf, seedCampaign, startEngine, waitFor, type Engine } from "./harness.js";

let engine: Engine;
let dns: DnsTestServer;
before(async () => {
  dns = await startDnsServer();
  engine = await startEngine({ DNS_SERVERS: dns.address });
});
after(async () => {
  await engine?.stop();
  await dns?.close();
});

/** Lets the feeder run a few ticks past a moment, so an absence of sends means something. */
async function passFeederTicks(until: Date) {
  await waitFor(() => Date.now() > until.getTime() + 1_000, { timeoutMs: 30_000, what: "time to pass" });
}

test("verify_email_mx: domains without MX are bounced and skipped (mx_invalid), the rest are sent, look-ups are cached", async () => {
  dns.setMx("good-mx.test", [{ exchange: "mx1.good-mx.test", priority: 10 }]);
  dns.setNoMx("no-mx.test");
  dns.setNxDomain("missing.test");
  const { account, campaign, contacts } = await seedCampaign(engine, {
    verifyEmailMx: true,
    credentials: [{ username: "mx-inbox", dailyLimit: 100 }],
    contacts: ["a@good-mx.test", "b@no-mx.test", "c@missing.test", "d@good-mx.test"],
  });
  await engine.dispatch(account.id, campaign.id);
  await waitFor(() => engine.smtp.messages.filter((m) => m.username === "mx-inbox").length === 2, { what: "the two good addresses" });
  assert.deepEqual(
    engine.smtp.messages
      .filter((m) => m.username === "mx-inbox")
      .map((m) => m.envelope.to[0])
      .sort(),
    ["a@good-mx.test", "d@good-mx.test"],
  );

  const skips = await engine.db.enrollmentSkip.findMany({ where: { campaignId: campaign.id }, orderBy: { reason: "asc" } });
  assert.deepEqual(
    skips.map((s) => [s.kind, s.reason]),
    [
      ["mx_invalid", "no MX record for missing.test"],
      ["mx_invalid", "no MX record for no-mx.test"],
    ],
  );
  for (const contact of [contacts[1]!, contacts[2]!]) {
    const enrollment = await engine.db.enrollment.findFirstOrThrow({ where: { contactId: contact.id } });
    assert.equal(enrollment.status, "bounced");
    assert.equal(await engine.db.stepSend.count({ where: { enrollmentId: enrollment.id } }), 0, "never scheduled");
  }
  assert.equal((await eventsOf(engine.db, account.id, "enrollment.bounced")).length, 2);
  assert.equal(dns.queryCount("good-mx.test"), 1, "one look-up for two contacts of the domain");
});

test("a paused campaign sends nothing more; resume plans what was held from now", async () => {
  const { account, campaign } = await seedCampaign(engine, { credentials: [{ username: "pausable", dailyLimit: 100 }], contacts: 3, minWait: 2, maxWait: 2 });
  await engine.dispatch(account.id, campaign.id);
  await waitFor(() => engine.smtp.messages.some((m) => m.username === "pausable"), { what: "the first email" });
  await engine.db.campaign.update({ where: { id: campaign.id }, data: { status: "paused", pausedReason: "manual" } });
  const held = await engine.db.stepSend.findMany({ where: { campaignId: campaign.id, state: "scheduled" }, orderBy: { dueAt: "desc" } });
  assert.equal(held.length, 2);
  await passFeederTicks(held[0]!.dueAt);
  assert.equal(engine.smtp.messages.filter((m) => m.username === "pausable").length, 1, "nothing sent while paused");

  const resumedAt = new Date();
  await engine.db.$transaction(async (tx) => {
    await tx.campaign.update({ where: { id: campaign.id }, data: { status: "active", pausedReason: null } });
    await rescheduleHeldSends(tx, campaign.id);
  });
  const replanned = await engine.db.stepSend.findMany({ where: { campaignId: campaign.id, stepPosition: 1, sentAt: null } });
  assert.ok(
    replanned.every((r) => r.dueAt >= resumedAt),
    "held sends were planned again from the resume",
  );
  await waitFor(() => engine.smtp.messages.filter((m) => m.username === "pausable").length === 3, { timeoutMs: 20_000, what: "the held emails after resume" });
});

test("unsubscribing stops the steps that have not gone out", async () => {
  const { account, campaign, contacts } = await seedCampaign(engine, {
    credentials: [{ username: "unsub-inbox", dailyLimit: 100 }],
    steps: [{ subject: "First" }, { subject: "Second", delayMinutes: 1 }],
    contacts: ["leaving@example.com"],
  });
  await engine.dispatch(account.id, campaign.id);
  await waitFor(async () => (await engine.db.stepSend.count({ where: { campaignId: campaign.id, state: "sent" } })) === 1, { what: "step 1" });
  await unsubscribeContact(engine.db, contacts[0]!.id);
  const second = await engine.db.stepSend.findFirstOrThrow({ where: { campaignId: campaign.id, stepPosition: 2 } });
  assert.equal(second.state, "cancelled");
  // even when its time comes, it does not go out
  await engine.db.stepSend.update({ where: { id: second.id }, data: { dueAt: new Date() } });
  await passFeederTicks(new Date());
  assert.equal(engine.smtp.messagesTo("leaving@example.com").length, 1);
  assert.equal((await eventsOf(engine.db, account.id, "enrollment.unsubscribed")).length, 1);
});
