import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, test } from "node:test";
import { enrollmentBatchStats, executor, recountCampaignCounts, rollUpCampaignCounts, stepSendCredentialStats, type Db } from "@outreach/db";
import { createTestDatabase, type TestDatabase } from "@outreach/testing";
import { recordBounce, recordSentBatch, type SentInput } from "../src/sending/send-outcome.js";

// The campaign counts kept by the database's triggers (campaign_batch_counts,
// campaign_inbox_counts) against the truth: the same numbers counted from the
// enrollments and step sends themselves, after every kind of write the engine
// and the API make (inserts, the sender's batch record, bounces, opens, clicks,
// replies, stops, unsubscribes, failures, a contact erased, an inbox deleted, a
// campaign deleted), before and after roll-ups, and with roll-ups running at once.

let database: TestDatabase;
let db: Db;

before(async () => {
  database = await createTestDatabase();
  db = database.db;
});

after(async () => {
  await database?.drop();
});

/** enrollmentBatchStats as it was computed before the counts: from every enrollment. */
async function batchTruth(campaignId: string) {
  return executor(db).rows(
    `SELECT "batchNumber" AS batch_number, count(*)::int AS total,
       count(*) FILTER (WHERE status = 'pending' AND "stoppedAt" IS NULL)::int AS pending,
       count(*) FILTER (WHERE status = 'sent')::int AS sent, count(*) FILTER (WHERE status = 'opened')::int AS opened,
       count(*) FILTER (WHERE status = 'replied')::int AS replied, count(*) FILTER (WHERE status = 'bounced')::int AS bounced,
       count(*) FILTER (WHERE status = 'unsubscribed')::int AS unsubscribed, count(*) FILTER (WHERE "sentAt" IS NOT NULL)::int AS delivered,
       count(*) FILTER (WHERE "sentAt" IS NOT NULL AND ("openedAt" IS NOT NULL OR "repliedAt" IS NOT NULL))::int AS ever_opened,
       count(*) FILTER (WHERE "sentAt" IS NOT NULL AND "repliedAt" IS NOT NULL)::int AS ever_replied,
       count(*) FILTER (WHERE "sentAt" IS NOT NULL AND "clickedAt" IS NOT NULL)::int AS ever_clicked,
       count(*) FILTER (WHERE "stoppedAt" IS NOT NULL)::int AS stopped
     FROM enrollments WHERE "campaignId" = $1::uuid GROUP BY "batchNumber" ORDER BY "batchNumber"`,
    [campaignId],
  );
}

/** stepSendCredentialStats as it was computed before the counts, with failed sends, per inbox in inbox order. */
async function inboxTruth(campaignId: string, dayStart: Date, dayEnd: Date) {
  return executor(db).rows<{ credential_id: string | null }>(
    `SELECT "credentialId" AS credential_id, count(*) FILTER (WHERE state IN ('sent', 'bounced'))::int AS sends,
       count(*) FILTER (WHERE state IN ('sent', 'bounced') AND outcome = 'unknown')::int AS unconfirmed,
       count(*) FILTER (WHERE state = 'bounced')::int AS bounces,
       count(*) FILTER (WHERE state = 'bounced' AND NOT "bounceUnverified")::int AS verified_bounces,
       count(*) FILTER (WHERE state = 'failed')::int AS failed,
       count(*) FILTER (WHERE state IN ('sent', 'bounced') AND "sentAt" >= $1 AND "sentAt" < $2)::int AS sends_today,
       count(*) FILTER (WHERE state IN ('sent', 'bounced') AND "stepPosition" = 1 AND "sentAt" >= $1 AND "sentAt" < $2)::int AS step1_sends_today
     FROM step_sends WHERE "campaignId" = $3::uuid AND state IN ('sent', 'bounced', 'failed')
     GROUP BY "credentialId" ORDER BY "credentialId" NULLS FIRST`,
    [dayStart, dayEnd, campaignId],
  );
}

