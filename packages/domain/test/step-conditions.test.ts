import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { STEP_CONDITIONS, type StepCondition } from "@outreach/core";
import { executor, markEnrollmentsCompleted, type Db } from "@outreach/db";
import { createAccountOnPlan, createTestDatabase, type TestDatabase } from "@outreach/testing";
import { claimAndLoadSends } from "../src/sending/load-send.js";
import { skipUnmetCondition } from "../src/sending/skip-unmet-condition.js";
import { unmetConditionReason } from "../src/sending/step-condition.js";
import { recordClick } from "../src/tracking/record-click.js";

let database: TestDatabase;
let db: Db;
let accountId: string;
let counter = 0;

before(async () => {
  database = await createTestDatabase();
  db = database.db;
  accountId = (await createAccountOnPlan(db, "scale", { email: `conditions-${Date.now()}@example.com`, currentPeriodEnd: new Date(Date.now() + 30 * 86_400_000) })).id;
});
after(async () => {
  await database?.drop();
});

const OPENED = new Date("2026-03-02T08:00:00.000Z");
const CLICKED = new Date("2026-03-02T08:05:00.000Z");

/** An active campaign of three steps, step 2 with the condition; an enrollment sent step 1, its steps 2 and 3 in the states given. */
async function seed(options: {
  condition?: StepCondition;
  openedAt?: Date | null;
  clickedAt?: Date | null;
  step2?: "queued" | "sending" | "scheduled";
  step3?: "scheduled" | null;
  stopOnClick?: boolean;
}) {
  const { condition = "none", openedAt = null, clickedAt = null, step2 = "sending", step3 = "scheduled", stopOnClick = false } = options;
  const campaign = await db.campaign.create({
    data: {
      accountId,
      name: `Conditions ${++counter}`,
      status: "active",
      trackClicks: true,
      stopOnClick,
      steps: {
        create: [
          { position: 1, subject: "Hello", bodyHtml: `<p><a href="https://acme.test/pricing">Pricing</a></p>` },
          { position: 2, subject: "", bodyHtml: "<p>Second</p>", delayMinutes: 60, condition },
          { position: 3, subject: "", bodyHtml: "<p>Third</p>", delayMinutes: 120 },
        ],
      },
    },
  });
  const contact = await db.contact.create({ data: { accountId, email: `contact${counter}@example.com` } });
  const sentAt = new Date("2026-03-01T10:00:00.000Z");
  const enrollment = await db.enrollment.create({
    data: { accountId, campaignId: campaign.id, contactId: contact.id, status: openedAt ? "opened" : "sent", sentAt, dispatchedAt: sentAt, openedAt, clickedAt },
  });
  const base = { accountId, campaignId: campaign.id, enrollmentId: enrollment.id };
  await db.stepSend.create({ data: { ...base, stepPosition: 1, state: "sent", dueAt: sentAt, sentAt, messageId: `<${enrollment.id}@sender.test>` } });
  const second = await db.stepSend.create({ data: { ...base, stepPosition: 2, state: step2, dueAt: new Date(), attempts: step2 === "sending" ? 1 : 0 } });
  const third = step3 ? await db.stepSend.create({ data: { ...base, stepPosition: 3, state: step3, dueAt: new Date(Date.now() + 3_600_000) } }) : null;
  return { campaign, contact, enrollment, second, third };
}

