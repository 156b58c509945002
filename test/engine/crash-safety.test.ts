import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { loadConfig, TypedQueue, createRedis } from "@outreach/core";
import { createTestDatabase, LOOPBACK_MAIL_ENV, startAppProcess, startSmtpServer, uniqueQueuePrefix, waitFor, type AppProcess, type SmtpTestServer, type TestDatabase } from "@outreach/testing";
import { createInboxes, enrollMany } from "./harness.js";

// Two sender processes share a 1,000-email batch; one is killed with SIGKILL in
// the middle and started again. No (contact, step) may reach the SMTP server
// twice, and every send that was not in flight at the kill must arrive exactly once.
let database: TestDatabase;
let smtp: SmtpTestServer;
const processes: AppProcess[] = [];

before(async () => {
  database = await createTestDatabase();
  smtp = await startSmtpServer({ latencyMs: 5 });
});
after(async () => {
  await Promise.all(processes.map((p) => p.stop("SIGKILL")));
  await smtp?.close();
  await database?.drop();
});

test("SIGKILL of a sender mid-batch: every step at most once, every step not in flight exactly once", async () => {
  const db = database.db;
  const env = { DATABASE_URL: database.url, QUEUE_PREFIX: uniqueQueuePrefix(), PUBLIC_BASE_URL: "http://outreach.test", LOG_LEVEL: "error", ...LOOPBACK_MAIL_ENV };
  const config = loadConfig("sender", env);
  const plan = await db.plan.findUniqueOrThrow({ where: { slug: "scale" } });
  const account = await db.account.create({ data: { email: "crash@example.test", planId: plan.id, currentPeriodEnd: new Date(Date.now() + 30 * 86_400_000) } });
  const campaign = await db.campaign.create({
    data: {
      accountId: account.id,
      name: "Crash",
      status: "active",
      minWaitSeconds: 0,
      maxWaitSeconds: 0,
      steps: { create: [{ position: 1, subject: "Hi {{first_name}}", bodyHtml: "<p>Hello</p>" }] },
    },
  });
  await createInboxes(db, { accountId: account.id, campaignId: campaign.id, smtp, keys: config.encryptionKey }, ["crash-a", "crash-b"], 5_000);
  await enrollMany(db, account.id, campaign.id, 1_000, "crash");

  processes.push(await startAppProcess("dispatcher", { env }), await startAppProcess("sender", { env }), await startAppProcess("sender", { env }));
  const [, victim] = [processes[0]!, processes[1]!];
  const producer = createRedis(config, "producer");
  const dispatchQueue = new TypedQueue("campaign-dispatch", config, producer);
  await dispatchQueue.add({ accountId: account.id, campaignId: campaign.id, batchNumber: 1 });

  await waitFor(() => smtp.messages.length >= 300, { timeoutMs: 60_000, what: "300 emails before the kill" });
  await victim!.stop("SIGKILL");
  const inFlightAtKill = await db.stepSend.findMany({ where: { campaignId: campaign.id, state: "sending" }, select: { id: true } });
  processes.push(await startAppProcess("sender", { env }));

  // everything settles: nothing left to release or send, and what the killed process held
  // mid-SMTP is failed once its liveness key expires (its slots come back), not after minutes
  const unsettled = () => db.stepSend.count({ where: { campaignId: campaign.id, state: { in: ["scheduled", "queued", "sending"] } } });
  await waitFor(async () => (await unsettled()) === 0, { timeoutMs: 120_000, intervalMs: 250, what: "the batch to finish" }).catch(async (err: Error) => {
    const states = await db.stepSend.groupBy({ by: ["state", "lastError"], where: { campaignId: campaign.id }, _count: true });
    throw new Error(`${err.message}; ${smtp.messages.length} emails received; sends: ${JSON.stringify(states.map((s) => [s.state, s.lastError, s._count]))}`);
  });
  await dispatchQueue.close();
  await producer.quit();

  const rows = await db.stepSend.findMany({ where: { campaignId: campaign.id }, select: { id: true, state: true, messageId: true, claimedBy: true } });
  assert.equal(rows.length, 1_000);
  const received = new Map<string, number>();
  for (const message of smtp.messages) {
    const id = /^<([0-9a-f-]{36})@/.exec(message.parsed.messageId ?? "")?.[1] ?? "unknown";
    received.set(id, (received.get(id) ?? 0) + 1);
  }
  assert.ok(!received.has("unknown"), "every email carries its send's Message-ID");
  const duplicates = [...received.entries()].filter(([, n]) => n > 1);
  assert.deepEqual(duplicates, [], "no step reached the SMTP server twice");

  const recipients = new Map<string, number>();
  for (const message of smtp.messages) recipients.set(message.envelope.to[0]!, (recipients.get(message.envelope.to[0]!) ?? 0) + 1);
  assert.ok(
    [...recipients.values()].every((n) => n === 1),
    "no contact got the step twice",
  );

  const inFlight = new Set(inFlightAtKill.map((r) => r.id));
  const interrupted = rows.filter((r) => r.state === "failed");
  assert.ok(
    interrupted.every((r) => inFlight.has(r.id)),
    "only sends in flight at the kill were failed",
  );
  assert.ok(new Set(interrupted.map((r) => r.claimedBy)).size <= 1, "all of them held by the one process that was killed");
  assert.ok(inFlight.size <= 10, `at most 10 sends were in flight (${inFlight.size})`);
  for (const row of rows) {
    if (inFlight.has(row.id) && row.state !== "sent") {
      // the killed process held it mid-SMTP: it may have reached the server or not, and is never sent again
      assert.equal(row.state, "failed", `send ${row.id} was in flight at the kill`);
      continue;
    }
    assert.equal(row.state, "sent", `send ${row.id} finished`);
    assert.equal(received.get(row.id), 1, `send ${row.id} arrived exactly once`);
  }
});
