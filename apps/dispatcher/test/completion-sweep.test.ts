import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createLogger } from "@outreach/core";
import { createAccountOnPlan, createTestDatabase, type TestDatabase } from "@outreach/testing";
import { CompletionSweep } from "../src/completion-sweep.js";

// The on_completion sweep runs in every dispatcher replica: replicas sweeping
// at once share the due enrollments (SKIP LOCKED) and none is moved twice.
let database: TestDatabase;
before(async () => {
  database = await createTestDatabase();
});
after(async () => {
  await database?.drop();
});

test("three replicas sweeping at once move each due contact exactly once, each planned once in the follow-on campaign", async () => {
  const db = database.db;
  const now = Date.now();
  const account = await createAccountOnPlan(db, "scale", { email: "sweep@example.test", currentPeriodStart: new Date(now - 86_400_000), currentPeriodEnd: new Date(now + 29 * 86_400_000) });
  const campaign = (name: string) =>
    db.campaign.create({ data: { accountId: account.id, name, status: "active", minWaitSeconds: 0, maxWaitSeconds: 0, steps: { create: [{ position: 1, subject: name, bodyHtml: "b" }] } } });
  const nurture = await campaign("Nurture");
  await db.smtpCredential.create({
    data: {
      accountId: account.id,
      campaignId: nurture.id,
      label: "inbox",
      fromEmail: "inbox@sender.test",
      smtpHost: "127.0.0.1",
      smtpPort: 25,
      smtpUsername: "inbox",
      smtpPasswordEnc: "x",
      dailyLimit: 10_000,
    },
  });
  const intro = await campaign("Intro");
  await db.campaign.update({ where: { id: intro.id }, data: { onCompletion: { moveToCampaignId: nurture.id, waitDays: 1 } } });
  const due = 75;
  const completedAt = new Date(now - 2 * 86_400_000);
  for (let i = 0; i < due + 5; i++) {
    const contact = await db.contact.create({ data: { accountId: account.id, email: `c${i}@example.com` } });
    // the last five finished an hour ago: still within their day to reply
    await db.enrollment.create({ data: { accountId: account.id, campaignId: intro.id, contactId: contact.id, status: "sent", completedAt: i < due ? completedAt : new Date(now - 3_600_000) } });
  }

  const logger = createLogger({ service: "dispatcher", level: "error" });
  const replicas = [0, 1, 2].map(() => new CompletionSweep(db, logger, 60_000, 10));
  const results = await Promise.all(replicas.map((replica) => replica.sweep()));

  assert.equal(
    results.reduce((sum, r) => sum + r.moved, 0),
    due,
  );
  assert.equal(await db.enrollment.count({ where: { campaignId: nurture.id } }), due);
  assert.equal(await db.stepSend.count({ where: { campaignId: nurture.id, stepPosition: 1 } }), due, "one step 1 each");
  assert.equal(await db.enrollment.count({ where: { campaignId: intro.id, movedOnResult: "moved" } }), due);
  assert.equal(await db.enrollment.count({ where: { campaignId: intro.id, movedOnAt: null } }), 5);
  assert.deepEqual(await replicas[0]!.sweep(), { taken: 0, moved: 0 });
});
