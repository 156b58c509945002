import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createAccountOnPlan, createTestDatabase, type TestDatabase } from "@outreach/testing";
import { claimAndLoadSends, recordSentBatch, releaseDueSendsOfAccounts } from "../src/index.js";

let database: TestDatabase;
before(async () => {
  database = await createTestDatabase();
});
after(() => database?.drop());

async function seed(sends: number) {
  const db = database.db;
  const now = new Date();
  const account = await createAccountOnPlan(db, "pro", {
    email: `batch-${Math.random()}@example.test`,
    currentPeriodStart: new Date(now.getTime() - 86_400_000),
    currentPeriodEnd: new Date(now.getTime() + 86_400_000),
  });
  const campaign = await db.campaign.create({
    data: {
      accountId: account.id,
      name: "c",
      status: "active",
      steps: {
        create: [
          { position: 1, subject: "Hi {{first_name}}", bodyHtml: "b" },
          { position: 2, subject: "Again", bodyHtml: "b", delayMinutes: 60 },
        ],
      },
    },
  });
  const credential = await db.smtpCredential.create({
    data: { accountId: account.id, campaignId: campaign.id, label: "a", fromEmail: "a@sender.test", smtpHost: "127.0.0.1", smtpPort: 25, smtpUsername: "a", smtpPasswordEnc: "x", dailyLimit: 100 },
  });
  const ids: string[] = [];
  for (let i = 0; i < sends; i++) {
    const contact = await db.contact.create({ data: { accountId: account.id, email: `c${i}-${Math.random()}@example.com`, firstName: `F${i}` } });
    const enrollment = await db.enrollment.create({ data: { accountId: account.id, campaignId: campaign.id, contactId: contact.id } });
    const row = await db.stepSend.create({
      data: { accountId: account.id, campaignId: campaign.id, enrollmentId: enrollment.id, credentialId: credential.id, stepPosition: 1, dueAt: new Date(now.getTime() - 1000), state: "queued" },
    });
    await db.stepSend.create({
      data: { accountId: account.id, campaignId: campaign.id, enrollmentId: enrollment.id, credentialId: credential.id, stepPosition: 2, dueAt: new Date(now.getTime() + 3_600_000) },
    });
    ids.push(row.id);
  }
  return { account, campaign, credential, ids };
}

test("claimAndLoadSends claims only queued sends, each once, and reads what each needs", async () => {
  const { account, credential, ids } = await seed(3);
  await database.db.stepSend.update({ where: { id: ids[2]! }, data: { state: "cancelled" } });
  const [first, second] = await Promise.all([claimAndLoadSends(database.db, ids, "p1"), claimAndLoadSends(database.db, ids, "p2")]);
  const claimed = [...first.keys(), ...second.keys()].sort();
  assert.deepEqual(claimed, [ids[0]!, ids[1]!].sort(), "each queued send claimed by exactly one caller; the cancelled one by none");
  const send = (first.get(ids[0]!) ?? second.get(ids[0]!))!;
  assert.equal(send.state, "sending");
  assert.equal(send.attempts, 1, "the claim counts the attempt");
  assert.equal(send.accountId, account.id);
  assert.equal(send.step?.subject, "Hi {{first_name}}");
  assert.deepEqual(
    send.credentials.map((c) => c.id),
    [credential.id],
  );
  const rows = await database.db.stepSend.findMany({ where: { id: { in: ids.slice(0, 2) } } });
  assert.ok(rows.every((r) => r.state === "sending" && r.claimedBy && r.claimedAt));
});

test("recordSentBatch records each sending send with its event and usage, and skips one that is not sending", async () => {
  const { account, credential, ids } = await seed(4);
  await claimAndLoadSends(database.db, ids.slice(0, 3), "p1");
  const period = { start: new Date(Date.now() - 86_400_000), end: new Date(Date.now() + 86_400_000) };
  const sentAt = new Date();
  const results = await recordSentBatch(
    database.db,
    ids.map((id, i) => ({
      stepSendId: id,
      accountId: account.id,
      credentialId: credential.id,
      messageId: `<m${i}@x>`,
      accountPeriod: period,
      now: sentAt,
      outcome: i === 1 ? ("unknown" as const) : undefined,
    })),
  );
  assert.deepEqual(
    results.map((r) => r.eventId !== null),
    [true, true, true, false],
    "the queued (unclaimed) send is not recorded",
  );
  const rows = await database.db.stepSend.findMany({ where: { id: { in: ids } }, orderBy: { id: "asc" } });
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const [i, id] of ids.slice(0, 3).entries()) {
    assert.equal(byId.get(id)!.state, "sent");
    assert.equal(byId.get(id)!.messageId, `<m${i}@x>`);
  }
  assert.equal(byId.get(ids[1]!)!.outcome, "unknown");
  assert.equal(byId.get(ids[3]!)!.state, "queued");
  const events = await database.db.event.findMany({ where: { accountId: account.id, type: "enrollment.sent" } });
  assert.equal(events.length, 3, "one enrollment.sent per recorded send");
  assert.deepEqual(new Set(events.map((e) => (e.data as { status: string }).status)), new Set(["sent"]));
  const usage = await database.db.usagePeriod.findMany({ where: { accountId: account.id } });
  assert.equal(
    usage.reduce((n, u) => n + u.sends, 0),
    3,
    "usage counts the three sends",
  );
  const enrollments = await database.db.enrollment.findMany({ where: { accountId: account.id, status: "sent" } });
  assert.equal(enrollments.length, 3);
  // recorded again (a journal replay): nothing changes
  const again = await recordSentBatch(database.db, [{ stepSendId: ids[0]!, accountId: account.id, credentialId: credential.id, messageId: "<m0@x>", accountPeriod: period, now: sentAt }]);
  assert.equal(again[0]!.eventId, null);
  assert.equal(
    (await database.db.usagePeriod.findMany({ where: { accountId: account.id } })).reduce((n, u) => n + u.sends, 0),
    3,
  );
});

test("releaseDueSendsOfAccounts releases every account on its own limit in one statement, with each send's inbox", async () => {
  const a = await seed(0);
  const b = await seed(0);
  const db = database.db;
  for (const { account, campaign, credential } of [a, b]) {
    for (let i = 0; i < 12; i++) {
      const contact = await db.contact.create({ data: { accountId: account.id, email: `r${i}-${Math.random()}@example.com` } });
      const enrollment = await db.enrollment.create({ data: { accountId: account.id, campaignId: campaign.id, contactId: contact.id } });
      await db.stepSend.create({
        data: { accountId: account.id, campaignId: campaign.id, enrollmentId: enrollment.id, credentialId: credential.id, stepPosition: 1, dueAt: new Date(Date.now() - 1000) },
      });
    }
  }
  const released = await releaseDueSendsOfAccounts(db, [a.account.id, b.account.id]);
  assert.equal(released.filter((r) => r.accountId === a.account.id).length, 10);
  assert.equal(released.filter((r) => r.accountId === b.account.id).length, 10);
  assert.ok(released.every((r) => r.credentialId === (r.accountId === a.account.id ? a.credential.id : b.credential.id)));
});
