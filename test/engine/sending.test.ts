import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { eventsOf, seedCampaign, startEngine, waitFor, type Engine } from "./harness.js";

let engine: Engine;
before(async () => {
  engine = await startEngine();
});
after(() => engine?.stop());

test("daily_limit 2 with 5 enrollments: 2 go out today, 3 are scheduled on the following days", async () => {
  const { account, campaign, contacts } = await seedCampaign(engine, {
    credentials: [{ username: "daily2", dailyLimit: 2 }],
    contacts: ["d1@example.com", "d2@example.com", "d3@example.com", "d4@example.com", "d5@example.com"],
  });
  await engine.dispatch(account.id, campaign.id);
  await waitFor(() => engine.smtp.messages.filter((m) => m.username === "daily2").length >= 2, { what: "two emails" });
  const rows = await engine.db.stepSend.findMany({ where: { campaignId: campaign.id }, orderBy: { dueAt: "asc" } });
  await waitFor(async () => (await engine.db.stepSend.count({ where: { campaignId: campaign.id, state: "sent" } })) === 2, { what: "two sends recorded" });
  const today = new Date().toISOString().slice(0, 10);
  assert.deepEqual(rows.map((r) => r.limitDay?.toISOString().slice(0, 10)).filter((d) => d === today).length, 2);
  assert.equal(rows.filter((r) => r.state === "scheduled" || r.dueAt > new Date()).length, 3);
  // nothing more arrives: the other three wait for their days
  assert.equal(engine.smtp.messages.filter((m) => m.username === "daily2").length, 2);
  const sentTo = engine.smtp.messages.filter((m) => m.username === "daily2").map((m) => m.envelope.to[0]);
  assert.deepEqual(sentTo.sort(), [contacts[0]!.email, contacts[1]!.email].sort(), "in enrollment order");
  assert.equal((await eventsOf(engine.db, account.id, "enrollment.sent")).length, 2);
  const usage = await engine.db.usagePeriod.findFirst({ where: { accountId: account.id } });
  assert.equal(usage?.sends, 2, "counted against the billing period");
});

test("sends rotate across the campaign's credentials", async () => {
  const { account, campaign } = await seedCampaign(engine, {
    credentials: [
      { username: "rot-a", dailyLimit: 100 },
      { username: "rot-b", dailyLimit: 100 },
    ],
    contacts: 6,
  });
  await engine.dispatch(account.id, campaign.id);
  await waitFor(() => engine.smtp.messages.filter((m) => m.username?.startsWith("rot-")).length === 6, { what: "six emails" });
  const byInbox = new Map<string, number>();
  for (const m of engine.smtp.messages.filter((m) => m.username?.startsWith("rot-"))) byInbox.set(m.username!, (byInbox.get(m.username!) ?? 0) + 1);
  assert.deepEqual(Object.fromEntries(byInbox), { "rot-a": 3, "rot-b": 3 });
});

