import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { executor } from "@outreach/db";
import { createTestDatabase, waitFor, type TestDatabase } from "@outreach/testing";
import { allCredentialsAtDailyLimit, claimSend, localDay, nextOpening, parseSchedule, recordSent, recordTemporaryFailure, scheduleEnrollments, scheduleZone } from "@outreach/domain";
import { forecastSends } from "../src/services/forecast-sends.js";

// Planning against real rows: windows and zones, follow-ups after a late send,
// mailbox budgets shared by campaigns, ramps, and the forecast of what is planned.
let database: TestDatabase;
before(async () => {
  database = await createTestDatabase();
});
after(() => database?.drop());
const db = () => database.db;

const newYork = { timezone: "America/New_York", days: ["mon", "tue", "wed", "thu", "fri"], start_time: "09:00", end_time: "17:00", use_contact_timezone: false };
const fridayEvening = new Date("2026-11-20T23:30:00Z"); // Friday 18:30 in New York

async function account() {
  const plan = await db().plan.findUniqueOrThrow({ where: { slug: "pro" } });
  return db().account.create({ data: { email: `win-${Math.random()}@example.test`, planId: plan.id, currentPeriodEnd: new Date(Date.now() + 30 * 86_400_000) } });
}

interface CampaignSetup {
  accountId?: string;
  schedule?: object | null;
  jitterScope?: "batch" | "inbox";
  steps?: number[];
  credentials?: Array<{ host?: string; username?: string; dailyLimit?: number; ramp?: { start: number; increase: number; startedAt: Date } }>;
  contacts?: Array<string | null>;
  wait?: [number, number];
}

async function campaign(setup: CampaignSetup = {}) {
  const accountId = setup.accountId ?? (await account()).id;
  const steps = setup.steps ?? [0];
  const [minWaitSeconds, maxWaitSeconds] = setup.wait ?? [120, 420];
  const row = await db().campaign.create({
    data: {
      accountId,
      name: "w",
      status: "active",
      minWaitSeconds,
      maxWaitSeconds,
      jitterScope: setup.jitterScope ?? "batch",
      schedule: (setup.schedule ?? undefined) as object | undefined,
      steps: { create: steps.map((delayMinutes, i) => ({ position: i + 1, subject: "s", bodyHtml: "b", delayMinutes })) },
    },
  });
  const credentials = [];
  for (const [i, c] of (setup.credentials ?? [{}]).entries()) {
    credentials.push(
      await db().smtpCredential.create({
        data: {
          accountId,
          campaignId: row.id,
          label: `c${i}`,
          fromEmail: `from${i}@example.test`,
          smtpHost: c.host ?? `smtp${i}-${Math.random()}.example.test`,
          smtpPort: 25,
          smtpUsername: c.username ?? `user${i}`,
          smtpPasswordEnc: "x",
          dailyLimit: c.dailyLimit ?? 100,
          rampStartPerDay: c.ramp?.start ?? null,
          rampIncreasePerDay: c.ramp?.increase ?? null,
          rampStartedAt: c.ramp?.startedAt ?? null,
          createdAt: new Date(Date.now() + i),
        },
      }),
    );
  }
  const enrollmentIds: string[] = [];
  for (const timezone of setup.contacts ?? Array(6).fill(null)) {
    const contact = await db().contact.create({ data: { accountId, email: `p-${Math.random()}@example.com`, timezone } });
    enrollmentIds.push((await db().enrollment.create({ data: { accountId, campaignId: row.id, contactId: contact.id } })).id);
  }
  return { accountId, campaign: row, credentials, enrollmentIds };
}

const plan = (campaignId: string, enrollmentIds: string[], now: Date) => db().$transaction((tx) => scheduleEnrollments(tx, campaignId, enrollmentIds, now));
const firstSteps = (campaignId: string) => db().stepSend.findMany({ where: { campaignId, stepPosition: 1 }, orderBy: { dueAt: "asc" } });

test("dispatched on a Friday evening, a Mon-Fri 09:00-17:00 New York campaign sends from Monday 09:00 New York time, min..max apart across inboxes", async () => {
  const { campaign: c, enrollmentIds } = await campaign({ schedule: newYork, credentials: [{}, {}, {}, {}, {}], contacts: Array(10).fill(null) });
  await plan(c.id, enrollmentIds, fridayEvening);
  const sends = await firstSteps(c.id);
  assert.equal(sends.length, 10);
  assert.equal(sends[0]!.dueAt.toISOString(), "2026-11-23T14:00:00.000Z");
  for (let i = 1; i < sends.length; i++) {
    const gap = (sends[i]!.dueAt.getTime() - sends[i - 1]!.dueAt.getTime()) / 1000;
    assert.ok(gap >= 120 && gap <= 420, `gap ${gap}s`);
  }
  assert.equal(new Set(sends.map((s) => s.credentialId)).size, 5, "every inbox takes its turn");
  assert.ok(sends.every((s) => s.limitDay?.toISOString().startsWith("2026-11-23")));
});

