import assert from "node:assert/strict";
import { randomBytes, randomUUID } from "node:crypto";
import { test } from "node:test";
import { buildStepEmail, unsubscribeFooter, type StepEmailInput } from "../src/sending/build-step-email.js";
import { spikeOf } from "../src/sending/credential-health.js";
import { planSchedule } from "../src/sending/schedule-plan.js";
import { nextOpening, openingFromDay, parseSchedule, sendDay, type SendSchedule } from "../src/sending/send-window.js";
import { ids, step1, stream } from "./schedule-plan-helpers.js";

const key = randomBytes(32);
const input = (extra: Partial<StepEmailInput> = {}): StepEmailInput => ({
  stepSendId: randomUUID(),
  enrollmentId: randomUUID(),
  stepPosition: 1,
  subject: "Hi {{first_name}}",
  bodyHtml: `<p>Hello {{first_name}}, <a href="https://acme.test/pricing">see pricing</a>.</p>`,
  firstSubject: null,
  contact: { email: "ann@example.com", firstName: "Ann" },
  from: { email: "s@acme.test", name: null },
  previousMessageIds: [],
  publicBaseUrl: "https://outreach.example.com",
  trackClicks: true,
  trackingKey: key,
  ...extra,
});

test("a text-only step has no HTML part (no pixel, no click redirect): the body as text, the unsubscribe URL on its own line, the headers kept", () => {
  const html = buildStepEmail(input());
  const text = buildStepEmail(input({ textOnly: true }));
  assert.equal(text.html, undefined);
  assert.ok(html.html);
  assert.match(text.text, /^Hello Ann, see pricing/);
  assert.match(text.text, /https:\/\/acme\.test\/pricing/, "the link's destination as written");
  assert.doesNotMatch(text.text, /\/t\/[oc]\//, "no pixel, no redirect");
  const url = /^Unsubscribe: (https:\/\/outreach\.example\.com\/u\/\S+)$/m.exec(text.text);
  assert.ok(url, text.text);
  assert.equal(text.headers["List-Unsubscribe"], html.headers["List-Unsubscribe"]!.replace(/^<[^>]+>/, `<${url[1]}>`));
  assert.ok(text.headers["List-Unsubscribe"]!.startsWith(`<${url[1]}>`));
  assert.equal(text.headers["List-Unsubscribe-Post"], "List-Unsubscribe=One-Click");
  assert.deepEqual(Object.keys(text.headers).sort(), Object.keys(html.headers).sort());
});

test("a custom unsubscribe text: escaped, {{unsubscribe_url}} becomes the link, appended when the text has none", () => {
  const url = "https://o.test/u/abc";
  assert.deepEqual(unsubscribeFooter(null, url), { html: `<a href="${url}" style="color:#888888">Unsubscribe</a>`, text: `Unsubscribe: ${url}` });
  assert.deepEqual(unsubscribeFooter("Tom & Co <b>: {{unsubscribe_url}} to stop", url), {
    html: `Tom &amp; Co &lt;b&gt;: <a href="${url}" style="color:#888888">${url}</a> to stop`,
    text: `Tom & Co <b>: ${url} to stop`,
  });
  assert.deepEqual(unsubscribeFooter("No more emails?", url), {
    html: `No more emails? <a href="${url}" style="color:#888888">${url}</a>`,
    text: `No more emails?\n${url}`,
  });
  const email = buildStepEmail(input({ unsubscribeFooter: "Rather not hear from us? {{unsubscribe_url}}" }));
  const link = /^<(https:[^>]+)>/.exec(email.headers["List-Unsubscribe"]!)![1]!;
  assert.ok(email.html!.includes(`Rather not hear from us? <a href="${link}"`), email.html);
  assert.match(email.text, new RegExp(`Rather not hear from us\\? ${link.replace(/[.?]/g, "\\$&")}\\n$`));
});

const weekdays: SendSchedule = { timezone: "America/New_York", days: ["mon", "tue", "wed", "thu", "fri"], startTime: "09:00", endTime: "17:00", useContactTimezone: false };
const holidays = (...dates: string[]): SendSchedule => ({ ...weekdays, skipDates: new Set(dates) });

test("skip dates close their day's window: the next opening is the next open day", () => {
  assert.deepEqual(parseSchedule({ ...{ timezone: "America/New_York", days: ["mon"], start_time: "09:00", end_time: "17:00" }, skip_dates: ["2026-12-28"] })?.skipDates, new Set(["2026-12-28"]));
  // Thursday 2026-12-24 10:00 EST is inside the window, unless the 24th and 25th are skipped
  const thursday = new Date("2026-12-24T15:00:00Z");
  assert.equal(nextOpening(weekdays, "America/New_York", thursday).toISOString(), thursday.toISOString());
  assert.equal(nextOpening(holidays("2026-12-24", "2026-12-25"), "America/New_York", thursday).toISOString(), "2026-12-28T14:00:00.000Z");
  assert.equal(openingFromDay(holidays("2026-12-28"), "America/New_York", "2026-12-28").toISOString(), "2026-12-29T14:00:00.000Z");
  // a window crossing midnight belongs to its first day: skipping that day closes all of it
  const night: SendSchedule = {
    timezone: "UTC",
    days: ["mon", "tue", "wed", "thu", "fri", "sat", "sun"],
    startTime: "22:00",
    endTime: "06:00",
    useContactTimezone: false,
    skipDates: new Set(["2026-12-31"]),
  };
  assert.equal(nextOpening(night, "UTC", new Date("2027-01-01T01:00:00Z")).toISOString(), "2027-01-01T22:00:00.000Z");
  assert.equal(sendDay(night, "UTC", new Date("2026-12-31T01:00:00Z")), "2026-12-30");
});

test("the planner moves step 1 and follow-ups off skip dates", () => {
  const sends = planSchedule({
    now: new Date("2026-12-24T15:00:00Z"),
    minWaitSeconds: 0,
    maxWaitSeconds: 0,
    stepDelaysMinutes: [0, 60 * 24],
    credentials: [stream("a", 10)],
    enrollmentIds: ids(2),
    schedule: holidays("2026-12-24", "2026-12-25", "2026-12-29"),
  });
  assert.deepEqual(
    step1(sends).map((s) => [s.dueAt.toISOString(), s.limitDay]),
    [
      ["2026-12-28T14:00:00.000Z", "2026-12-28"],
      ["2026-12-28T14:00:00.000Z", "2026-12-28"],
    ],
  );
  // a day after the 28th is the 29th, skipped: the 30th
  assert.deepEqual(
    sends.filter((s) => s.stepPosition === 2).map((s) => s.dueAt.toISOString()),
    ["2026-12-30T14:00:00.000Z", "2026-12-30T14:00:00.000Z"],
  );
});

test("the campaign's daily_limit caps step-1 sends per day across its inboxes, counting what it already booked; follow-ups do not count", () => {
  const sends = planSchedule({
    now: new Date("2026-12-01T08:00:00Z"),
    minWaitSeconds: 0,
    maxWaitSeconds: 0,
    stepDelaysMinutes: [0, 60],
    credentials: [stream("a", 10), stream("b", 10), stream("c", 10)],
    enrollmentIds: ids(9),
    campaignCap: { dailyLimit: 4, booked: new Map([["2026-12-01", 1]]) },
  });
  const perDay = new Map<string, number>();
  for (const s of step1(sends)) perDay.set(s.limitDay!, (perDay.get(s.limitDay!) ?? 0) + 1);
  assert.deepEqual(
    [...perDay],
    [
      ["2026-12-01", 3],
      ["2026-12-02", 4],
      ["2026-12-03", 2],
    ],
  );
  assert.equal(
    new Set(
      step1(sends)
        .filter((s) => s.limitDay === "2026-12-02")
        .map((s) => s.credentialId),
    ).size,
    3,
    "the inboxes still take turns",
  );
  assert.equal(sends.filter((s) => s.stepPosition === 2).length, 9);
});

test("a spike in an inbox's last 24 h: 3 bounces at half the threshold or more, 2 complaints, or 1 complaint per 300 sends or fewer", () => {
  assert.equal(spikeOf({ sends: 20, bounces: 2, complaints: 0 }, 8), null, "2 bounces are too few whatever the rate");
  assert.equal(spikeOf({ sends: 100, bounces: 3, complaints: 0 }, 8), null, "3 % is under half of 8 %");
  assert.equal(spikeOf({ sends: 75, bounces: 3, complaints: 0 }, 8), "bounce spike: 3 bounces of 75 sends in 24 h (4%, half the threshold is 4%)");
  assert.equal(spikeOf({ sends: 300, bounces: 0, complaints: 1 }, 8), "complaint spike: 1 spam complaint for 300 sends in 24 h");
  assert.equal(spikeOf({ sends: 301, bounces: 0, complaints: 1 }, 8), null);
  assert.equal(spikeOf({ sends: 5000, bounces: 0, complaints: 2 }, 8), "complaint spike: 2 spam complaints for 5000 sends in 24 h");
  assert.equal(spikeOf({ sends: 0, bounces: 0, complaints: 0 }, 8), null);
});