const byInbox = <T extends { credential_id: string | null }>(rows: T[]) => [...rows].sort((a, b) => (a.credential_id ?? "").localeCompare(b.credential_id ?? ""));

async function assertCountsTrue(campaignId: string, when: string) {
  const dayStart = new Date(Date.now() - 86_400_000);
  const dayEnd = new Date(Date.now() + 86_400_000);
  assert.deepEqual(await enrollmentBatchStats(db, campaignId), await batchTruth(campaignId), `per batch, ${when}`);
  assert.deepEqual(byInbox(await stepSendCredentialStats(db, campaignId, dayStart, dayEnd)), byInbox(await inboxTruth(campaignId, dayStart, dayEnd)), `per inbox, ${when}`);
}

interface Seeded {
  accountId: string;
  campaignId: string;
  credentials: string[];
  enrollments: Array<{ id: string; contactId: string; step1: string; step2: string; credentialId: string }>;
}

/** A campaign with two inboxes and `contacts` enrollments in two batches, two steps planned for each. */
async function seed(contacts: number, accountId?: string): Promise<Seeded> {
  const tag = randomUUID().slice(0, 8);
  if (!accountId) {
    const plan = await db.plan.findUniqueOrThrow({ where: { slug: "scale" } });
    accountId = (await db.account.create({ data: { email: `counts-${tag}@example.test`, planId: plan.id, currentPeriodEnd: new Date(Date.now() + 30 * 86_400_000) } })).id;
  }
  const { id: campaignId } = await db.campaign.create({ data: { accountId, name: `Counts ${tag}`, status: "active" } });
  const credentials: string[] = [];
  for (const n of [1, 2]) {
    const inbox = `inbox${n}-${tag}@sender.test`;
    const credential = await db.smtpCredential.create({
      data: { accountId, campaignId, label: `Inbox ${n}`, fromEmail: inbox, smtpHost: "127.0.0.1", smtpPort: 25, smtpUsername: inbox, smtpPasswordEnc: "x", dailyLimit: 100 },
    });
    credentials.push(credential.id);
  }
  const emails = Array.from({ length: contacts }, (_, i) => `c${i}-${tag}@example.test`);
  await db.contact.createMany({ data: emails.map((email) => ({ accountId: accountId!, email })) });
  const contactRows = await db.contact.findMany({ where: { accountId, email: { in: emails } }, orderBy: { email: "asc" } });
  await db.enrollment.createMany({ data: contactRows.map((c, i) => ({ accountId: accountId!, campaignId, contactId: c.id, batchNumber: 1 + (i % 2) })) });
  const enrollmentRows = await db.enrollment.findMany({ where: { campaignId }, orderBy: { id: "asc" } });
  const now = Date.now();
  await db.stepSend.createMany({
    data: enrollmentRows.flatMap((e, i) =>
      [1, 2].map((stepPosition) => ({ accountId: accountId!, campaignId, enrollmentId: e.id, stepPosition, credentialId: credentials[i % 2], dueAt: new Date(now + (stepPosition - 1) * 86_400_000) })),
    ),
  });
  const sends = await db.stepSend.findMany({ where: { campaignId }, select: { id: true, enrollmentId: true, stepPosition: true } });
  const sendOf = (enrollmentId: string, position: number) => sends.find((s) => s.enrollmentId === enrollmentId && s.stepPosition === position)!.id;
  return {
    accountId,
    campaignId,
    credentials,
    enrollments: enrollmentRows.map((e, i) => ({ id: e.id, contactId: e.contactId, step1: sendOf(e.id, 1), step2: sendOf(e.id, 2), credentialId: credentials[i % 2]! })),
  };
}