test("jitter scope inbox keeps one stream per inbox", async () => {
  const { campaign: c, enrollmentIds } = await campaign({ jitterScope: "inbox", credentials: [{}, {}, {}], contacts: Array(6).fill(null) });
  const now = new Date("2026-11-24T10:00:00Z");
  await plan(c.id, enrollmentIds, now);
  const sends = await firstSteps(c.id);
  assert.equal(sends.filter((s) => s.dueAt.getTime() === now.getTime()).length, 3, "the three inboxes start at once");
});

test("a contact's time zone overrides the campaign's with use_contact_timezone", async () => {
  const { campaign: c, enrollmentIds } = await campaign({ schedule: { ...newYork, use_contact_timezone: true }, contacts: ["Asia/Tokyo", null] });
  await plan(c.id, enrollmentIds, fridayEvening);
  const byEnrollment = new Map((await firstSteps(c.id)).map((s) => [s.enrollmentId, s]));
  assert.equal(byEnrollment.get(enrollmentIds[0]!)!.dueAt.toISOString(), "2026-11-23T00:00:00.000Z", "Monday 09:00 in Tokyo");
  assert.equal(byEnrollment.get(enrollmentIds[1]!)!.dueAt.toISOString(), "2026-11-23T14:00:00.000Z", "Monday 09:00 in New York");
});

test("a follow-up moved by a late send lands inside the window", async () => {
  const { accountId, campaign: c, credentials, enrollmentIds } = await campaign({ schedule: newYork, steps: [0, 60 * 6], contacts: [null] });
  await plan(c.id, enrollmentIds, fridayEvening);
  const [first] = await firstSteps(c.id);
  // step 1 due Monday 09:00, actually sent Monday 15:00 New York: step 2 (6 h later) would be 21:00, so it moves to Tuesday 09:00
  const sentAt = new Date("2026-11-23T20:00:00Z");
  await db().stepSend.update({ where: { id: first!.id }, data: { state: "queued" } });
  await db().$transaction(async (tx) => {
    assert.ok(await claimSend(tx, first!.id));
    await recordSent(tx, {
      stepSendId: first!.id,
      accountId,
      credentialId: credentials[0]!.id,
      messageId: "<m@x>",
      accountPeriod: { start: new Date("2026-11-01T00:00:00Z"), end: new Date("2026-12-01T00:00:00Z") },
      now: sentAt,
    });
  });
  const second = await db().stepSend.findFirstOrThrow({ where: { enrollmentId: enrollmentIds[0], stepPosition: 2 } });
  assert.equal(second.dueAt.toISOString(), "2026-11-24T14:00:00.000Z");
});

test("a retry after a temporary failure waits for the window", async () => {
  const { campaign: c, enrollmentIds } = await campaign({ schedule: newYork, contacts: [null] });
  await plan(c.id, enrollmentIds, fridayEvening);
  const [first] = await firstSteps(c.id);
  await db().stepSend.update({ where: { id: first!.id }, data: { state: "queued" } });
  // the fifth attempt fails Monday 16:30 New York: its 4 h backoff ends at 20:30, after the window
  await db().$transaction(async (tx) => {
    assert.ok(await claimSend(tx, first!.id));
    assert.equal(await recordTemporaryFailure(tx, first!.id, 5, "451 try later", new Date("2026-11-23T21:30:00Z")), "retry");
  });
  const row = await db().stepSend.findUniqueOrThrow({ where: { id: first!.id } });
  assert.equal(row.state, "scheduled");
  assert.equal(row.dueAt.toISOString(), "2026-11-24T14:00:00.000Z");
});

