import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createRedis, loadConfig, TypedQueue } from "@outreach/core";
import { startWorker } from "@outreach/runtime";
import { createTestDatabase, findFreePort, LOOPBACK_MAIL_ENV, startSmtpServer, startTcpProxy, uniqueQueuePrefix, waitFor, type SmtpTestServer, type TcpProxy, type TestDatabase } from "@outreach/testing";
import { dispatcherWorker } from "../../apps/dispatcher/src/worker.js";
import { senderWorker } from "../../apps/sender/src/worker.js";
import { eventsOf, seedCampaign, type Engine } from "./harness.js";

// PostgreSQL becomes unreachable for the sender right as the SMTP server
// accepts a message, and comes back later. The acceptance must not be lost
// (the step would stay "sending" and be failed by the sweeper) nor repeated:
// the step ends sent exactly once, with one event and one counted send.
let database: TestDatabase;
let smtp: SmtpTestServer;
let proxy: TcpProxy;
let engine: Engine;
const stops: Array<() => Promise<void>> = [];

before(async () => {
  database = await createTestDatabase();
  smtp = await startSmtpServer();
  const url = new URL(database.url);
  proxy = await startTcpProxy(url.hostname, Number(url.port || 5432));
  const throughProxy = new URL(database.url);
  throughProxy.hostname = "127.0.0.1";
  throughProxy.port = String(proxy.port);
  const base = { DATABASE_URL: database.url, QUEUE_PREFIX: uniqueQueuePrefix(), PUBLIC_BASE_URL: "http://outreach.test", LOG_LEVEL: "error", ...LOOPBACK_MAIL_ENV };
  // only the sender reaches PostgreSQL through the proxy; the dispatcher (and its sweeper) keep theirs
  const config = loadConfig("sender", { ...base, DATABASE_URL: throughProxy.toString(), HEALTH_PORT: String(await findFreePort()) });
  const dispatcher = await startWorker(dispatcherWorker, loadConfig("dispatcher", { ...base, HEALTH_PORT: String(await findFreePort()) }));
  const sender = await startWorker(senderWorker, config);
  const producer = createRedis(config, "producer");
  const dispatchQueue = new TypedQueue("campaign-dispatch", config, producer);
  const sendQueue = new TypedQueue("send-email", config, producer);
  stops.push(async () => {
    await Promise.all([dispatchQueue.close(), sendQueue.close()]);
    await producer.quit();
    await Promise.all([dispatcher.close(), sender.close()]);
  });
  engine = {
    db: database.db,
    database,
    smtp,
    config,
    async dispatch(accountId, campaignId, batchNumber = 1) {
      await database.db.campaign.update({ where: { id: campaignId }, data: { status: "active" } });
      await dispatchQueue.add({ accountId, campaignId, batchNumber });
    },
    stop: async () => undefined,
  };
  activeSends = async () => (await sendQueue.queue.getJobCounts("active")).active ?? 0;
});
after(async () => {
  proxy?.resume();
  for (const stop of stops) await stop();
  await proxy?.close();
  await smtp?.close();
  await database?.drop();
});

let activeSends: () => Promise<number>;

test("PostgreSQL unreachable between SMTP acceptance and the record, then back: recorded once, sent once", async () => {
  const { account, campaign, contacts } = await seedCampaign(engine, { contacts: ["outage@example.com"], steps: [{ subject: "Hi" }, { subject: "", delayMinutes: 3 * 24 * 60 }] });
  smtp.onAccept(() => proxy.cut());
  await engine.dispatch(account.id, campaign.id);
  await smtp.waitForMessages(1, 15_000);
  smtp.onAccept(null);
  // the sender has finished with the send's job (however it handled the failed record) before PostgreSQL is back
  await waitFor(async () => (await activeSends()) === 0, { timeoutMs: 30_000, what: "the send job to finish" });
  const during = await database.db.stepSend.findFirstOrThrow({ where: { campaignId: campaign.id, stepPosition: 1 } });
  assert.equal(during.state, "sending", "nothing could be recorded while PostgreSQL was unreachable");
  proxy.resume();

  const sent = await waitFor(
    async () => {
      const row = await database.db.stepSend.findFirstOrThrow({ where: { campaignId: campaign.id, stepPosition: 1 } });
      return row.state === "sending" ? undefined : row;
    },
    { timeoutMs: 20_000, what: "the send to be recorded once PostgreSQL is back" },
  );
  assert.equal(sent.state, "sent", `${sent.state}: ${sent.lastError}`);
  assert.equal(sent.outcome, "accepted");
  assert.equal(sent.messageId, smtp.messages[0]!.parsed.messageId);
  const enrollment = await database.db.enrollment.findFirstOrThrow({ where: { contactId: contacts[0]!.id } });
  assert.equal(enrollment.status, "sent");
  assert.equal((await eventsOf(database.db, account.id, "enrollment.sent")).length, 1, "one enrollment.sent event");
  assert.equal((await database.db.usagePeriod.aggregate({ where: { accountId: account.id }, _sum: { sends: true } }))._sum.sends, 1, "the send is counted once");
  const followUp = await database.db.stepSend.findFirstOrThrow({ where: { campaignId: campaign.id, stepPosition: 2 } });
  assert.equal(followUp.state, "scheduled", "the sequence goes on");
  assert.equal(smtp.transfers.length, 1, "the server received exactly one message");
  assert.equal(smtp.messages.length, 1);
});