describe("a step's condition judged on the enrollment's first open and click", () => {
  test("none is always met; opened, not_opened, clicked and not_clicked follow openedAt and clickedAt, and say why when they fail", () => {
    const cases: Array<[StepCondition, { openedAt: Date | null; clickedAt: Date | null }, RegExp | null]> = [
      ["none", { openedAt: null, clickedAt: null }, null],
      ["none", { openedAt: OPENED, clickedAt: CLICKED }, null],
      ["opened", { openedAt: OPENED, clickedAt: null }, null],
      ["opened", { openedAt: null, clickedAt: CLICKED }, /^condition opened not met: no open/],
      ["not_opened", { openedAt: null, clickedAt: CLICKED }, null],
      ["not_opened", { openedAt: OPENED, clickedAt: null }, /^condition not_opened not met: the contact opened on 2026-03-02T08:00:00.000Z$/],
      ["clicked", { openedAt: null, clickedAt: CLICKED }, null],
      ["clicked", { openedAt: OPENED, clickedAt: null }, /^condition clicked not met: no click/],
      ["not_clicked", { openedAt: OPENED, clickedAt: null }, null],
      ["not_clicked", { openedAt: null, clickedAt: CLICKED }, /^condition not_clicked not met: the contact clicked on 2026-03-02T08:05:00.000Z$/],
    ];
    for (const [condition, engagement, expected] of cases) {
      const reason = unmetConditionReason(condition, engagement);
      if (expected === null) assert.equal(reason, null, `${condition} ${JSON.stringify(engagement)}`);
      else assert.match(reason ?? "", expected, `${condition} ${JSON.stringify(engagement)}`);
    }
    assert.deepEqual([...STEP_CONDITIONS], ["none", "opened", "not_opened", "clicked", "not_clicked"]);
  });

  test("the claimed send's context carries the step's condition and the enrollment's opens and clicks, as stored", async () => {
    const variants: Array<[StepCondition, Date | null, Date | null, boolean]> = [
      ["opened", OPENED, null, true],
      ["opened", null, null, false],
      ["not_opened", null, null, true],
      ["not_opened", OPENED, null, false],
      ["clicked", OPENED, CLICKED, true],
      ["clicked", OPENED, null, false],
      ["not_clicked", null, null, true],
      ["not_clicked", null, CLICKED, false],
    ];
    for (const [condition, openedAt, clickedAt, met] of variants) {
      const { second } = await seed({ condition, openedAt, clickedAt, step2: "queued" });
      const claimed = (await claimAndLoadSends(db, [second.id], "test-claimer")).get(second.id);
      assert.ok(claimed, "claimed");
      assert.equal(claimed.step?.condition, condition);
      assert.equal(claimed.enrollmentOpenedAt?.toISOString() ?? null, openedAt?.toISOString() ?? null);
      assert.equal(claimed.enrollmentClickedAt?.toISOString() ?? null, clickedAt?.toISOString() ?? null);
      const reason = unmetConditionReason(claimed.step!.condition, { openedAt: claimed.enrollmentOpenedAt, clickedAt: claimed.enrollmentClickedAt });
      assert.equal(reason === null, met, `${condition}: opened ${openedAt !== null}, clicked ${clickedAt !== null}`);
    }
  });
});

describe("skipUnmetCondition", () => {
  const skipOf = (seeded: Awaited<ReturnType<typeof seed>>, reason: string) => ({
    stepSendId: seeded.second.id,
    enrollmentId: seeded.enrollment.id,
    contactId: seeded.contact.id,
    campaignId: seeded.campaign.id,
    accountId,
    reason,
  });

  test("skips the step with its reason and records one condition_not_met skip; the next step keeps its time; nothing is counted, sent or announced", async () => {
    const seeded = await seed({ condition: "not_clicked", clickedAt: CLICKED });
    const reason = unmetConditionReason("not_clicked", { openedAt: null, clickedAt: CLICKED })!;
    const usageBefore = await executor(db).rows<{ sends: number }>(`SELECT COALESCE(sum(sends), 0)::int AS sends FROM usage_periods WHERE "accountId" = $1::uuid`, [accountId]);
    const eventsBefore = await db.event.count({ where: { accountId } });

    assert.deepEqual(await skipUnmetCondition(db, skipOf(seeded, reason)), { skipped: true, completed: false });

    const step2 = await db.stepSend.findUniqueOrThrow({ where: { id: seeded.second.id } });
    assert.equal(step2.state, "skipped");
    assert.equal(step2.lastError, reason);
    assert.equal(step2.sentAt, null);
    assert.equal(step2.messageId, null);
    const step3 = await db.stepSend.findUniqueOrThrow({ where: { id: seeded.third!.id } });
    assert.equal(step3.state, "scheduled");
    assert.equal(step3.dueAt.toISOString(), seeded.third!.dueAt.toISOString(), "the next step keeps its own time");
    const skips = await db.enrollmentSkip.findMany({ where: { campaignId: seeded.campaign.id } });
    assert.equal(skips.length, 1);
    assert.deepEqual(
      { kind: skips[0]!.kind, reason: skips[0]!.reason, enrollmentId: skips[0]!.enrollmentId, contactId: skips[0]!.contactId, accountId: skips[0]!.accountId },
      { kind: "condition_not_met", reason, enrollmentId: seeded.enrollment.id, contactId: seeded.contact.id, accountId },
    );
    const enrollment = await db.enrollment.findUniqueOrThrow({ where: { id: seeded.enrollment.id } });
    assert.equal(enrollment.completedAt, null, "step 3 is still to go");
    assert.equal(enrollment.status, "sent");
    const usageAfter = await executor(db).rows<{ sends: number }>(`SELECT COALESCE(sum(sends), 0)::int AS sends FROM usage_periods WHERE "accountId" = $1::uuid`, [accountId]);
    assert.deepEqual(usageAfter, usageBefore, "a skipped step is not a send of the plan");
    assert.equal(await db.event.count({ where: { accountId } }), eventsBefore, "no event");

    // a second skip of the same send (a replayed job) changes nothing
    assert.deepEqual(await skipUnmetCondition(db, skipOf(seeded, reason)), { skipped: false, completed: false });
    assert.equal(await db.enrollmentSkip.count({ where: { campaignId: seeded.campaign.id } }), 1);
  });

  test("the last step skipped completes the enrollment", async () => {
    const seeded = await seed({ condition: "opened", step3: null });
    const now = new Date("2026-03-05T09:00:00.000Z");
    assert.deepEqual(await skipUnmetCondition(db, skipOf(seeded, "condition opened not met"), now), { skipped: true, completed: true });
    const enrollment = await db.enrollment.findUniqueOrThrow({ where: { id: seeded.enrollment.id } });
    assert.equal(enrollment.completedAt?.toISOString(), now.toISOString());
  });

  test("a send no longer in sending (cancelled by a reply meanwhile) is not skipped", async () => {
    const seeded = await seed({ condition: "clicked", step2: "scheduled" });
    assert.deepEqual(await skipUnmetCondition(db, skipOf(seeded, "condition clicked not met")), { skipped: false, completed: false });
    assert.equal((await db.stepSend.findUniqueOrThrow({ where: { id: seeded.second.id } })).state, "scheduled");
    assert.equal(await db.enrollmentSkip.count({ where: { campaignId: seeded.campaign.id } }), 0);
  });
});