test("two campaigns sharing a mailbox never book more than its daily limit together, even planned at once", async () => {
  const { id: accountId } = await account();
  const shared = { host: "Smtp.Shared.example.test", username: "Sales@Example.test", dailyLimit: 3 };
  const a = await campaign({ accountId, credentials: [shared], contacts: Array(5).fill(null) });
  const b = await campaign({ accountId, credentials: [{ ...shared, host: shared.host.toLowerCase(), username: shared.username.toUpperCase() }], contacts: Array(5).fill(null) });
  const now = new Date("2026-11-24T10:00:00Z");
  const planLocked = (c: { campaign: { id: string }; enrollmentIds: string[] }, planned = () => {}, gate: Promise<void> = Promise.resolve()) =>
    db().$transaction(async (tx) => {
      await executor(tx).rows(`SELECT id FROM campaigns WHERE id = $1::uuid FOR UPDATE`, [c.campaign.id]);
      const result = await scheduleEnrollments(tx, c.campaign.id, c.enrollmentIds, now);
      planned();
      await gate;
      return result;
    });
  // campaign A has planned but not committed when campaign B plans: B must wait for A's bookings
  let signalPlanned!: () => void;
  const aPlanned = new Promise<void>((resolve) => (signalPlanned = resolve));
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const first = planLocked(a, signalPlanned, gate);
  await aPlanned;
  let bDone = false;
  const second = planLocked(b).finally(() => (bDone = true));
  await waitFor(
    async () => {
      if (bDone) return true;
      const [row] = await executor(db()).rows<{ n: bigint }>(
        `SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      );
      return Number(row!.n) > 0 || null;
    },
    { what: "campaign B planned or waiting for the mailbox" },
  );
  release();
  await Promise.all([first, second]);
  const rows = await db().stepSend.findMany({ where: { campaignId: { in: [a.campaign.id, b.campaign.id] }, stepPosition: 1 } });
  assert.equal(rows.length, 10);
  const perDay = new Map<string, number>();
  for (const r of rows) perDay.set(r.limitDay!.toISOString().slice(0, 10), (perDay.get(r.limitDay!.toISOString().slice(0, 10)) ?? 0) + 1);
  assert.deepEqual([...perDay.entries()].sort(), [
    ["2026-11-24", 3],
    ["2026-11-25", 3],
    ["2026-11-26", 3],
    ["2026-11-27", 1],
  ]);
});

test("a ramp lowers the first days' limits, and the forecast shows what was planned, day by day in the schedule's zone", async () => {
  const now = new Date("2026-11-24T10:00:00Z"); // Tuesday 05:00 in New York
  const every = { ...newYork, days: ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] };
  const {
    accountId,
    campaign: c,
    enrollmentIds,
  } = await campaign({
    schedule: every,
    steps: [0, 60 * 24],
    credentials: [{ dailyLimit: 4, ramp: { start: 1, increase: 2, startedAt: now } }],
    contacts: Array(9).fill(null),
  });
  await plan(c.id, enrollmentIds, now);
  const sends = await firstSteps(c.id);
  const perDay = new Map<string, number>();
  for (const s of sends) perDay.set(s.limitDay!.toISOString().slice(0, 10), (perDay.get(s.limitDay!.toISOString().slice(0, 10)) ?? 0) + 1);
  assert.deepEqual(
    [...perDay.entries()],
    [
      ["2026-11-24", 1],
      ["2026-11-25", 3],
      ["2026-11-26", 4],
      ["2026-11-27", 1],
    ],
  );

  const forecast = await forecastSends(db(), accountId, c.id, 7, now);
  assert.equal(forecast.timezone, "America/New_York");
  const all = await db().stepSend.findMany({ where: { campaignId: c.id } });
  const schedule = parseSchedule(every);
  const expected = forecast.days.map((d) => {
    const onDay = all.filter((s) => localDay(scheduleZone(schedule, null), s.dueAt) === d.date);
    return { date: d.date, step1: onDay.filter((s) => s.stepPosition === 1).length, followUps: onDay.filter((s) => s.stepPosition > 1).length, total: onDay.length };
  });
  assert.deepEqual(forecast.days, expected);
  assert.deepEqual(
    forecast.days.slice(0, 5).map((d) => d.step1),
    [1, 3, 4, 1, 0],
  );
  assert.equal(forecast.totalScheduled, 18);
  for (const s of all) assert.equal(nextOpening(schedule, "America/New_York", s.dueAt).getTime(), s.dueAt.getTime());
});

test("dispatch's 'every inbox at today's limit' counts the mailbox's sends of other campaigns and the ramp", async () => {
  const { id: accountId } = await account();
  const now = new Date("2026-11-24T10:00:00Z");
  const shared = { host: "smtp.ramp.example.test", username: "ramp", dailyLimit: 10 };
  const other = await campaign({ accountId, credentials: [shared], contacts: [null, null] });
  const ramped = await campaign({ accountId, credentials: [{ ...shared, ramp: { start: 2, increase: 5, startedAt: now } }], contacts: [null] });
  assert.equal(await db().$transaction((tx) => allCredentialsAtDailyLimit(tx, ramped.campaign.id, now)), false);
  await plan(other.campaign.id, other.enrollmentIds, now);
  assert.equal(await db().$transaction((tx) => allCredentialsAtDailyLimit(tx, ramped.campaign.id, now)), true, "2 sent through the mailbox today: the ramp's first day is full");
  assert.equal(await db().$transaction((tx) => allCredentialsAtDailyLimit(tx, other.campaign.id, now)), false, "the unramped inbox has 8 left");
});
