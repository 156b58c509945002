import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, test } from "node:test";
import { classifyInbound, readInbound, recordInboundMessage } from "@outreach/domain";
import { executor } from "@outreach/db";
import { callMcpTool, waitFor } from "@outreach/testing";
import { startRealService, type RealService } from "../../../test/kit/real-service.js";
import { request } from "./helpers.js";

// GET /campaigns/:id/analytics against the whole service: the API, the dispatcher
// and the sender mailing the loopback SMTP server, the tracking links of the
// emails it received, and a reply recorded as the IMAP poller records it.
let service: RealService;

before(async () => {
  service = await startRealService();
});
after(async () => {
  await service?.stop();
});

function call(method: string, path: string, token?: string, body?: unknown) {
  return request(service.baseUrl, method, path, { token, body });
}

async function signUp(email: string): Promise<{ token: string; accountId: string }> {
  const res = await call("POST", "/signup", undefined, { email });
  assert.equal(res.status, 201, res.text);
  return { token: res.body.api_key.plaintext, accountId: res.body.account_id };
}

const CATEGORIES = ["interested", "not_interested", "out_of_office", "unsubscribe_request", "wrong_person", "other"];

/** The counters of a group or of the totals, without the group's keys. */
function counters(group: any) {
  const { sent, opened, clicked, replied, bounced, unsubscribed, replies_by_category, rates } = group;
  return { sent, opened, clicked, replied, bounced, unsubscribed, replies_by_category, rates };
}

function sumGroups(groups: any[]) {
  const sum = { sent: 0, opened: 0, clicked: 0, replied: 0, bounced: 0, unsubscribed: 0, replies: Object.fromEntries(CATEGORIES.map((c) => [c, 0])) as Record<string, number> };
  for (const g of groups) {
    for (const key of ["sent", "opened", "clicked", "replied", "bounced", "unsubscribed"] as const) sum[key] += g[key];
    for (const c of CATEGORIES) sum.replies[c]! += g.replies_by_category[c];
  }
  return sum;
}

function assertGroupsAddUp(body: any) {
  const sum = sumGroups(body.groups);
  const { sent, opened, clicked, replied, bounced, unsubscribed, replies_by_category } = body.totals;
  assert.deepEqual(sum, { sent, opened, clicked, replied, bounced, unsubscribed, replies: replies_by_category }, "the groups add up to the totals");
}

const noReplies = Object.fromEntries(CATEGORIES.map((c) => [c, 0]));