test("a two-step sequence threads: Message-ID, In-Reply-To, References, Re: subject, pixel, unsubscribe", async () => {
  const { account, campaign, contacts } = await seedCampaign(engine, {
    credentials: [{ username: "thread", dailyLimit: 100 }],
    steps: [{ subject: "Quick question, {{first_name}}" }, { subject: "", delayMinutes: 0 }],
    contacts: ["threaded@example.com"],
  });
  await engine.dispatch(account.id, campaign.id);
  const [first, second] = await waitFor(
    () => {
      const mine = engine.smtp.messagesTo(contacts[0]!.email);
      return mine.length === 2 ? mine : undefined;
    },
    { what: "both steps" },
  );
  assert.equal(first!.parsed.subject, "Quick question, First1");
  assert.equal(second!.parsed.subject, "Re: Quick question, First1");
  assert.ok(first!.parsed.messageId);
  assert.notEqual(first!.parsed.messageId, second!.parsed.messageId);
  assert.equal(second!.parsed.inReplyTo, first!.parsed.messageId);
  assert.deepEqual([second!.parsed.references].flat(), [first!.parsed.messageId]);
  const header = (name: string) =>
    first!.parsed.headerLines
      .find((h) => h.key === name)
      ?.line.replace(/\r?\n\s+/g, " ")
      .replace(/^[^:]+:\s*/, "");
  assert.match(String(header("list-unsubscribe")), /^<http:\/\/outreach\.test\/u\/[A-Za-z0-9_-]+>, <mailto:thread@sender\.test\?subject=unsubscribe>$/);
  assert.equal(header("list-unsubscribe-post"), "List-Unsubscribe=One-Click");
  assert.match(String(first!.parsed.html), /<img src="http:\/\/outreach\.test\/t\/o\/[A-Za-z0-9_-]+\.gif"/);
  assert.match(String(first!.parsed.html), /href="http:\/\/outreach\.test\/u\/[A-Za-z0-9_-]+"[^>]*>Unsubscribe</);
  assert.match(String(first!.parsed.text), /Step 1 for First1/);
  assert.match(String(first!.parsed.text), /Unsubscribe: http:\/\/outreach\.test\/u\//);
  // the SMTP server has the email a moment before the sender has recorded it
  const rows = await waitFor(
    async () => {
      const found = await engine.db.stepSend.findMany({ where: { campaignId: campaign.id }, orderBy: { stepPosition: "asc" } });
      return found.every((r) => r.state === "sent") ? found : undefined;
    },
    { what: "both sends recorded" },
  );
  assert.deepEqual(
    rows.map((r) => [r.stepPosition, r.state, r.messageId]),
    [
      [1, "sent", first!.parsed.messageId],
      [2, "sent", second!.parsed.messageId],
    ],
  );
});

test("later steps are scheduled at the cumulative delay and wait for it", async () => {
  const { account, campaign } = await seedCampaign(engine, {
    credentials: [{ username: "delays", dailyLimit: 100 }],
    steps: [{ subject: "One" }, { subject: "Two", delayMinutes: 60 }, { subject: "Three", delayMinutes: 1440 }],
    contacts: 1,
  });
  await engine.dispatch(account.id, campaign.id);
  await waitFor(() => engine.smtp.messages.some((m) => m.username === "delays"), { what: "step 1" });
  await waitFor(async () => (await engine.db.stepSend.count({ where: { campaignId: campaign.id, state: "sent" } })) === 1, { what: "step 1 recorded" });
  const rows = await engine.db.stepSend.findMany({ where: { campaignId: campaign.id }, orderBy: { stepPosition: "asc" } });
  const minutes = (a: Date, b: Date) => Math.round((a.getTime() - b.getTime()) / 60_000);
  assert.equal(minutes(rows[1]!.dueAt, rows[0]!.dueAt), 60);
  assert.equal(minutes(rows[2]!.dueAt, rows[0]!.dueAt), 60 + 1440);
  assert.deepEqual(
    rows.map((r) => r.state),
    ["sent", "scheduled", "scheduled"],
  );
  assert.deepEqual(
    rows.map((r) => r.limitDay === null),
    [false, true, true],
    "only step 1 books the daily limit",
  );
});

test("enrollment.sent carries the enrollment as it is after the send", async () => {
  const { account, campaign, contacts } = await seedCampaign(engine, { credentials: [{ username: "event-data", dailyLimit: 10 }], contacts: ["event@example.com"] });
  await engine.dispatch(account.id, campaign.id);
  const [event] = await waitFor(
    async () => {
      const found = await engine.db.event.findMany({ where: { accountId: account.id, type: "enrollment.sent" } });
      return found.length ? found : undefined;
    },
    { what: "the event" },
  );
  const enrollment = await engine.db.enrollment.findFirstOrThrow({ where: { campaignId: campaign.id } });
  assert.deepEqual(event!.data, {
    enrollment_id: enrollment.id,
    contact_id: contacts[0]!.id,
    contact_email: "event@example.com",
    campaign_id: campaign.id,
    status: "sent",
    sent_at: enrollment.sentAt!.toISOString(),
    replied_at: null,
    bounce_reason: null,
    variant_id: null,
  });
});
