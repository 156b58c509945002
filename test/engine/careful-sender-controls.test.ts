import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { enrollMany, seedCampaign, startEngine, waitFor, type Engine } from "./harness.js";

// The controls careful senders use, read from the emails the SMTP server received:
// text-only steps, the custom unsubscribe footer, the schedule's skip dates.
let engine: Engine;
before(async () => {
  engine = await startEngine();
});
after(async () => {
  await engine?.stop();
});

const received = (username: string) => engine.smtp.messages.filter((m) => m.username === username);
/** A header line as received, unfolded. */
const header = (message: (typeof engine.smtp.messages)[number], key: string) => message.parsed.headerLines.find((h) => h.key === key)?.line.replace(/\r?\n[ \t]+/g, " ");
const EVERY_DAY = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];

test("a text-only step arrives as text/plain alone (no HTML part, pixel or redirect) with its unsubscribe URL and headers; the custom footer is in both parts of an HTML step", async () => {
  const { account, campaign } = await seedCampaign(engine, {
    credentials: [{ username: "text-inbox", dailyLimit: 100 }],
    steps: [
      { subject: "Plain {{first_name}}", bodyHtml: `<p>Hello {{first_name}},</p><p>see <a href="https://acme.test/pricing">our pricing</a>.</p>` },
      { subject: "", bodyHtml: `<p>Following up, <a href="https://acme.test/demo">book a demo</a>.</p>` },
    ],
    contacts: ["ann@example.com"],
  });
  await engine.db.campaign.update({ where: { id: campaign.id }, data: { trackClicks: true, unsubscribeFooter: "Tom & Jerry's list: {{unsubscribe_url}} to stop." } });
  await engine.db.sequenceStep.updateMany({ where: { campaignId: campaign.id, position: 1 }, data: { textOnly: true } });
  await engine.dispatch(account.id, campaign.id);
  await waitFor(() => received("text-inbox").length === 2, { timeoutMs: 30_000, what: "both steps received" });

  const [first, second] = received("text-inbox").sort((a, b) => (a.parsed.subject!.startsWith("Re:") ? 1 : 0) - (b.parsed.subject!.startsWith("Re:") ? 1 : 0));
  // step 1: text/plain only
  assert.equal(first!.parsed.subject, "Plain First1");
  assert.equal(first!.parsed.html, false, "no HTML part");
  assert.match(header(first!, "content-type") ?? "", /^Content-Type: text\/plain/i);
  const text = first!.parsed.text!;
  assert.match(text, /Hello First1,/);
  assert.match(text, /https:\/\/acme\.test\/pricing/, "the link as written, not the redirect");
  assert.doesNotMatch(first!.raw.toString(), /\/t\/[oc]\//, "no open pixel, no click redirect anywhere");
  const unsubscribe = /^Tom & Jerry's list: (http:\/\/outreach\.test\/u\/\S+) to stop\.$/m.exec(text);
  assert.ok(unsubscribe, text);
  const listUnsubscribe = header(first!, "list-unsubscribe");
  assert.ok(listUnsubscribe?.includes(`<${unsubscribe[1]}>`), listUnsubscribe);
  assert.equal(header(first!, "list-unsubscribe-post"), "List-Unsubscribe-Post: List-Unsubscribe=One-Click");

  // step 2: HTML with the pixel and the redirect, the custom footer escaped with the link in it, and in the text part
  const html = second!.parsed.html as string;
  assert.match(html, /\/t\/o\//, "the open pixel");
  assert.match(html, /\/t\/c\//, "the click redirect");
  const link = /Tom &amp; Jerry(?:&#39;|')s list: <a href="(http:\/\/outreach\.test\/u\/[^"]+)"[^>]*>\1<\/a> to stop\./.exec(html);
  assert.ok(link, html);
  assert.match(second!.parsed.text!, new RegExp(`Tom & Jerry's list: ${link[1]!.replace(/[.?/]/g, "\\$&")} to stop\\.`));
  assert.ok(header(second!, "list-unsubscribe")?.includes(`<${link[1]}>`));
  assert.equal(header(second!, "list-unsubscribe-post"), "List-Unsubscribe-Post: List-Unsubscribe=One-Click");
  await waitFor(async () => (await engine.db.stepSend.count({ where: { campaignId: campaign.id, state: "sent" } })) === 2, { what: "both sends recorded" });
});

test("today is a skip date in the schedule's zone: nothing is sent, step 1 and the follow-up are planned on the next day", async () => {
  const { account, campaign } = await seedCampaign(engine, {
    credentials: [{ username: "holiday-inbox", dailyLimit: 100 }],
    steps: [{ subject: "Hello" }, { subject: "", delayMinutes: 60 }],
    contacts: ["h1@example.com", "h2@example.com"],
  });
  const zone = "Pacific/Kiritimati";
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date());
  const tomorrow = new Date(Date.parse(`${today}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  // the whole day open every day, but today is a holiday
  const schedule = { timezone: zone, days: EVERY_DAY, start_time: "00:00", end_time: "00:00", use_contact_timezone: false, skip_dates: [today] };
  await engine.db.campaign.update({ where: { id: campaign.id }, data: { schedule } });
  await engine.dispatch(account.id, campaign.id);
  await waitFor(async () => (await engine.db.stepSend.count({ where: { campaignId: campaign.id } })) === 4, { what: "the sends planned" });

  const sends = await engine.db.stepSend.findMany({ where: { campaignId: campaign.id }, orderBy: [{ stepPosition: "asc" }, { dueAt: "asc" }] });
  // midnight of tomorrow in Kiritimati (UTC+14) is 10:00 UTC today
  const opening = new Date(Date.parse(`${tomorrow}T00:00:00Z`) - 14 * 3600_000);
  for (const send of sends.filter((s) => s.stepPosition === 1)) {
    assert.equal(send.dueAt.toISOString(), opening.toISOString(), "step 1 at the next open day's opening");
    assert.equal(send.limitDay?.toISOString().slice(0, 10), tomorrow, "counted on the next day");
    assert.equal(send.state, "scheduled");
  }
  for (const send of sends.filter((s) => s.stepPosition === 2)) assert.ok(send.dueAt.getTime() >= opening.getTime() + 3600_000, "the follow-up after it");
  assert.equal(received("holiday-inbox").length, 0, "nothing sent on the skip date");
});

test("a campaign daily_limit of 4 over 3 inboxes of 10 a day: exactly 4 step-1 emails today, two batches dispatched at once included; the rest planned 4 a day from tomorrow", async () => {
  const inboxes = ["cap-1", "cap-2", "cap-3"];
  const { account, campaign } = await seedCampaign(engine, {
    credentials: inboxes.map((username) => ({ username, dailyLimit: 10 })),
    steps: [{ subject: "Capped" }, { subject: "", delayMinutes: 5 }],
    contacts: 10,
  });
  await enrollMany(engine.db, account.id, campaign.id, 10, "cap-second", 2);
  await engine.db.campaign.update({ where: { id: campaign.id }, data: { dailyLimit: 4 } });
  // two dispatch jobs at once: the planners take turns on the campaign's lock
  await Promise.all([engine.dispatch(account.id, campaign.id, 1), engine.dispatch(account.id, campaign.id, 2)]);
  await waitFor(async () => (await engine.db.stepSend.count({ where: { campaignId: campaign.id, stepPosition: 1 } })) === 20, { timeoutMs: 30_000, what: "both batches planned" });
  await waitFor(async () => (await engine.db.stepSend.count({ where: { campaignId: campaign.id, stepPosition: 1, state: "sent" } })) === 4, { timeoutMs: 30_000, what: "today's 4 sent" });

  const today = new Date().toISOString().slice(0, 10);
  const step1 = await engine.db.stepSend.findMany({ where: { campaignId: campaign.id, stepPosition: 1 } });
  const perDay = new Map<string, number>();
  for (const s of step1) perDay.set(s.limitDay!.toISOString().slice(0, 10), (perDay.get(s.limitDay!.toISOString().slice(0, 10)) ?? 0) + 1);
  assert.deepEqual([...perDay.values()], [4, 4, 4, 4, 4], `4 a day: ${JSON.stringify([...perDay])}`);
  assert.equal(perDay.get(today), 4);
  const tomorrow = new Date(`${today}T00:00:00Z`).getTime() + 86_400_000;
  for (const s of step1.filter((s) => s.limitDay!.toISOString().slice(0, 10) !== today)) {
    assert.equal(s.state, "scheduled");
    assert.ok(s.dueAt.getTime() >= tomorrow, "planned on a later day");
  }
  // every inbox had room (10 a day each): the campaign's cap is what held them
  const step1Received = engine.smtp.messages.filter((m) => inboxes.includes(m.username!) && m.parsed.subject === "Capped");
  assert.equal(step1Received.length, 4);
});

test("an inbox paused by a spike sends nothing until paused_until: its due sends go out through the other inbox; with every inbox paused they wait, spending no attempt", async () => {
  const { account, campaign } = await seedCampaign(engine, {
    credentials: [
      { username: "paused-inbox", dailyLimit: 100 },
      { username: "open-inbox", dailyLimit: 100 },
    ],
    contacts: ["p1@example.com", "p2@example.com", "p3@example.com"],
  });
  await engine.db.campaign.update({ where: { id: campaign.id }, data: { status: "active" } });
  const [paused, open] = await engine.db.smtpCredential.findMany({ where: { campaignId: campaign.id }, orderBy: { createdAt: "asc" } });
  const pausedUntil = new Date(Date.now() + 86_400_000);
  await engine.db.smtpCredential.update({ where: { id: paused!.id }, data: { pausedUntil, pausedReason: "bounce spike: 3 bounces of 20 sends in 24 h (15%, half the threshold is 12.5%)" } });
  const enrollments = await engine.db.enrollment.findMany({ where: { campaignId: campaign.id }, orderBy: { createdAt: "asc" } });
  const due = async (enrollmentId: string, credentialId: string) =>
    engine.db.stepSend.create({
      data: {
        accountId: account.id,
        campaignId: campaign.id,
        enrollmentId,
        stepPosition: 1,
        credentialId,
        state: "scheduled",
        dueAt: new Date(Date.now() - 1000),
        limitDay: new Date(new Date().toISOString().slice(0, 10)),
      },
    });
  // planned on the paused inbox (before its pause)
  for (const e of enrollments.slice(0, 2)) await due(e.id, paused!.id);
  await waitFor(() => received("open-inbox").length === 2, { timeoutMs: 30_000, what: "the paused inbox's sends through the other one" });
  assert.equal(received("paused-inbox").length, 0, "nothing through the paused inbox");

  // every inbox paused: the send waits, unsent, its attempt given back
  await engine.db.smtpCredential.update({ where: { id: open!.id }, data: { pausedUntil } });
  const waiting = await due(enrollments[2]!.id, open!.id);
  await waitFor(async () => (await engine.db.stepSend.findUniqueOrThrow({ where: { id: waiting.id } })).lastError === "no enabled credential", { what: "the send held" });
  const held = await engine.db.stepSend.findUniqueOrThrow({ where: { id: waiting.id } });
  assert.equal(held.state, "scheduled");
  assert.equal(held.attempts, 0);
  assert.equal(received("paused-inbox").length + received("open-inbox").length, 2);
});

test("with a campaign daily_limit of 1, two step-1 sends picked up after their window closed are deferred onto two days, spending no attempt", async () => {
  const { account, campaign } = await seedCampaign(engine, { credentials: [{ username: "late-cap-inbox", dailyLimit: 100 }], contacts: ["l1@example.com", "l2@example.com"] });
  const now = new Date();
  const hhmm = (d: Date) => d.toISOString().slice(11, 16);
  // every day, a window opening two hours from now and closing an hour later (UTC): now is outside it
  const opensAt = new Date(now.getTime() + 2 * 3600_000);
  const schedule = { timezone: "UTC", days: EVERY_DAY, start_time: hhmm(opensAt), end_time: hhmm(new Date(opensAt.getTime() + 3600_000)), use_contact_timezone: false };
  await engine.db.campaign.update({ where: { id: campaign.id }, data: { status: "active", schedule, dailyLimit: 1 } });
  const credential = await engine.db.smtpCredential.findFirstOrThrow({ where: { campaignId: campaign.id } });
  const enrollments = await engine.db.enrollment.findMany({ where: { campaignId: campaign.id } });
  const sends: Array<{ id: string }> = [];
  for (const e of enrollments) {
    sends.push(
      await engine.db.stepSend.create({
        data: {
          accountId: account.id,
          campaignId: campaign.id,
          enrollmentId: e.id,
          stepPosition: 1,
          credentialId: credential.id,
          state: "scheduled",
          dueAt: new Date(now.getTime() - 60_000),
          limitDay: new Date(now.toISOString().slice(0, 10)),
        },
      }),
    );
  }
  const rows = () => engine.db.stepSend.findMany({ where: { id: { in: sends.map((s) => s.id) } } });
  await waitFor(async () => (await rows()).every((s) => s.lastError === "outside the sending window"), { what: "both sends deferred" });
  const deferred = await rows();
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), opensAt.getUTCHours(), opensAt.getUTCMinutes()));
  if (first < now) first.setUTCDate(first.getUTCDate() + 1);
  const second = new Date(first.getTime() + 86_400_000);
  assert.deepEqual(deferred.map((s) => s.dueAt.toISOString()).sort(), [first.toISOString(), second.toISOString()], "one a day at the window's opening");
  assert.deepEqual(deferred.map((s) => s.limitDay!.toISOString().slice(0, 10)).sort(), [first.toISOString().slice(0, 10), second.toISOString().slice(0, 10)]);
  assert.deepEqual(
    deferred.map((s) => [s.state, s.attempts]),
    [
      ["scheduled", 0],
      ["scheduled", 0],
    ],
  );
  assert.equal(received("late-cap-inbox").length, 0);
});