test("analytics per step, variant and day match the emails the SMTP server received, with opens, clicks and replies credited to the step sent before them", async () => {
  const { token, accountId } = await signUp(`analytics-${randomUUID().slice(0, 8)}@acme.test`);
  const names = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"];
  const imported = await call("POST", "/contact_imports", token, { contacts: names.map((n) => ({ email: `${n.toLowerCase()}@example.com`, first_name: n })) });
  assert.equal(imported.status, 201, imported.text);
  const inbox = `analytics-${randomUUID().slice(0, 8)}`;
  const created = await call("POST", "/campaigns", token, {
    campaign: {
      name: "Analytics",
      track_clicks: true,
      min_wait_seconds: 0,
      max_wait_seconds: 0,
      smtp_credentials: [
        {
          label: "main",
          from_email: `${inbox}@sender.test`,
          smtp_host: service.engine.smtp.host,
          smtp_port: service.engine.smtp.port,
          smtp_secure: false,
          smtp_username: inbox,
          smtp_password: "pw",
          daily_limit: 100,
        },
      ],
      sequence_steps: [
        {
          position: 1,
          variants: [
            { subject: "Variant A for {{first_name}}", body_html: '<p>Body A, see <a href="https://acme.test/a">this</a></p>', weight: 1 },
            { subject: "Variant B for {{first_name}}", body_html: '<p>Body B, see <a href="https://acme.test/b">this</a></p>', weight: 1 },
          ],
        },
        { position: 2, subject: "", body_html: '<p>Following up: <a href="https://acme.test/pricing">pricing</a></p>', delay_minutes: 600 },
      ],
    },
  });
  assert.equal(created.status, 201, created.text);
  const campaignId = created.body.id as string;
  const [variantA, variantB] = created.body.sequence_steps[0].variants.map((v: { id: string }) => v.id) as [string, string];

  // before anything was sent: every step and variant is listed, all zero
  const empty = await call("GET", `/campaigns/${campaignId}/analytics?group_by=variant`, token);
  assert.equal(empty.status, 200, empty.text);
  assert.deepEqual(
    empty.body.groups.map((g: any) => [g.step, g.variant_id, g.sent]),
    [
      [1, variantA, 0],
      [1, variantB, 0],
      [2, null, 0],
    ],
  );
  assert.deepEqual(empty.body.totals.rates, { open_rate: 0, click_rate: 0, reply_rate: 0, bounce_rate: 0, unsubscribe_rate: 0 });

  assert.equal((await call("POST", `/campaigns/${campaignId}/enroll`, token, { contact_import_id: imported.body.id })).status, 200);
  assert.equal((await call("POST", `/campaigns/${campaignId}/dispatch`, token, {})).body.queued, true);
  const received = () => service.engine.smtp.messages.filter((m) => m.username === inbox);
  await waitFor(() => received().length === 6, { what: "the six step-1 emails" });
  await waitFor(async () => (await service.engine.db.stepSend.count({ where: { campaignId, stepPosition: 1, state: "sent" } })) === 6, { what: "step 1 recorded as sent" });
  const emailTo = (name: string, step: 1 | 2) => received().find((m) => m.envelope.to[0] === `${name.toLowerCase()}@example.com` && m.parsed.subject!.startsWith("Re:") === (step === 2))!;

  // Ann opens step 1 before step 2 exists
  const annPixel = /<img src="http:\/\/outreach\.test(\/t\/o\/[^"]+)"/.exec(String(emailTo("Ann", 1).parsed.html))![1]!;
  assert.equal((await fetch(`${service.baseUrl}${annPixel}`)).status, 200);
  await waitFor(async () => (await service.engine.db.enrollment.count({ where: { campaignId, openedAt: { not: null } } })) === 1, { what: "Ann's open" });

  // step 2 falls due now
  await service.engine.db.stepSend.updateMany({ where: { campaignId, stepPosition: 2, state: "scheduled" }, data: { dueAt: new Date() } });
  await waitFor(() => received().length === 12, { what: "the six step-2 emails" });
  await waitFor(async () => (await service.engine.db.stepSend.count({ where: { campaignId, stepPosition: 2, state: "sent" } })) === 6, { what: "step 2 recorded as sent" });

  // Bob clicks the link of step 2; Cat answers step 2
  const bobClick = /href="http:\/\/outreach\.test(\/t\/c\/[^"]+)"/.exec(String(emailTo("Bob", 2).parsed.html))![1]!;
  assert.equal((await fetch(`${service.baseUrl}${bobClick}`, { redirect: "manual" })).status, 302);
  await waitFor(async () => (await service.engine.db.enrollment.count({ where: { campaignId, clickedAt: { not: null } } })) === 1, { what: "Bob's click" });
  const catStep2 = emailTo("Cat", 2);
  const credential = await service.engine.db.smtpCredential.findFirstOrThrow({ where: { campaignId } });
  const raw = [
    `Date: ${new Date().toUTCString()}`,
    `Message-ID: <${randomUUID()}@example.com>`,
    "MIME-Version: 1.0",
    "Content-Type: text/plain; charset=utf-8",
    `From: Cat <cat@example.com>`,
    `To: ${inbox}@sender.test`,
    `Subject: Re: ${catStep2.parsed.subject}`,
    `In-Reply-To: ${catStep2.parsed.messageId}`,
    `References: ${catStep2.parsed.messageId}`,
  ].join("\r\n");
  const message = await readInbound(`${raw}\r\n\r\nYes, I'm interested. Can we talk on Tuesday?\r\n`);
  const outcome = await service.engine.db.$transaction((tx) => recordInboundMessage(tx, { credentialId: credential.id, accountId, uidValidity: 1n, uid: 1n }, message, classifyInbound(message)));
  assert.equal(outcome, "reply");
  const reply = await service.engine.db.inboundMessage.findFirstOrThrow({ where: { campaignId, kind: "reply" } });
  const category = reply.category ?? "other";

  // what the SMTP server received, per step and variant
  const subjects = received().map((m) => m.parsed.subject!);
  const step1 = subjects.filter((s) => !s.startsWith("Re:"));
  const step2 = subjects.filter((s) => s.startsWith("Re:"));
  const ofVariant = (letter: string) => step1.filter((s) => s.startsWith(`Variant ${letter} `)).length;
  assert.equal(ofVariant("A") + ofVariant("B"), 6);
  const annVariant = emailTo("Ann", 1).parsed.subject!.startsWith("Variant A") ? variantA : variantB;

  const byStep = await call("GET", `/campaigns/${campaignId}/analytics?group_by=step`, token);
  assert.equal(byStep.status, 200, byStep.text);
  assert.equal(byStep.body.campaign_id, campaignId);
  assert.equal(byStep.body.group_by, "step");
  assert.equal(byStep.body.timezone, "UTC");
  assert.equal(byStep.body.from, null);
  assert.deepEqual(
    byStep.body.groups.map((g: any) => ({ step: g.step, ...counters(g) })),
    [
      {
        step: 1,
        sent: step1.length,
        opened: 1,
        clicked: 0,
        replied: 0,
        bounced: 0,
        unsubscribed: 0,
        replies_by_category: noReplies,
        rates: { open_rate: 16.67, click_rate: 0, reply_rate: 0, bounce_rate: 0, unsubscribe_rate: 0 },
      },
      {
        step: 2,
        sent: step2.length,
        opened: 0,
        clicked: 1,
        replied: 1,
        bounced: 0,
        unsubscribed: 0,
        replies_by_category: { ...noReplies, [category]: 1 },
        rates: { open_rate: 0, click_rate: 16.67, reply_rate: 16.67, bounce_rate: 0, unsubscribe_rate: 0 },
      },
    ],
  );
  assert.deepEqual(counters(byStep.body.totals), {
    sent: 12,
    opened: 1,
    clicked: 1,
    replied: 1,
    bounced: 0,
    unsubscribed: 0,
    replies_by_category: { ...noReplies, [category]: 1 },
    rates: { open_rate: 8.33, click_rate: 8.33, reply_rate: 8.33, bounce_rate: 0, unsubscribe_rate: 0 },
  });
  assert.equal(byStep.body.groups[0].variant_id, undefined, "no variant key when grouping by step");

  const byVariant = await call("GET", `/campaigns/${campaignId}/analytics?group_by=variant`, token);
  assert.deepEqual(
    byVariant.body.groups.map((g: any) => [g.step, g.variant_id, g.sent, g.opened, g.clicked, g.replied]),
    [
      [1, variantA, ofVariant("A"), annVariant === variantA ? 1 : 0, 0, 0],
      [1, variantB, ofVariant("B"), annVariant === variantB ? 1 : 0, 0, 0],
      [2, null, 6, 0, 1, 1],
    ],
  );
  assertGroupsAddUp(byVariant.body);

  const byDay = await call("GET", `/campaigns/${campaignId}/analytics?group_by=day`, token);
  assert.equal(byDay.status, 200, byDay.text);
  const sentDays = [...new Set((await service.engine.db.stepSend.findMany({ where: { campaignId } })).map((s) => s.sentAt!.toISOString().slice(0, 10)))].sort();
  assert.equal(byDay.body.groups[0].day, sentDays[0], "the first day with a count");
  assert.ok(byDay.body.groups.every((g: any) => g.step === undefined && /^\d{4}-\d{2}-\d{2}$/.test(g.day)));
  assert.equal(byDay.body.totals.sent, 12);
  assertGroupsAddUp(byDay.body);

  // from/to: days of events; nothing before today or after it (UTC, the campaign has no schedule)
  const today = new Date().toISOString().slice(0, 10);
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  const later = await call("GET", `/campaigns/${campaignId}/analytics?group_by=step&from=${tomorrow}`, token);
  assert.deepEqual(
    later.body.groups.map((g: any) => [g.step, g.sent, g.opened]),
    [
      [1, 0, 0],
      [2, 0, 0],
    ],
  );
  assert.equal(later.body.from, tomorrow);
  const range = await call("GET", `/campaigns/${campaignId}/analytics?group_by=day&from=${sentDays[0]}&to=${tomorrow}`, token);
  assert.deepEqual(range.body.groups.at(-1), { day: tomorrow, ...counters(later.body.totals) }, "every day of the range is listed, zeros included");
  assert.equal(range.body.totals.sent, 12);
  assert.ok(range.body.groups.some((g: any) => g.day === today));

  // the MCP tool answers the same
  const { text, payload } = await callMcpTool(service.baseUrl, token, "get_campaign_analytics", { campaign_id: campaignId, group_by: "step" });
  assert.deepEqual(payload.result.structuredContent, byStep.body);
});

