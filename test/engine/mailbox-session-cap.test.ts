import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createRedis, encryptSecret, loadConfig, TypedQueue, type Config } from "@outreach/core";
import { createTestDatabase, LOOPBACK_MAIL_ENV, startAppProcess, startSmtpServer, uniqueQueuePrefix, waitFor, type AppProcess, type SmtpTestServer, type TestDatabase } from "@outreach/testing";
import { enrollMany } from "./harness.js";

// Two campaigns of one account send through the same mailbox (same SMTP host and
// username, one credential each), with two sender processes and one dispatcher.
const PER_CAMPAIGN = 120;
const CAP = 2;
let database: TestDatabase;
let smtp: SmtpTestServer;
let config: Config;
let dispatchQueue: TypedQueue<"campaign-dispatch">;
let producer: ReturnType<typeof createRedis>;
const processes: AppProcess[] = [];

before(async () => {
  database = await createTestDatabase();
  // slow answers keep sessions open, so many due sends compete for them
  smtp = await startSmtpServer({ latencyMs: 20 });
  const env = { DATABASE_URL: database.url, QUEUE_PREFIX: uniqueQueuePrefix(), PUBLIC_BASE_URL: "http://outreach.test", LOG_LEVEL: "error", SMTP_SESSIONS_PER_MAILBOX: String(CAP), ...LOOPBACK_MAIL_ENV };
  config = loadConfig("sender", env);
  processes.push(...(await Promise.all([startAppProcess("dispatcher", { env }), startAppProcess("sender", { env }), startAppProcess("sender", { env })])));
  producer = createRedis(config, "producer");
  dispatchQueue = new TypedQueue("campaign-dispatch", config, producer);
});
after(async () => {
  await dispatchQueue?.close();
  await producer?.quit();
  await Promise.all(processes.map((p) => p.stop()));
  await smtp?.close();
  await database?.drop();
});

test("the SMTP sessions of a mailbox shared by two campaigns stay within SMTP_SESSIONS_PER_MAILBOX, while another mailbox of the account sends alongside", async () => {
  const db = database.db;
  const plan = await db.plan.findUniqueOrThrow({ where: { slug: "scale" } });
  const account = await db.account.create({ data: { email: "mailbox@example.test", planId: plan.id, currentPeriodEnd: new Date(Date.now() + 30 * 86_400_000) } });
  const campaigns = [];
  for (const [name, username, host] of [["one", "shared", smtp.host], ["two", "SHARED", smtp.host], ["three", "own", smtp.host]] as const) {
    const campaign = await db.campaign.create({
      data: { accountId: account.id, name, status: "active", minWaitSeconds: 0, maxWaitSeconds: 0, steps: { create: [{ position: 1, subject: "Hi", bodyHtml: "<p>Hello</p>" }] } },
    });
    await db.smtpCredential.create({
      data: { accountId: account.id, campaignId: campaign.id, label: name, fromEmail: `${name}@sender.test`, smtpHost: host, smtpPort: smtp.port, smtpUsername: username, smtpPasswordEnc: encryptSecret("pw", config.encryptionKey), dailyLimit: 100_000 },
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
  assert.equal(await db.stepSend.count({ where: { accountId: account.id, state: "sent" } }), 3 * PER_CAMPAIGN);
});
