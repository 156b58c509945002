import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { waitFor } from "@outreach/testing";
import { createInboxes, enrollMany, startEngineProcesses, type ProcessEngine } from "./harness.js";

// One dispatcher and two sender processes. An inbox's sends are routed to the
// sender that holds its SMTP session, so they go through one session, login
// included, instead of each process opening its own.
let engine: ProcessEngine;
before(async () => {
  engine = await startEngineProcesses({ SMTP_SESSIONS_PER_MAILBOX: "1" });
});
after(async () => {
  await engine?.stop();
});

async function seedInboxes(name: string, inboxes: string[], contacts: number, waitSeconds: number) {
  const { database, smtp, config } = engine;
  const db = database.db;
  const plan = await db.plan.findUniqueOrThrow({ where: { slug: "scale" } });
  const account = await db.account.create({ data: { email: `${name}@example.test`, planId: plan.id, currentPeriodEnd: new Date(Date.now() + 30 * 86_400_000) } });
  const campaign = await db.campaign.create({
    data: {
      accountId: account.id,
      name,
      status: "active",
      minWaitSeconds: waitSeconds,
      maxWaitSeconds: waitSeconds,
      steps: { create: [{ position: 1, subject: "Hi {{first_name}}", bodyHtml: "<p>Hello</p>" }] },
    },
  });
  await createInboxes(db, { accountId: account.id, campaignId: campaign.id, smtp, keys: config.encryptionKey }, inboxes, 100_000);
  await enrollMany(db, account.id, campaign.id, contacts, name);
  return { account, campaign };
}

test("consecutive sends of one inbox reuse one SMTP session across two sender processes", async () => {
  const { smtp, dispatchQueue, database } = engine;
  const inboxes = ["affine-1", "affine-2", "affine-3"];
  const { account, campaign } = await seedInboxes("affinity", inboxes, 60, 0);
  await dispatchQueue.add({ accountId: account.id, campaignId: campaign.id, batchNumber: 1 });

  await waitFor(() => smtp.messages.filter((m) => inboxes.includes(m.username ?? "")).length === 60, { timeoutMs: 120_000, intervalMs: 200, what: "the batch" });
  for (const inbox of inboxes) {
    const sent = smtp.messages.filter((m) => m.username === inbox).length;
    assert.ok(sent >= 10, `${inbox} sent its share (${sent})`);
    assert.equal(smtp.sessions.openedFor(inbox), 1, `${inbox}: ${sent} messages through one session and one login`);
  }
  const recipients = smtp.messages.filter((m) => inboxes.includes(m.username ?? "")).flatMap((m) => m.envelope.to);
  assert.equal(new Set(recipients).size, 60, "no contact got the step twice");
  // each record follows its message
  await waitFor(async () => (await database.db.stepSend.count({ where: { campaignId: campaign.id, state: "sent" } })) === 60, { timeoutMs: 30_000, what: "every send recorded" });
});

test("a killed sender's inboxes are taken over: their queued sends go out through the other sender, handed back rather than swept as lost", async () => {
  const { smtp, dispatchQueue, database, senders } = engine;
  const inboxes = ["takeover-1", "takeover-2", "takeover-3", "takeover-4"];
  const ours = () => smtp.messages.filter((m) => inboxes.includes(m.username ?? ""));
  // a send per inbox every second: sends are queued ahead on each inbox's sender
  const { account, campaign } = await seedInboxes("takeover", inboxes, 48, 1);
  await dispatchQueue.add({ accountId: account.id, campaignId: campaign.id, batchNumber: 1 });
  await waitFor(() => ours().length >= 8, { timeoutMs: 60_000, intervalMs: 100, what: "the first sends" });

  assert.equal(await senders[0]!.stop("SIGKILL"), "SIGKILL");
  const settled = await waitFor(
    async () => {
      const states = await database.db.stepSend.groupBy({ by: ["state"], where: { campaignId: campaign.id }, _count: true });
      const count = (state: string) => states.find((s) => s.state === state)?._count ?? 0;
      return count("sent") + count("failed") === 48 ? { sent: count("sent"), failed: count("failed") } : undefined;
    },
    { timeoutMs: 90_000, intervalMs: 250, what: "every send settled after the kill" },
  );
  // a send the killed process had in SMTP (one per inbox at most) is failed, never resent; everything else went out
  assert.ok(settled.failed <= inboxes.length, `at most the sends in SMTP at the kill failed (${settled.failed})`);
  const recipients = ours().flatMap((m) => m.envelope.to);
  assert.equal(recipients.length, new Set(recipients).size, "no contact got the step twice");
  // a send killed after the server took it but before its record is failed all the same (never resent)
  assert.ok(recipients.length >= settled.sent && recipients.length <= settled.sent + settled.failed, `${recipients.length} received, ${settled.sent} sent, ${settled.failed} failed`);
  const swept = await database.db.stepSend.count({ where: { campaignId: campaign.id, releaseFailures: { gt: 0 } } });
  assert.equal(swept, 0, "the killed sender's queued sends were handed back, not found lost by the sweep");
});