test("days are the campaign's time zone: sends just before and after midnight in Auckland fall on two days that are one day in UTC", async () => {
  const { token, accountId } = await signUp(`analytics-tz-${randomUUID().slice(0, 8)}@acme.test`);
  const created = await call("POST", "/campaigns", token, {
    campaign: {
      name: "Auckland",
      schedule: { timezone: "Pacific/Auckland", start_time: "00:00", end_time: "00:00" },
      smtp_credentials: [{ label: "m", from_email: "m@acme.test", smtp_host: "smtp.acme.test", smtp_port: 587, smtp_username: "m", smtp_password: "p", daily_limit: 50 }],
      sequence_steps: [
        { position: 1, subject: "One", body_html: "<p>1</p>" },
        { position: 2, subject: "Two", body_html: "<p>2</p>", delay_minutes: 1440 },
      ],
    },
  });
  assert.equal(created.status, 201, created.text);
  const campaignId = created.body.id as string;
  const db = service.engine.db;
  const credential = await db.smtpCredential.findFirstOrThrow({ where: { campaignId } });
  // 9 March 2026 in Auckland is UTC+13: 10:59Z is 23:59 on the 9th there, 11:01Z is 00:01 on the 10th
  const at = (iso: string) => new Date(iso);
  async function enrollment(
    email: string,
    fields: { sentAt?: Date; openedAt?: Date; repliedAt?: Date; bouncedAt?: Date; unsubscribedAt?: Date; status?: "sent" | "replied" | "bounced" | "unsubscribed" },
  ) {
    const contact = await db.contact.create({ data: { accountId, email } });
    return db.enrollment.create({ data: { accountId, campaignId, contactId: contact.id, status: "sent", credentialId: credential.id, ...fields } });
  }
  async function send(enrollmentId: string, step: number, sentAt: Date, state: "sent" | "bounced" = "sent", messageId: string | null = `<${randomUUID()}@acme.test>`) {
    await executor(db).execute(
      `INSERT INTO step_sends ("accountId", "campaignId", "enrollmentId", "stepPosition", "credentialId", state, "dueAt", "sentAt", "messageId", "updatedAt")
       VALUES ($1::uuid, $2::uuid, $3::uuid, $4, $5::uuid, $6::"StepSendState", $7, $7, $8, now())`,
      [accountId, campaignId, enrollmentId, step, credential.id, state, sentAt, messageId],
    );
  }
  const before = await enrollment("before@example.com", { sentAt: at("2026-03-09T10:59:00Z"), openedAt: at("2026-03-09T12:00:00Z") });
  await send(before.id, 1, at("2026-03-09T10:59:00Z"));
  const afterMidnight = await enrollment("after@example.com", { sentAt: at("2026-03-09T11:01:00Z"), repliedAt: at("2026-03-11T01:00:00Z"), status: "replied" });
  await send(afterMidnight.id, 1, at("2026-03-09T11:01:00Z"));
  await send(afterMidnight.id, 2, at("2026-03-10T11:01:00Z"));
  // refused during the SMTP session: bounced with a send time but no Message-ID, never delivered
  const refused = await enrollment("refused@example.com", { status: "bounced", bouncedAt: at("2026-03-09T11:30:00Z") });
  await send(refused.id, 1, at("2026-03-09T11:30:00Z"), "bounced", null);
  // bounced after delivery: counted as sent
  const bounced = await enrollment("bounced@example.com", { sentAt: at("2026-03-09T09:00:00Z"), status: "bounced", bouncedAt: at("2026-03-09T13:00:00Z") });
  await send(bounced.id, 1, at("2026-03-09T09:00:00Z"), "bounced");
  // an unsubscribe recorded before its send (clocks apart) goes to the first step; an enrollment never sent is not counted
  const early = await enrollment("early@example.com", { sentAt: at("2026-03-09T10:00:00Z"), status: "unsubscribed", unsubscribedAt: at("2026-03-09T09:59:00Z") });
  await send(early.id, 1, at("2026-03-09T10:00:00Z"));
  await enrollment("never@example.com", { status: "unsubscribed", unsubscribedAt: at("2026-03-10T00:00:00Z") });
  // the reply and an auto-reply without a category (counted as other), matched to the replying enrollment
  for (const [uid, kind, category, receivedAt] of [
    [1n, "reply", "not_interested", "2026-03-11T01:00:00Z"],
    [2n, "auto_reply", null, "2026-03-10T12:00:00Z"],
  ] as const) {
    await db.inboundMessage.create({ data: { credentialId: credential.id, accountId, campaignId, enrollmentId: afterMidnight.id, uidValidity: 1n, uid, kind, category, receivedAt: at(receivedAt) } });
  }

  const days = await call("GET", `/campaigns/${campaignId}/analytics?group_by=day&from=2026-03-09&to=2026-03-12`, token);
  assert.equal(days.status, 200, days.text);
  assert.equal(days.body.timezone, "Pacific/Auckland");
  const row = (g: any) => [g.day, g.sent, g.opened, g.replied, g.bounced, g.unsubscribed, g.replies_by_category.not_interested, g.replies_by_category.other];
  assert.deepEqual(days.body.groups.map(row), [
    // before@ 23:59, bounced@ 22:00 (its bounce at 02:00 on the 10th), early@ 23:00 (unsubscribed 22:59)
    ["2026-03-09", 3, 0, 0, 0, 1, 0, 0],
    // after@ 00:01; before@ opened 01:00; refused@ 00:30 (not a send) and bounced@ bounced 02:00
    ["2026-03-10", 1, 1, 0, 2, 0, 0, 0],
    // after@ step 2 00:01 on the 11th, its auto-reply 01:00, its reply 14:00
    ["2026-03-11", 1, 0, 1, 0, 0, 1, 1],
    ["2026-03-12", 0, 0, 0, 0, 0, 0, 0],
  ]);
  assertGroupsAddUp(days.body);

  const steps = await call("GET", `/campaigns/${campaignId}/analytics?group_by=step`, token);
  assert.deepEqual(
    steps.body.groups.map((g: any) => [g.step, g.sent, g.opened, g.replied, g.bounced, g.unsubscribed, g.replies_by_category.not_interested, g.replies_by_category.other]),
    [
      [1, 4, 1, 0, 2, 1, 0, 0],
      [2, 1, 0, 1, 0, 0, 1, 1],
    ],
  );
  // bounce_rate: 2 bounced over 4 delivered (the refused send is a bounce, not a send)
  assert.equal(steps.body.groups[0].rates.bounce_rate, 50);
  assert.equal(steps.body.groups[0].rates.unsubscribe_rate, 25);

  const oneDay = await call("GET", `/campaigns/${campaignId}/analytics?group_by=step&from=2026-03-10&to=2026-03-10`, token);
  assert.deepEqual(
    oneDay.body.groups.map((g: any) => [g.step, g.sent, g.opened, g.bounced]),
    [
      [1, 1, 1, 2],
      [2, 0, 0, 0],
    ],
  );
  const utcView = await call("GET", `/campaigns/${campaignId}/analytics?group_by=day&from=2026-03-09&to=2026-03-09`, token);
  assert.deepEqual(utcView.body.groups.map(row), [["2026-03-09", 3, 0, 0, 0, 1, 0, 0]], "the 9th in Auckland ends at 11:00Z");

  // one bound far from the counts: the day range up to them is over 366 days
  const far = await call("GET", `/campaigns/${campaignId}/analytics?group_by=day&from=2020-01-01`, token);
  assert.equal(far.status, 422, far.text);
  assert.equal(far.body.details.errors[0].field, "to");
  const open = await call("GET", `/campaigns/${campaignId}/analytics?group_by=day&to=2026-03-10`, token);
  assert.deepEqual(
    open.body.groups.map((g: any) => g.day),
    ["2026-03-09", "2026-03-10"],
    "from the first day with a count",
  );
});

