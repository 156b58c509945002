import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { eventsOf, seedCampaign, startEngine, waitFor, type Engine } from "./harness.js";

let engine: Engine;
before(async () => {
  engine = await startEngine();
});
after(() => engine?.stop());

test("a 5xx for the recipient bounces the enrollment, disables the inbox over the threshold and pauses the campaign", async () => {
  const { account, campaign, contacts } = await seedCampaign(engine, { credentials: [{ username: "bouncy", dailyLimit: 100 }], contacts: ["ok1@example.com", "ok2@example.com", "gone@example.com"] });
  engine.smtp.rejectRecipient("gone@example.com", 550, "5.1.1 <gone@example.com>: user unknown");
  await engine.dispatch(account.id, campaign.id);

  await waitFor(async () => (await engine.db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).status === "paused", { what: "the campaign to pause" });
  const bounced = await engine.db.enrollment.findFirstOrThrow({ where: { contactId: contacts[2]!.id } });
  assert.equal(bounced.status, "bounced");
  assert.match(bounced.bounceReason ?? "", /user unknown/);
  const credential = await engine.db.smtpCredential.findFirstOrThrow({ where: { campaignId: campaign.id } });
  assert.ok(credential.disabledAt, "the credential is disabled");
  assert.equal((await engine.db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).pausedReason, "all_credentials_disabled");

  const [bounceEvent] = await eventsOf(engine.db, account.id, "enrollment.bounced");
  assert.deepEqual(
    { ...(bounceEvent!.data as any), sent_at: undefined },
    {
      enrollment_id: bounced.id,
      contact_id: contacts[2]!.id,
      contact_email: "gone@example.com",
      campaign_id: campaign.id,
      status: "bounced",
      sent_at: undefined,
      replied_at: null,
      bounce_reason: bounced.bounceReason,
    },
  );
  const [disabled] = await eventsOf(engine.db, account.id, "credential.disabled");
  const disabledData = disabled!.data as any;
  assert.equal(disabledData.credential_id, credential.id);
  assert.equal(disabledData.from_email, "bouncy@sender.test");
  assert.equal(disabledData.campaign_id, campaign.id);
  assert.equal(disabledData.threshold, 8);
  assert.ok(disabledData.bounce_rate > 8, `bounce_rate ${disabledData.bounce_rate}`);
  const [paused] = await eventsOf(engine.db, account.id, "campaign.paused");
  assert.deepEqual(paused!.data, { campaign_id: campaign.id, name: "Engine test", reason: "all_credentials_disabled" });
  assert.equal((await eventsOf(engine.db, account.id, "credential.disabled")).length, 1, "disabled once");
});

test("with a healthy inbox left, the bad one is disabled and its sends move to the other", async () => {
  const { account, campaign } = await seedCampaign(engine, {
    credentials: [
      { username: "bad-inbox", dailyLimit: 100 },
      { username: "good-inbox", dailyLimit: 100 },
    ],
    contacts: ["bounce-1@example.com", "fine-1@example.com"],
    minWait: 0,
    maxWait: 0,
  });
  engine.smtp.rejectRecipient("bounce-1@example.com", 550, "no such user");
  await engine.dispatch(account.id, campaign.id);
  await waitFor(async () => (await engine.db.smtpCredential.count({ where: { campaignId: campaign.id, disabledAt: { not: null } } })) === 1, { what: "one credential disabled" });
  assert.equal((await engine.db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).status, "active", "not paused while an inbox is left");
  assert.equal((await eventsOf(engine.db, account.id, "campaign.paused")).length, 0);
});

test("a 4xx is not a bounce: the send is retried later and the enrollment stays pending", async () => {
  const { account, campaign, contacts } = await seedCampaign(engine, { credentials: [{ username: "greylisted", dailyLimit: 100 }], contacts: ["later@example.com"] });
  engine.smtp.rejectRecipientTemporarily("later@example.com", 451, "4.7.1 try again later");
  await engine.dispatch(account.id, campaign.id);
  const row = await waitFor(
    async () => {
      const r = await engine.db.stepSend.findFirst({ where: { campaignId: campaign.id } });
      return r && r.state === "scheduled" && r.attempts === 1 ? r : undefined;
    },
    { what: "the send to go back to the schedule" },
  );
  assert.ok(row.dueAt.getTime() > Date.now() + 30_000, "retried after a backoff");
  assert.match(row.lastError ?? "", /try again later/);
  const enrollment = await engine.db.enrollment.findFirstOrThrow({ where: { contactId: contacts[0]!.id } });
  assert.equal(enrollment.status, "pending");
  assert.equal((await eventsOf(engine.db, account.id, "enrollment.bounced")).length, 0);
  assert.equal((await engine.db.smtpCredential.findFirstOrThrow({ where: { campaignId: campaign.id } })).disabledAt, null);
});