describe("markEnrollmentsCompleted", () => {
  test("marks only enrollments with no step left and one sent or skipped, not stopped, once", async () => {
    const open = await seed({ step2: "scheduled" });
    const done = await seed({ step2: "scheduled", step3: null });
    await db.stepSend.update({ where: { id: done.second.id }, data: { state: "skipped" } });
    const stopped = await seed({ step2: "scheduled", step3: null });
    await db.stepSend.update({ where: { id: stopped.second.id }, data: { state: "cancelled" } });
    await db.enrollment.update({ where: { id: stopped.enrollment.id }, data: { stoppedAt: new Date(), stoppedReason: "clicked" } });
    const contact = await db.contact.create({ data: { accountId, email: `undispatched${++counter}@example.com` } });
    const undispatched = await db.enrollment.create({ data: { accountId, campaignId: open.campaign.id, contactId: contact.id } });

    const now = new Date("2026-03-06T10:00:00.000Z");
    const ids = [open.enrollment.id, done.enrollment.id, stopped.enrollment.id, undispatched.id];
    assert.deepEqual(await markEnrollmentsCompleted(db, ids, now), [done.enrollment.id]);
    assert.deepEqual(await markEnrollmentsCompleted(db, ids, new Date()), [], "idempotent");
    assert.equal((await db.enrollment.findUniqueOrThrow({ where: { id: done.enrollment.id } })).completedAt?.toISOString(), now.toISOString());
  });
});

describe("stop_on_click", () => {
  const clickedEvents = (enrollmentId: string) => db.event.count({ where: { type: "enrollment.clicked", data: { path: ["enrollment_id"], equals: enrollmentId } } });

  test("the first click stops an enrollment of a campaign with stop_on_click: its steps not yet out are cancelled, the click and its event recorded", async () => {
    const seeded = await seed({ stopOnClick: true, step2: "scheduled" });
    assert.equal(await recordClick(db, seeded.enrollment.id, "https://acme.test/pricing", CLICKED), true);
    const enrollment = await db.enrollment.findUniqueOrThrow({ where: { id: seeded.enrollment.id } });
    assert.equal(enrollment.clickedAt?.toISOString(), CLICKED.toISOString());
    assert.equal(enrollment.stoppedReason, "clicked");
    assert.ok(enrollment.stoppedAt);
    assert.equal(enrollment.status, "sent", "stopped without an outcome of its own");
    const steps = await db.stepSend.findMany({ where: { enrollmentId: seeded.enrollment.id }, orderBy: { stepPosition: "asc" } });
    assert.deepEqual(
      steps.map((s) => s.state),
      ["sent", "cancelled", "cancelled"],
    );
    assert.equal(await clickedEvents(seeded.enrollment.id), 1);
  });

  test("without stop_on_click a click changes no step", async () => {
    const seeded = await seed({ stopOnClick: false, step2: "scheduled" });
    assert.equal(await recordClick(db, seeded.enrollment.id, "https://acme.test/pricing", CLICKED), true);
    const enrollment = await db.enrollment.findUniqueOrThrow({ where: { id: seeded.enrollment.id } });
    assert.equal(enrollment.stoppedAt, null);
    const steps = await db.stepSend.findMany({ where: { enrollmentId: seeded.enrollment.id }, orderBy: { stepPosition: "asc" } });
    assert.deepEqual(
      steps.map((s) => s.state),
      ["sent", "scheduled", "scheduled"],
    );
    assert.equal(await clickedEvents(seeded.enrollment.id), 1);
  });
});