test("another account's campaign is 404 campaign_not_found; bad group_by, from and to are 422 validation_failed", async () => {
  const owner = await signUp(`analytics-owner-${randomUUID().slice(0, 8)}@acme.test`);
  const other = await signUp(`analytics-other-${randomUUID().slice(0, 8)}@acme.test`);
  const created = await call("POST", "/campaigns", owner.token, {
    campaign: {
      name: "Mine",
      smtp_credentials: [{ label: "m", from_email: "m@acme.test", smtp_host: "smtp.acme.test", smtp_port: 587, smtp_username: "m", smtp_password: "p", daily_limit: 5 }],
      sequence_steps: [{ position: 1, subject: "s", body_html: "b" }],
    },
  });
  const path = `/campaigns/${created.body.id}/analytics`;
  const foreign = await call("GET", `${path}?group_by=step`, other.token);
  assert.equal(foreign.status, 404);
  assert.equal(foreign.body.code, "campaign_not_found");
  assert.equal((await call("GET", `/campaigns/not-a-uuid/analytics?group_by=step`, owner.token)).body.code, "campaign_not_found");
  assert.equal((await call("GET", `/campaigns/${randomUUID()}/analytics?group_by=step`, owner.token)).status, 404);

  for (const [query, field] of [
    ["", "group_by"],
    ["group_by=week", "group_by"],
    ["group_by=step&from=yesterday", "from"],
    ["group_by=step&to=2026-13-01", "to"],
    ["group_by=step&from=2026-02-30", "from"],
    ["group_by=step&from=2026-03-10&to=2026-03-09", "from"],
    ["group_by=day&from=2025-01-01&to=2026-01-02", "to"],
    ["group_by=step&from=2026-01-01&from=2026-01-02", "from"],
    ["group_by=step&extra=1", "extra"],
  ] as const) {
    const res = await call("GET", `${path}?${query}`, owner.token);
    assert.equal(res.status, 422, `${query}: ${res.text}`);
    assert.equal(res.body.code, "validation_failed", query);
    assert.ok(
      res.body.details.errors.some((e: any) => e.field === field),
      `${query}: ${res.text}`,
    );
  }
  // 366 days is the longest day range; any range is fine for the other views
  assert.equal((await call("GET", `${path}?group_by=day&from=2025-01-01&to=2026-01-01`, owner.token)).status, 200);
  const wide = await call("GET", `${path}?group_by=step&from=2020-01-01&to=2026-01-01`, owner.token);
  assert.equal(wide.status, 200, wide.text);
  assert.deepEqual(wide.body.groups, [{ step: 1, ...counters(wide.body.totals) }]);
});
