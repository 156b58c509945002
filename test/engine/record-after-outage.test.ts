import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createRedis, TypedQueue } from "@outreach/core";
import { startTcpProxy, waitFor, type TcpProxy } from "@outreach/testing";
import { eventsOf, seedCampaign, startEngine, type Engine } from "./harness.js";

// PostgreSQL becomes unreachable for the sender right as the SMTP server
// accepts a message, and comes back later. The acceptance must not be lost
// (the step would stay "sending" and be failed by the sweeper) nor repeated:
// the step ends sent exactly once, with one event and one counted send.
let proxy: TcpProxy | undefined;
let engine: Engine;
let producer: ReturnType<typeof createRedis>;
let sendQueue: TypedQueue<"send-email">;

before(async () => {
  engine = await startEngine(
    {},
    {
      // only the sender reaches PostgreSQL through the proxy; the dispatcher (and its sweeper) keep theirs
      senderEnv: async (database) => {
        const url = new URL(database.url);
        proxy = await startTcpProxy(url.hostname, Number(url.port || 5432));
        url.hostname = "127.0.0.1";
        url.port = String(proxy.port);
        return { DATABASE_URL: url.toString() };
      },
    },
  );
  producer = createRedis(engine.config, "producer");
  sendQueue = new TypedQueue("send-email", engine.config, producer);
});
after(async () => {
  proxy?.resume();
  await sendQueue?.close();
  await producer?.quit();
  await engine?.stop();
  await proxy?.close();
});

const activeSends = async () => (await sendQueue.queue.getJobCounts("active")).active ?? 0;

test("PostgreSQL unreachable between SMTP acceptance and the record, then back: recorded once, sent once", async () => {
  const { account, campaign, contacts } = await seedCampaign(engine, { contacts: ["outage@example.com"], steps: [{ subject: "Hi" }, { subject: "", delayMinutes: 3 * 24 * 60 }] });
  engine.smtp.onAccept(() => proxy!.cut());
  await engine.dispatch(account.id, campaign.id);
  await engine.smtp.waitForMessages(1, 15_000);
  engine.smtp.onAccept(null);
  // the sender has finished with the send's job (however it handled the failed record) before PostgreSQL is back
  await waitFor(async () => (await activeSends()) === 0, { timeoutMs: 30_000, what: "the send job to finish" });
  const during = await engine.db.stepSend.findFirstOrThrow({ where: { campaignId: campaign.id, stepPosition: 1 } });
  assert.equal(during.state, "sending", "nothing could be recorded while PostgreSQL was unreachable");
  proxy!.resume();

  const sent = await waitFor(
    async () => {
      const row = await engine.db.stepSend.findFirstOrThrow({ where: { campaignId: campaign.id, stepPosition: 1 } });
      return row.state === "sending" ? undefined : row;
    },
    { timeoutMs: 20_000, what: "the send to be recorded once PostgreSQL is back" },
  );
  assert.equal(sent.state, "sent", `${sent.state}: ${sent.lastError}`);
  assert.equal(sent.outcome, "accepted");
  assert.equal(sent.messageId, engine.smtp.messages[0]!.parsed.messageId);
  const enrollment = await engine.db.enrollment.findFirstOrThrow({ where: { contactId: contacts[0]!.id } });
  assert.equal(enrollment.status, "sent");
  assert.equal((await eventsOf(engine.db, account.id, "enrollment.sent")).length, 1, "one enrollment.sent event");
  assert.equal((await engine.db.usagePeriod.aggregate({ where: { accountId: account.id }, _sum: { sends: true } }))._sum.sends, 1, "the send is counted once");
  const followUp = await engine.db.stepSend.findFirstOrThrow({ where: { campaignId: campaign.id, stepPosition: 2 } });
  assert.equal(followUp.state, "scheduled", "the sequence goes on");
  assert.equal(engine.smtp.transfers.length, 1, "the server received exactly one message");
  assert.equal(engine.smtp.messages.length, 1);
});
