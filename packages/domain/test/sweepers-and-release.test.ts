import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { executor } from "@outreach/db";
import { addCampaign, createAccountOnPlan, createTestDatabase, type TestDatabase } from "@outreach/testing";
import { SEND_CONCURRENCY_PER_ACCOUNT } from "@outreach/core";
import { claimersOfSendingSends, failInterruptedSends, releaseDueSends, requeueLostSends } from "../src/index.js";

let database: TestDatabase;
before(async () => {
  database = await createTestDatabase();
});
after(() => database?.drop());

async function seed(sends: number, status: "active" | "paused" = "active") {
  const db = database.db;
  const account = await createAccountOnPlan(db, "pro", { email: `sweep-${Math.random()}@example.test`, currentPeriodEnd: new Date(Date.now() + 86_400_000) });
  const { campaignId } = await addCampaign(db, account.id, status);
  const ids: string[] = [];
  for (let i = 0; i < sends; i++) {
    const contact = await db.contact.create({ data: { accountId: account.id, email: `c${i}-${Math.random()}@example.com` } });
    const enrollment = await db.enrollment.create({ data: { accountId: account.id, campaignId, contactId: contact.id } });
    const row = await db.stepSend.create({ data: { accountId: account.id, campaignId, enrollmentId: enrollment.id, stepPosition: 1, dueAt: new Date(Date.now() - 1000 + i) } });
    await db.stepSend.create({ data: { accountId: account.id, campaignId, enrollmentId: enrollment.id, stepPosition: 2, dueAt: new Date(Date.now() - 1000) } });
    ids.push(row.id);
  }
  return { account, campaignId, ids };
}

test("release hands out at most the account's free slots, oldest due first, and never a step before its predecessor is sent", async () => {
  const { account, ids } = await seed(15);
  const first = await database.db.$transaction((tx) => releaseDueSends(tx, account.id));
  assert.equal(first.length, SEND_CONCURRENCY_PER_ACCOUNT);
  assert.deepEqual(first.map((r) => r.id).sort(), ids.slice(0, 10).sort(), "step 1 rows, oldest first; no step 2 while step 1 is unsent");
  assert.equal((await database.db.$transaction((tx) => releaseDueSends(tx, account.id))).length, 0, "no free slot left");
  await database.db.stepSend.updateMany({ where: { id: { in: first.slice(0, 3).map((r) => r.id) } }, data: { state: "sent" } });
  const next = await database.db.$transaction((tx) => releaseDueSends(tx, account.id));
  assert.equal(next.length, 3, "three slots came back");
});

test("concurrent releases for one account never exceed the limit together", async () => {
  const { account } = await seed(30);
  const results = await Promise.all(Array.from({ length: 6 }, () => database.db.$transaction((tx) => releaseDueSends(tx, account.id))));
  assert.ok(results.flat().length <= SEND_CONCURRENCY_PER_ACCOUNT, "never more than the limit, whoever won the lock");
  const topUp = await database.db.$transaction((tx) => releaseDueSends(tx, account.id));
  assert.equal(results.flat().length + topUp.length, SEND_CONCURRENCY_PER_ACCOUNT, "and the next release fills the rest");
});

test("a paused campaign's sends are not released", async () => {
  const { account } = await seed(3, "paused");
  assert.equal((await database.db.$transaction((tx) => releaseDueSends(tx, account.id))).length, 0);
});

test("a send interrupted mid-SMTP is failed, not retried, and its later steps are cancelled", async () => {
  const { ids } = await seed(1);
  await database.db.stepSend.update({ where: { id: ids[0] }, data: { state: "sending", claimedAt: new Date(Date.now() - 10 * 60_000) } });
  assert.equal(await failInterruptedSends(database.db, 5 * 60_000), 1);
  const row = await database.db.stepSend.findUniqueOrThrow({ where: { id: ids[0] } });
  assert.equal(row.state, "failed");
  assert.match(row.lastError ?? "", /not retried/);
  const later = await database.db.stepSend.findFirstOrThrow({ where: { enrollmentId: row.enrollmentId, stepPosition: 2 } });
  assert.equal(later.state, "cancelled");
});

test("a recent send in flight is left alone; a queued send whose job was lost goes back to the schedule", async () => {
  const { ids } = await seed(2);
  await database.db.stepSend.update({ where: { id: ids[0] }, data: { state: "sending", claimedAt: new Date() } });
  await executor(database.db).execute(`UPDATE step_sends SET state = 'queued', "updatedAt" = now() - interval '20 minutes' WHERE id = $1::uuid`, [ids[1]]);
  assert.equal(await failInterruptedSends(database.db, 5 * 60_000), 0);
  assert.equal(await requeueLostSends(database.db, 10 * 60_000), 1);
  assert.equal((await database.db.stepSend.findUniqueOrThrow({ where: { id: ids[1] } })).state, "scheduled");
  assert.equal((await database.db.stepSend.findUniqueOrThrow({ where: { id: ids[0] } })).state, "sending");
});

