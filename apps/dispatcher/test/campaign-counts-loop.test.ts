import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createLogger } from "@outreach/core";
import { enrollmentBatchStats } from "@outreach/db";
import { createAccountOnPlan, createTestDatabase, type TestDatabase } from "@outreach/testing";
import { CampaignCountsLoop } from "../src/campaign-counts-loop.js";

// The roll-up of the campaign counts runs in every dispatcher replica: a run
// takes the campaigns with count rows added since the last one, page after
// page, and leaves one row per batch, the numbers unchanged.
let database: TestDatabase;
before(async () => {
  database = await createTestDatabase();
});
after(async () => {
  await database?.drop();
});

test("a run rolls up every campaign with fresh count rows, in pages, to one row per batch, the counts unchanged", async () => {
  const db = database.db;
  const account = await createAccountOnPlan(db, "scale", { email: "counts@example.test", currentPeriodEnd: new Date(Date.now() + 30 * 86_400_000) });
  const campaigns = [];
  for (let n = 0; n < 5; n++) {
    const campaign = await db.campaign.create({ data: { accountId: account.id, name: `Counts ${n}`, status: "active" } });
    campaigns.push(campaign.id);
    for (let i = 0; i < 4; i++) {
      const contact = await db.contact.create({ data: { accountId: account.id, email: `c${n}-${i}@example.test` } });
      // one statement per enrollment: a fresh count row each
      await db.enrollment.create({ data: { accountId: account.id, campaignId: campaign.id, contactId: contact.id, batchNumber: 1 + (i % 2) } });
    }
    await db.enrollment.updateMany({ where: { campaignId: campaign.id, batchNumber: 1 }, data: { status: "sent", sentAt: new Date() } });
  }
  const before = await Promise.all(campaigns.map((id) => enrollmentBatchStats(db, id)));
  assert.equal(await db.campaignBatchCount.count({ where: { campaignId: { in: campaigns } } }), 25);

  // a page of 3 fresh rows at a time: several rounds in one run
  const loop = new CampaignCountsLoop(db, createLogger({ service: "dispatcher", level: "error" }), 60_000, 3);
  assert.equal((await loop.runOnce()) >= 5, true);
  assert.equal(await db.campaignBatchCount.count({ where: { campaignId: { in: campaigns } } }), 10, "one row per batch of each campaign");
  assert.equal(await db.campaignBatchCount.count({ where: { campaignId: { in: campaigns }, rolled: false } }), 0);
  assert.deepEqual(await Promise.all(campaigns.map((id) => enrollmentBatchStats(db, id))), before);
  assert.equal(await loop.runOnce(), 0, "nothing fresh: nothing to do");
});