/** Step 1 of these enrollments handed to SMTP and recorded by the sender's batch statement (the first `unknown` of them with an unknown outcome). */
async function sendStep1(s: Seeded, enrollments: Seeded["enrollments"], unknown = 0) {
  await db.stepSend.updateMany({ where: { id: { in: enrollments.map((e) => e.step1) } }, data: { state: "sending", claimedAt: new Date() } });
  const account = await db.account.findUniqueOrThrow({ where: { id: s.accountId } });
  const inputs: SentInput[] = enrollments.map((e, i) => ({
    stepSendId: e.step1,
    accountId: s.accountId,
    credentialId: e.credentialId,
    messageId: `<${e.step1}@sender.test>`,
    accountPeriod: { start: account.currentPeriodStart, end: account.currentPeriodEnd },
    ...(i < unknown ? { outcome: "unknown" as const, note: "no answer after the body" } : {}),
  }));
  await db.$transaction((tx) => recordSentBatch(tx, inputs));
}

test("the counts equal the enrollments and step sends counted whole, after every kind of write, before and after roll-ups", async () => {
  const s = await seed(24);
  const other = await seed(6, s.accountId);
  await assertCountsTrue(s.campaignId, "after planning");

  const e = s.enrollments;
  await sendStep1(s, e.slice(0, 18), 2);
  await assertCountsTrue(s.campaignId, "after the sender's batch record");

  // bounces: one verified (cites our Message-ID), one matched by recipient only
  await db.$transaction((tx) => recordBounce(tx, { enrollmentId: e[0]!.id, accountId: s.accountId, reason: "550 no such user", stepSendId: e[0]!.step1, credentialId: e[0]!.credentialId }));
  await db.$transaction((tx) => recordBounce(tx, { enrollmentId: e[1]!.id, accountId: s.accountId, reason: "550 gone", stepSendId: e[1]!.step1, credentialId: e[1]!.credentialId, verified: false }));
  // opens, a click, replies (one without an open), a stop, an unsubscribe, failures
  const now = new Date();
  await db.enrollment.updateMany({ where: { id: { in: [e[2]!.id, e[3]!.id, e[4]!.id] } }, data: { status: "opened", openedAt: now } });
  await db.enrollment.update({ where: { id: e[3]!.id }, data: { clickedAt: now } });
  await db.enrollment.updateMany({ where: { id: { in: [e[4]!.id, e[5]!.id] } }, data: { status: "replied", repliedAt: now } });
  await db.stepSend.updateMany({ where: { enrollmentId: { in: [e[4]!.id, e[5]!.id] }, state: "scheduled" }, data: { state: "cancelled" } });
  await db.enrollment.update({ where: { id: e[20]!.id }, data: { stoppedAt: now, stoppedReason: "company_replied" } });
  await db.enrollment.update({ where: { id: e[6]!.id }, data: { status: "unsubscribed", unsubscribedAt: now } });
  await db.stepSend.updateMany({ where: { id: { in: [e[21]!.step1, e[22]!.step1] } }, data: { state: "failed", lastError: "550 refused" } });
  // an update that changes no count adds nothing
  const before = await db.campaignBatchCount.count({ where: { campaignId: s.campaignId } });
  await db.enrollment.updateMany({ where: { campaignId: s.campaignId }, data: { priority: 5 } });
  await db.stepSend.updateMany({ where: { campaignId: s.campaignId, state: "scheduled" }, data: { dueAt: new Date(now.getTime() + 3_600_000) } });
  assert.equal(await db.campaignBatchCount.count({ where: { campaignId: s.campaignId } }), before, "no row for a statement that changes no count");
  await assertCountsTrue(s.campaignId, "after bounces, opens, clicks, replies, stops, unsubscribes and failures");

  // rolled up: one row per batch and per inbox, the same numbers
  assert.ok((await rollUpCampaignCounts(db, 1000)) >= 1);
  await assertCountsTrue(s.campaignId, "after a roll-up");
  assert.equal(await db.campaignBatchCount.count({ where: { campaignId: s.campaignId } }), 2, "one row per batch");
  assert.equal(await db.campaignInboxCount.count({ where: { campaignId: s.campaignId } }), 2, "one row per inbox");
  assert.equal(await db.campaignBatchCount.count({ where: { campaignId: s.campaignId, rolled: false } }), 0);

  // a contact erased (its enrollment and sends go), an inbox deleted (its sends keep counting, without an inbox)
  await db.contact.delete({ where: { id: e[7]!.contactId } });
  await db.smtpCredential.delete({ where: { id: s.credentials[1]! } });
  await assertCountsTrue(s.campaignId, "after a contact erased and an inbox deleted");
  await rollUpCampaignCounts(db, 1000);
  await assertCountsTrue(s.campaignId, "after a contact erased and an inbox deleted, rolled up");

  // the other campaign deleted: its counts go with it, this one's stay
  await assertCountsTrue(other.campaignId, "the other campaign");
  await db.campaign.delete({ where: { id: other.campaignId } });
  assert.equal(await db.campaignBatchCount.count({ where: { campaignId: other.campaignId } }), 0);
  assert.equal(await db.campaignInboxCount.count({ where: { campaignId: other.campaignId } }), 0);
  await assertCountsTrue(s.campaignId, "after another campaign was deleted");

  // counted whole again (after a bulk load made without the triggers): the same numbers
  await recountCampaignCounts(db);
  await assertCountsTrue(s.campaignId, "after a recount");
});