test("a recent send whose sender process is dead is failed at once; another live sender's send is left alone", async () => {
  const { ids } = await seed(3);
  const claimedAt = new Date(Date.now() - 20_000);
  await database.db.stepSend.update({ where: { id: ids[0] }, data: { state: "sending", claimedAt, claimedBy: "dead-sender" } });
  await database.db.stepSend.update({ where: { id: ids[1] }, data: { state: "sending", claimedAt, claimedBy: "live-sender" } });
  await database.db.stepSend.update({ where: { id: ids[2] }, data: { state: "sending", claimedAt: new Date(), claimedBy: "fresh-sender" } });
  const claimers = await claimersOfSendingSends(database.db, new Date(Date.now() - 10_000));
  assert.ok(claimers.includes("dead-sender") && claimers.includes("live-sender"));
  assert.ok(!claimers.includes("fresh-sender"), "a claim younger than the cut-off is not examined");

  assert.equal(await failInterruptedSends(database.db, 5 * 60_000, new Date(), ["dead-sender"]), 1);
  const states = await Promise.all(ids.map(async (id) => (await database.db.stepSend.findUniqueOrThrow({ where: { id } })).state));
  assert.deepEqual(states, ["failed", "sending", "sending"]);
});

test("a release spreads free slots over the inboxes with the fewest sends in flight, the inbox just used first among equals", async () => {
  const { account, campaignId, ids } = await seed(14);
  const credentials = await Promise.all(
    ["pref-a", "pref-b"].map((label) =>
      database.db.smtpCredential.create({
        data: {
          accountId: account.id,
          campaignId,
          label,
          fromEmail: `${label}@sender.test`,
          smtpHost: "127.0.0.1",
          smtpPort: 25,
          smtpUsername: label,
          smtpPasswordEnc: "x",
          dailyLimit: 100,
        },
      }),
    ),
  );
  const [a, b] = credentials.map((c) => c.id) as [string, string];
  // inboxes in due order: a, b, a, b, ...
  for (const [i, id] of ids.entries()) await database.db.stepSend.update({ where: { id }, data: { credentialId: i % 2 === 0 ? a : b } });
  // in flight: a 0, 2, 4, 6, 8 (five); b 1, 3, 5, 7 (four); one slot free
  await database.db.stepSend.updateMany({ where: { id: { in: ids.slice(0, 9) } }, data: { state: "sending" } });

  // b has fewer sends in flight: its next send goes, even with a just used
  const [spread] = await database.db.$transaction((tx) => releaseDueSends(tx, account.id, new Date(), SEND_CONCURRENCY_PER_ACCOUNT, a));
  assert.equal(spread?.id, ids[9], "the inbox with fewer sends in flight");

  // one send of each ends: a 4, b 4 in flight; among equals the inbox just used goes first
  await database.db.stepSend.updateMany({ where: { id: { in: [ids[0]!, ids[1]!] } }, data: { state: "cancelled" } });
  const [preferred] = await database.db.$transaction((tx) => releaseDueSends(tx, account.id, new Date(), SEND_CONCURRENCY_PER_ACCOUNT - 1, b));
  assert.equal(preferred?.id, ids[11], "b's next send, ahead of a's earlier one");

  // a 4, b 5: without a preference, the emptier inbox
  const [plain] = await database.db.$transaction((tx) => releaseDueSends(tx, account.id));
  assert.equal(plain?.id, ids[10]);
});

test("releases in one statement each (no surrounding transaction), racing while sends finish, never exceed the limit", async () => {
  const { account } = await seed(60);
  const inflight = () => database.db.stepSend.count({ where: { accountId: account.id, state: { in: ["queued", "sending"] } } });
  for (let round = 0; round < 15; round++) {
    await Promise.all(Array.from({ length: 5 }, () => releaseDueSends(database.db, account.id)));
    assert.ok((await inflight()) <= SEND_CONCURRENCY_PER_ACCOUNT, `round ${round}: at most the limit queued or sending`);
    // two sends finish, freeing two slots for the next round
    const done = await database.db.stepSend.findMany({ where: { accountId: account.id, state: "queued" }, take: 2, select: { id: true } });
    await database.db.stepSend.updateMany({ where: { id: { in: done.map((r) => r.id) } }, data: { state: "sent" } });
  }
  assert.equal(await inflight(), SEND_CONCURRENCY_PER_ACCOUNT - 2, "slots were refilled every round");
});
