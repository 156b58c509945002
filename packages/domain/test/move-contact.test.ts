import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, test } from "node:test";
import type { Db } from "@outreach/db";
import { createAccountOnPlan, createTestDatabase, type TestDatabase } from "@outreach/testing";
import { MAX_MOVE_CHAIN, moveContactToCampaign, moveDueCompletedEnrollments, moveOnReply } from "../src/sending/move-contact.js";

// Moving a contact on to a follow-on campaign (reply_actions, on_completion):
// the rules of every enrollment, the refusals recorded on the origin, and the
// new enrollment planned by the scheduler.
let database: TestDatabase;
let db: Db;

before(async () => {
  database = await createTestDatabase();
  db = database.db;
});

after(async () => {
  await database?.drop();
});

const DAY = 86_400_000;

async function account(plan = "scale") {
  const now = Date.now();
  return createAccountOnPlan(db, plan, { email: `acct-${randomUUID().slice(0, 8)}@example.test`, currentPeriodStart: new Date(now - DAY), currentPeriodEnd: new Date(now + 29 * DAY) });
}

/** A campaign with two steps (a day apart) and one inbox of `dailyLimit`. */
async function campaign(accountId: string, status: "pending" | "active" | "paused", options: { outreachId?: string; dailyLimit?: number } = {}) {
  const created = await db.campaign.create({
    data: {
      accountId,
      name: `Campaign ${randomUUID().slice(0, 8)}`,
      status,
      outreachId: options.outreachId ?? null,
      minWaitSeconds: 0,
      maxWaitSeconds: 0,
      steps: {
        create: [
          { position: 1, subject: "Hello", bodyHtml: "b" },
          { position: 2, subject: "", bodyHtml: "b", delayMinutes: 1440 },
        ],
      },
    },
  });
  await db.smtpCredential.create({
    data: {
      accountId,
      campaignId: created.id,
      label: "inbox",
      fromEmail: `inbox-${created.id.slice(0, 8)}@sender.test`,
      smtpHost: "127.0.0.1",
      smtpPort: 25,
      smtpUsername: `inbox-${created.id}`,
      smtpPasswordEnc: "x",
      dailyLimit: options.dailyLimit ?? 100,
    },
  });
  return created;
}

/** A contact whose enrollment in `campaignId` sent its steps (completed `completedAgoMs` ago). */
async function finished(accountId: string, campaignId: string, options: { email?: string; completedAgoMs?: number; status?: "sent" | "replied" } = {}) {
  const contact = await db.contact.create({ data: { accountId, email: options.email ?? `c-${randomUUID().slice(0, 8)}@example.com` } });
  const completedAt = new Date(Date.now() - (options.completedAgoMs ?? 0));
  const enrollment = await db.enrollment.create({
    data: { accountId, campaignId, contactId: contact.id, status: options.status ?? "sent", sentAt: completedAt, dispatchedAt: completedAt, completedAt },
  });
  return { contact, enrollment };
}

const move = (fromEnrollmentId: string, targetCampaignId: string, now = new Date()) =>
  db.$transaction((tx) => moveContactToCampaign(tx, { fromEnrollmentId, targetCampaignId, why: "completed", now }));
const origin = (id: string) => db.enrollment.findUniqueOrThrow({ where: { id } });

test("a move into an active campaign enrolls the contact there, plans its steps at once and records moved on the origin, once", async () => {
  const { id: accountId } = await account();
  const a = await campaign(accountId, "active");
  const b = await campaign(accountId, "active");
  const { contact, enrollment } = await finished(accountId, a.id);

  const result = await move(enrollment.id, b.id);
  assert.equal(result.moved, true);
  assert.ok(result.moved && result.scheduled);
  const moved = await db.enrollment.findUniqueOrThrow({ where: { campaignId_contactId: { campaignId: b.id, contactId: contact.id } } });
  assert.equal(moved.movedFromEnrollmentId, enrollment.id);
  assert.equal(moved.status, "pending");
  assert.notEqual(moved.dispatchedAt, null, "planned, not waiting for a dispatch");
  const sends = await db.stepSend.findMany({ where: { enrollmentId: moved.id }, orderBy: { stepPosition: "asc" } });
  assert.deepEqual(
    sends.map((s) => [s.stepPosition, s.state]),
    [
      [1, "scheduled"],
      [2, "scheduled"],
    ],
  );
  assert.ok(sends[1]!.dueAt.getTime() - sends[0]!.dueAt.getTime() >= DAY - 1000, "step 2 keeps its delay after step 1");
  const after = await origin(enrollment.id);
  assert.equal(after.movedOnResult, "moved");
  assert.notEqual(after.movedOnAt, null);

  const again = await move(enrollment.id, b.id);
  assert.deepEqual(again, { moved: false, reason: "already moved on" });
  assert.equal((await origin(enrollment.id)).movedOnAt!.getTime(), after.movedOnAt!.getTime());
});

