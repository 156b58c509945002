import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { waitFor, sealedCredentialSecrets } from "@outreach/testing";
import { enrollMany, startEngineProcesses, type ProcessEngine } from "./harness.js";

// Two campaigns of one account send through the same mailbox (same SMTP host and
// username, one credential each), with two sender processes and one dispatcher.
const PER_CAMPAIGN = 120;
const CAP = 2;
let engine: ProcessEngine;
before(async () => {
  engine = await startEngineProcesses({ SMTP_SESSIONS_PER_MAILBOX: String(CAP) });
});
after(async () => {
  await engine?.stop();
});

test("the SMTP sessions of a mailbox shared by two campaigns stay within SMTP_SESSIONS_PER_MAILBOX, while another mailbox of the account sends alongside", async () => {
  const { database, smtp, config, dispatchQueue } = engine;
  const db = database.db;
  const plan = await db.plan.findUniqueOrThrow({ where: { slug: "scale" } });
  const account = await db.account.create({ data: { email: "mailbox@example.test", planId: plan.id, currentPeriodEnd: new Date(Date.now() + 30 * 86_400_000) } });
  const campaigns = [];
  for (const [name, username, host] of [
    ["one", "shared", smtp.host],
    ["two", "SHARED", smtp.host],
    ["three", "own", smtp.host],
  ] as const) {
    const campaign = await db.campaign.create({
      data: { accountId: account.id, name, status: "active", minWaitSeconds: 0, maxWaitSeconds: 0, steps: { create: [{ position: 1, subject: "Hi", bodyHtml: "<p>Hello</p>" }] } },
    });
    await db.smtpCredential.create({
      data: {
        accountId: account.id,
        campaignId: campaign.id,
        label: name,
        fromEmail: `${name}@sender.test`,
        smtpHost: host,
        smtpPort: smtp.port,
        smtpUsername: username,
        ...sealedCredentialSecrets(config.encryptionKey, "pw"),
        dailyLimit: 100_000,
      },
    });
    await enrollMany(db, account.id, campaign.id, PER_CAMPAIGN, name);
    campaigns.push(campaign);
  }
  for (const campaign of campaigns) await dispatchQueue.add({ accountId: account.id, campaignId: campaign.id, batchNumber: 1 });

  await waitFor(() => smtp.messages.length === 3 * PER_CAMPAIGN, { timeoutMs: 120_000, intervalMs: 200, what: "every campaign's batch" });
  // the username's case differs between the two credentials: one mailbox all the same
  const shared = smtp.sessions.maxForAny(["shared", "SHARED"]);
  assert.ok(shared <= CAP, `at most ${CAP} sessions of the shared mailbox at once, saw ${shared}`);
  assert.equal(shared, CAP, "the shared mailbox's sends did run concurrently up to the cap");
  assert.ok(smtp.sessions.maxForAny(["shared", "SHARED", "own"]) > CAP, "the account's other mailbox was not held back by the shared one's cap");
  // each record follows its message
  await waitFor(async () => (await db.stepSend.count({ where: { accountId: account.id, state: "sent" } })) === 3 * PER_CAMPAIGN, { timeoutMs: 30_000, what: "every send recorded" });
});
