import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, test } from "node:test";
import { createLogger, createRedis } from "@outreach/core";
import { claimSend, failInterruptedSends } from "@outreach/domain";
import { createAccountOnPlan, createTestDatabase, type TestDatabase } from "@outreach/testing";
import { SentJournal } from "../src/sent-journal.js";

// The journal keeps an SMTP acceptance until PostgreSQL has its record. These
// cases are a sender that died between the two: another sender's replay must
// record the send exactly once, even after the sweeper failed it as interrupted.
const redis = createRedis({ redisUrl: process.env.REDIS_URL ?? "redis://127.0.0.1:6379" }, "producer");
const logger = createLogger({ service: "sender", level: "error" });
let database: TestDatabase;
before(async () => {
  database = await createTestDatabase();
});
after(async () => {
  await database?.drop();
  await redis.quit();
});

/** A two-step enrollment whose step 1 a (now dead) sender claimed. */
async function claimedSend() {
  const db = database.db;
  const now = new Date();
  const account = await createAccountOnPlan(db, "pro", {
    email: `journal-${randomBytes(4).toString("hex")}@example.test`,
    currentPeriodStart: now,
    currentPeriodEnd: new Date(now.getTime() + 30 * 86_400_000),
  });
  const campaign = await db.campaign.create({
    data: {
      accountId: account.id,
      name: "c",
      status: "active",
      steps: {
        create: [
          { position: 1, subject: "s", bodyHtml: "b" },
          { position: 2, subject: "t", bodyHtml: "b", delayMinutes: 60 },
        ],
      },
    },
  });
  const credential = await db.smtpCredential.create({
    data: { accountId: account.id, campaignId: campaign.id, label: "l", fromEmail: "from@sender.test", smtpHost: "127.0.0.1", smtpPort: 25, smtpUsername: "u", smtpPasswordEnc: "x", dailyLimit: 10 },
  });
  const contact = await db.contact.create({ data: { accountId: account.id, email: `c-${randomBytes(4).toString("hex")}@example.com` } });
  const enrollment = await db.enrollment.create({ data: { accountId: account.id, campaignId: campaign.id, contactId: contact.id } });
  const send = await db.stepSend.create({ data: { accountId: account.id, campaignId: campaign.id, enrollmentId: enrollment.id, stepPosition: 1, dueAt: now, state: "queued" } });
  const followUp = await db.stepSend.create({ data: { accountId: account.id, campaignId: campaign.id, enrollmentId: enrollment.id, stepPosition: 2, dueAt: new Date(now.getTime() + 3_600_000) } });
  assert.ok(await claimSend(db, send.id, "dead-sender"));
  const accepted = {
    stepSendId: send.id,
    accountId: account.id,
    credentialId: credential.id,
    messageId: `<${send.id}@sender.test>`,
    accountPeriod: { start: account.currentPeriodStart, end: account.currentPeriodEnd },
    now: new Date(),
  };
  return { account, enrollment, send, followUp, accepted };
}

async function countsOf(accountId: string) {
  const events = await database.db.event.count({ where: { accountId, type: "enrollment.sent" } });
  const usage = (await database.db.usagePeriod.aggregate({ where: { accountId }, _sum: { sends: true } }))._sum.sends ?? 0;
  return { events, usage };
}

test("a journaled acceptance is recorded once by a replay, and a second replay changes nothing", async () => {
  const journal = new SentJournal(redis, `test-${randomBytes(6).toString("hex")}:sent-journal`, database.db, logger, { minAgeMs: 0 });
  const { account, send, followUp, accepted } = await claimedSend();
  await journal.write(accepted);

  assert.equal(await journal.drain(), 1);
  const row = await database.db.stepSend.findUniqueOrThrow({ where: { id: send.id } });
  assert.equal(row.state, "sent");
  assert.equal(row.outcome, "accepted");
  assert.equal(row.messageId, accepted.messageId);
  assert.equal(row.sentAt?.getTime(), accepted.now.getTime(), "sent when SMTP accepted it, not when the record was written");
  assert.equal((await database.db.stepSend.findUniqueOrThrow({ where: { id: followUp.id } })).state, "scheduled");
  assert.deepEqual(await countsOf(account.id), { events: 1, usage: 1 });

  // the entry is gone; written again (a replica replaying a stale copy), it is still recorded once
  assert.equal(await journal.drain(), 0);
  await journal.write(accepted);
  assert.equal(await journal.drain(), 0);
  assert.deepEqual(await countsOf(account.id), { events: 1, usage: 1 });
});

test("a send the sweeper failed as interrupted before the replay is recorded sent, and its follow-up comes back", async () => {
  const journal = new SentJournal(redis, `test-${randomBytes(6).toString("hex")}:sent-journal`, database.db, logger, { minAgeMs: 0 });
  const { account, enrollment, send, followUp, accepted } = await claimedSend();
  await journal.write({ ...accepted, outcome: "unknown", note: "outcome unknown: test" });
  assert.equal(await failInterruptedSends(database.db, 5 * 60_000, new Date(), ["dead-sender"]), 1);
  assert.equal((await database.db.stepSend.findUniqueOrThrow({ where: { id: followUp.id } })).state, "cancelled");

  assert.equal(await journal.drain(), 1);
  const row = await database.db.stepSend.findUniqueOrThrow({ where: { id: send.id } });
  assert.equal(row.state, "sent");
  assert.equal(row.outcome, "unknown");
  assert.equal(row.lastError, "outcome unknown: test");
  const later = await database.db.stepSend.findUniqueOrThrow({ where: { id: followUp.id } });
  assert.equal(later.state, "scheduled", "the sequence goes on");
  assert.equal(later.lastError, null);
  assert.equal((await database.db.enrollment.findUniqueOrThrow({ where: { id: enrollment.id } })).status, "sent");
  assert.deepEqual(await countsOf(account.id), { events: 1, usage: 1 });
});

test("an entry younger than the replay's minimum age is left to the sender that wrote it", async () => {
  const journal = new SentJournal(redis, `test-${randomBytes(6).toString("hex")}:sent-journal`, database.db, logger, { minAgeMs: 60_000 });
  const { send, accepted } = await claimedSend();
  await journal.write(accepted);
  assert.equal(await journal.drain(), 0);
  assert.equal((await database.db.stepSend.findUniqueOrThrow({ where: { id: send.id } })).state, "sending");
  assert.equal(await journal.drain(Date.now() + 61_000), 1);
  assert.equal((await database.db.stepSend.findUniqueOrThrow({ where: { id: send.id } })).state, "sent");
});