test("a pending target keeps the new enrollment pending for its first dispatch; a paused one plans it and holds it", async () => {
  const { id: accountId } = await account();
  const a = await campaign(accountId, "active");
  const pending = await campaign(accountId, "pending");
  const paused = await campaign(accountId, "paused");
  const first = await finished(accountId, a.id);
  const second = await finished(accountId, a.id);

  const toPending = await move(first.enrollment.id, pending.id);
  assert.ok(toPending.moved && !toPending.scheduled);
  const waiting = await db.enrollment.findUniqueOrThrow({ where: { campaignId_contactId: { campaignId: pending.id, contactId: first.contact.id } } });
  assert.equal(waiting.dispatchedAt, null);
  assert.equal(await db.stepSend.count({ where: { enrollmentId: waiting.id } }), 0);

  const toPaused = await move(second.enrollment.id, paused.id);
  assert.ok(toPaused.moved && toPaused.scheduled);
  assert.equal(await db.stepSend.count({ where: { campaignId: paused.id, state: "scheduled" } }), 2);
  assert.equal((await db.campaign.findUniqueOrThrow({ where: { id: paused.id } })).status, "paused");
});

test("moves go through the scheduler: a full inbox puts the next contact's step 1 on a later day", async () => {
  const { id: accountId } = await account();
  const a = await campaign(accountId, "active");
  const b = await campaign(accountId, "active", { dailyLimit: 1 });
  const first = await finished(accountId, a.id);
  const second = await finished(accountId, a.id);
  const now = new Date();
  await move(first.enrollment.id, b.id, now);
  await move(second.enrollment.id, b.id, now);
  const step1 = await db.stepSend.findMany({ where: { campaignId: b.id, stepPosition: 1 }, orderBy: { dueAt: "asc" } });
  assert.equal(step1.length, 2);
  assert.notEqual(step1[0]!.limitDay, step1[1]!.limitDay, "one step 1 per day on an inbox with daily_limit 1");
  assert.ok(step1[1]!.dueAt.getTime() > step1[0]!.dueAt.getTime());
});

test("refusals are recorded on the origin: already enrolled, unsubscribed, blocklisted (with its skip), plan limit, another account's campaign, the campaign itself", async () => {
  const { id: accountId } = await account();
  const a = await campaign(accountId, "active");
  const b = await campaign(accountId, "active");

  const enrolled = await finished(accountId, a.id);
  await db.enrollment.create({ data: { accountId, campaignId: b.id, contactId: enrolled.contact.id } });
  assert.deepEqual(await move(enrolled.enrollment.id, b.id), { moved: false, reason: "already enrolled" });
  assert.equal((await origin(enrolled.enrollment.id)).movedOnResult, "already enrolled");

  const unsubscribed = await finished(accountId, a.id);
  await db.contact.update({ where: { id: unsubscribed.contact.id }, data: { unsubscribedAt: new Date() } });
  assert.deepEqual(await move(unsubscribed.enrollment.id, b.id), { moved: false, reason: "unsubscribed" });

  const blocked = await finished(accountId, a.id, { email: `someone@blocked-${randomUUID().slice(0, 6)}.test` });
  await db.blocklistEntry.create({ data: { accountId, kind: "domain", value: blocked.contact.email.split("@")[1]! } });
  assert.deepEqual(await move(blocked.enrollment.id, b.id), { moved: false, reason: "blocklisted" });
  const skip = await db.enrollmentSkip.findFirstOrThrow({ where: { campaignId: b.id, contactId: blocked.contact.id } });
  assert.equal(skip.kind, "blocklisted");
  assert.match(skip.reason, /^blocked: domain /);

  const other = await account();
  const foreign = await campaign(other.id, "active");
  const toForeign = await finished(accountId, a.id);
  assert.deepEqual(await move(toForeign.enrollment.id, foreign.id), { moved: false, reason: "campaign_not_found" });
  assert.equal(await db.enrollment.count({ where: { campaignId: foreign.id } }), 0);

  const toItself = await finished(accountId, a.id);
  assert.deepEqual(await move(toItself.enrollment.id, a.id), { moved: false, reason: "same campaign" });

  for (const id of [unsubscribed.enrollment.id, blocked.enrollment.id, toForeign.enrollment.id]) assert.notEqual((await origin(id)).movedOnAt, null);
  assert.equal(await db.enrollment.count({ where: { campaignId: b.id } }), 1, "only the contact enrolled before");

  // an account over its monthly limit enrolls no one
  const limited = await account("free");
  const plan = await db.plan.findUniqueOrThrow({ where: { slug: "free" } });
  const la = await campaign(limited.id, "active");
  const lb = await campaign(limited.id, "active");
  await db.usagePeriod.create({ data: { accountId: limited.id, periodStart: limited.currentPeriodStart, periodEnd: limited.currentPeriodEnd, sends: plan.monthlyLimit } });
  const overLimit = await finished(limited.id, la.id);
  assert.deepEqual(await move(overLimit.enrollment.id, lb.id), { moved: false, reason: "plan_limit_reached" });
  assert.equal((await origin(overLimit.enrollment.id)).movedOnResult, "plan_limit_reached");
  assert.equal(await db.enrollment.count({ where: { campaignId: lb.id } }), 0);
});

