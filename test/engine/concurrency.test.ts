import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Db } from "@outreach/db";
import { waitFor } from "@outreach/testing";
import { createInboxes, enrollMany, startEngineProcesses, type ProcessEngine } from "./harness.js";

// Two sender processes and one dispatcher, as separate processes, against one SMTP server.
let engine: ProcessEngine;
before(async () => {
  engine = await startEngineProcesses();
});
after(async () => {
  await engine?.stop();
});

async function seedAccount(db: Db, name: string, inboxes: string[], enrollments: number) {
  const { smtp, config } = engine;
  const plan = await db.plan.findUniqueOrThrow({ where: { slug: "scale" } });
  const account = await db.account.create({ data: { email: `${name}@example.test`, planId: plan.id, currentPeriodEnd: new Date(Date.now() + 30 * 86_400_000) } });
  const campaign = await db.campaign.create({
    data: { accountId: account.id, name, status: "active", minWaitSeconds: 0, maxWaitSeconds: 0, steps: { create: [{ position: 1, subject: "Hi", bodyHtml: "<p>Hello</p>" }] } },
  });
  await createInboxes(db, { accountId: account.id, campaignId: campaign.id, smtp, keys: config.encryptionKey }, inboxes, 100_000);
  await enrollMany(db, account.id, campaign.id, enrollments, name);
  return { account, campaign };
}

test("one account never has more than 10 SMTP sessions open across two sender processes, and another account's send is not starved", async () => {
  const { database, smtp, dispatchQueue } = engine;
  const db = database.db;
  const inboxesA = ["a-1", "a-2", "a-3", "a-4"];
  const a = await seedAccount(db, "fair-a", inboxesA, 1_500);
  const b = await seedAccount(db, "fair-b", ["b-1"], 1);
  await dispatchQueue.add({ accountId: a.account.id, campaignId: a.campaign.id, batchNumber: 1 });
  await waitFor(() => smtp.messages.length >= 200, { timeoutMs: 60_000, what: "account A to be sending" });

  const dispatchedB = Date.now();
  await dispatchQueue.add({ accountId: b.account.id, campaignId: b.campaign.id, batchNumber: 1 });
  await waitFor(() => smtp.messages.some((m) => m.username === "b-1"), { timeoutMs: 10_000, what: "account B's email" });
  const waitedMs = Date.now() - dispatchedB;
  const remainingA = await db.stepSend.count({ where: { campaignId: a.campaign.id, state: { in: ["scheduled", "queued"] } } });
  assert.ok(remainingA > 0, "A was still sending when B's email arrived (so B did not simply wait for A)");
  assert.ok(waitedMs < 5_000, `B's email took ${waitedMs} ms`);

  await waitFor(() => smtp.messages.filter((m) => m.username?.startsWith("a-")).length === 1_500, { timeoutMs: 120_000, what: "A's batch" });
  const concurrentA = smtp.sessions.maxForAny(inboxesA);
  assert.ok(concurrentA <= 10, `at most 10 SMTP sessions for account A at once, saw ${concurrentA}`);
  assert.ok(concurrentA >= 5, `sends of A did run concurrently (${concurrentA}), so the bound is meaningful`);
});