test("roll-ups running at once, while the sender records sends, never count a row twice", async () => {
  // another campaign's rows waiting too: a roll-up takes whole campaigns, a page of fresh rows at a time
  const other = await seed(24);
  await sendStep1(other, other.enrollments.slice(0, 10), 2);
  const s = await seed(60);
  const writes = (async () => {
    for (let i = 0; i < 60; i += 6) await sendStep1(s, s.enrollments.slice(i, i + 6));
  })();
  let rolling = true;
  const rollers = Array.from({ length: 4 }, async () => {
    while (rolling) await rollUpCampaignCounts(db, 3);
  });
  await writes;
  rolling = false;
  await Promise.all(rollers);
  await assertCountsTrue(s.campaignId, "after concurrent roll-ups");
  await assertCountsTrue(other.campaignId, "the other campaign, after concurrent roll-ups");
  await rollUpCampaignCounts(db, 1000);
  await assertCountsTrue(s.campaignId, "rolled up once more");
  const [batch1] = await enrollmentBatchStats(db, s.campaignId);
  assert.equal(batch1!.delivered, 30, "half of the 60 in batch 1, all sent");
});

test("a roll-up that takes only part of a campaign's rows keeps what they add up to, even a change that moves no total", async () => {
  // as when another roll-up, whose snapshot came first, took the rest: here the only row is a
  // change of status (pending -> sent), which adds nothing to the batch's total
  const s = await seed(2);
  await rollUpCampaignCounts(db, 1000);
  const [before] = await enrollmentBatchStats(db, s.campaignId);
  const base = await db.campaignBatchCount.findFirstOrThrow({ where: { campaignId: s.campaignId, batchNumber: 1 } });
  await db.campaignBatchCount.delete({ where: { id: base.id } });
  await db.campaignBatchCount.create({
    data: {
      campaignId: s.campaignId,
      batchNumber: 1,
      total: 0,
      pending: -1,
      sent: 1,
      opened: 0,
      replied: 0,
      bounced: 0,
      unsubscribed: 0,
      delivered: 1,
      everOpened: 0,
      everReplied: 0,
      everClicked: 0,
      stopped: 0,
    },
  });
  await rollUpCampaignCounts(db, 1000);
  const kept = await db.campaignBatchCount.findMany({ where: { campaignId: s.campaignId, batchNumber: 1 } });
  assert.deepEqual(
    kept.map((row) => [row.total, row.pending, row.sent, row.delivered, row.rolled]),
    [[0, -1, 1, 1, true]],
    "the change is kept, rolled up",
  );
  // with the base row back (the other roll-up's sum), the batch reads as it should
  await db.campaignBatchCount.create({ data: { ...base, id: undefined, rolled: true } });
  const [after] = await enrollmentBatchStats(db, s.campaignId);
  assert.deepEqual(after, { ...before!, pending: before!.pending - 1, sent: before!.sent + 1, delivered: before!.delivered + 1 });
});