test("a unique_contacts outreach keeps a moved contact out of a sibling campaign: a cross_campaign_duplicate skip", async () => {
  const { id: accountId } = await account();
  const outreach = await db.outreach.create({ data: { accountId, name: "unique", uniqueContacts: true } });
  const a = await campaign(accountId, "active");
  const sibling = await campaign(accountId, "active", { outreachId: outreach.id });
  const b = await campaign(accountId, "active", { outreachId: outreach.id });
  const { contact, enrollment } = await finished(accountId, a.id);
  await db.enrollment.create({ data: { accountId, campaignId: sibling.id, contactId: contact.id } });

  assert.deepEqual(await move(enrollment.id, b.id), { moved: false, reason: "cross_campaign_duplicate" });
  const skip = await db.enrollmentSkip.findFirstOrThrow({ where: { campaignId: b.id, contactId: contact.id } });
  assert.equal(skip.kind, "cross_campaign_duplicate");
});

test(`a chain of moves stops at ${MAX_MOVE_CHAIN}: an origin ${MAX_MOVE_CHAIN} moves deep is refused, one less is moved`, async () => {
  const { id: accountId } = await account();
  const contact = await db.contact.create({ data: { accountId, email: `chain-${randomUUID().slice(0, 8)}@example.com` } });
  const chain: string[] = [];
  for (let i = 0; i <= MAX_MOVE_CHAIN; i++) {
    const c = await campaign(accountId, "pending");
    const e = await db.enrollment.create({ data: { accountId, campaignId: c.id, contactId: contact.id, status: "sent", movedFromEnrollmentId: chain.at(-1) ?? null } });
    chain.push(e.id);
  }
  const target = await campaign(accountId, "pending");
  assert.deepEqual(await move(chain[MAX_MOVE_CHAIN]!, target.id), { moved: false, reason: "move chain too long" });
  assert.equal((await origin(chain[MAX_MOVE_CHAIN]!)).movedOnResult, "move chain too long");
  assert.equal((await move(chain[MAX_MOVE_CHAIN - 1]!, target.id)).moved, true);
});

test("moveOnReply moves on a category its campaign has an action for, and leaves other categories alone", async () => {
  const { id: accountId } = await account();
  const b = await campaign(accountId, "active");
  const a = await db.campaign.update({ where: { id: (await campaign(accountId, "active")).id }, data: { replyActions: [{ category: "interested", moveToCampaignId: b.id }] } });
  const interested = await finished(accountId, a.id, { status: "replied" });
  const notInterested = await finished(accountId, a.id, { status: "replied" });
  const now = new Date();

  const other = await db.$transaction((tx) => moveOnReply(tx, { enrollmentId: notInterested.enrollment.id, category: "not_interested", now }));
  assert.deepEqual(other, { moved: false, reason: "no reply action" });
  assert.equal((await origin(notInterested.enrollment.id)).movedOnAt, null);

  const moved = await db.$transaction((tx) => moveOnReply(tx, { enrollmentId: interested.enrollment.id, category: "interested", now }));
  assert.equal(moved.moved, true);
  const inB = await db.enrollment.findUniqueOrThrow({ where: { campaignId_contactId: { campaignId: b.id, contactId: interested.contact.id } } });
  assert.equal(inB.movedFromEnrollmentId, interested.enrollment.id);
  assert.equal(await db.stepSend.count({ where: { enrollmentId: inB.id } }), 2);

  // a second reply of the same category moves no one again
  assert.deepEqual(await db.$transaction((tx) => moveOnReply(tx, { enrollmentId: interested.enrollment.id, category: "interested", now })), { moved: false, reason: "already moved on" });
});

test("the on_completion sweep moves contacts whose wait is over, and neither those still waiting, those who replied, nor those stopped", async () => {
  const { id: accountId } = await account();
  const b = await campaign(accountId, "active");
  const a = await campaign(accountId, "active");
  await db.campaign.update({ where: { id: a.id }, data: { onCompletion: { moveToCampaignId: b.id, waitDays: 2 } } });
  const due = await finished(accountId, a.id, { completedAgoMs: 2 * DAY + 60_000 });
  const waiting = await finished(accountId, a.id, { completedAgoMs: DAY });
  const replied = await finished(accountId, a.id, { completedAgoMs: 3 * DAY, status: "replied" });
  const stopped = await finished(accountId, a.id, { completedAgoMs: 3 * DAY });
  await db.enrollment.update({ where: { id: stopped.enrollment.id }, data: { stoppedAt: new Date(), stoppedReason: "domain_replied" } });

  const result = await moveDueCompletedEnrollments(db, new Date(), 50);
  assert.equal(result.moved, 1);
  assert.deepEqual(result.accountIds, [accountId]);
  const inB = await db.enrollment.findMany({ where: { campaignId: b.id } });
  assert.deepEqual(
    inB.map((e) => e.contactId),
    [due.contact.id],
  );
  for (const e of [waiting, replied, stopped]) assert.equal((await origin(e.enrollment.id)).movedOnAt, null);

  // taken once: a second round finds nothing
  assert.equal((await moveDueCompletedEnrollments(db, new Date(), 50)).taken, 0);
});
