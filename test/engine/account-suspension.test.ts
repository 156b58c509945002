import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createRedis, TypedQueue } from "@outreach/core";
import { enqueueSendsWith, readScheduleOverview, releaseDueSends } from "@outreach/domain";
import { runOperatorCommand } from "../../packages/domain/src/operations/cli/operator-command.js";
import { seedCampaign, startEngine, waitFor, type Engine } from "./harness.js";

// A suspended account sends nothing through the real dispatcher and sender (loopback SMTP),
// its sends are held, not failed, and go out once it is unsuspended.
let engine: Engine;
let producer: ReturnType<typeof createRedis>;
let sends: TypedQueue<"send-email">;
let tests: TypedQueue<"test-send">;
before(async () => {
  engine = await startEngine();
  producer = createRedis(engine.config, "producer");
  sends = new TypedQueue("send-email", engine.config, producer);
  tests = new TypedQueue("test-send", engine.config, producer);
});
after(async () => {
  await Promise.all([sends?.close(), tests?.close()]);
  await producer?.quit();
  await engine?.stop();
});

test("while suspended nothing is sent (due sends held, a raced release and a test send handed back); after unsuspend every email arrives", async () => {
  const { db, smtp } = engine;
  const { account, campaign } = await seedCampaign(engine, { contacts: ["ann@example.com", "bob@example.com"] });
  assert.equal((await runOperatorCommand(db, ["suspend", account.id, "--reason", "chargeback"])).code, 0);

  // planned while suspended: both step-1 sends scheduled and due now
  await engine.dispatch(account.id, campaign.id);
  await waitFor(async () => (await db.stepSend.count({ where: { campaignId: campaign.id, state: "scheduled", dueAt: { lte: new Date() } } })) === 2, { what: "the batch planned and due" });
  assert.deepEqual(await releaseDueSends(db, account.id), [], "a suspended account releases nothing");

  // a release that raced the suspension: queued with its job, as the feeder leaves it
  const raced = await db.stepSend.findFirstOrThrow({ where: { campaignId: campaign.id } });
  const queued = await db.stepSend.update({ where: { id: raced.id }, data: { state: "queued" } });
  await enqueueSendsWith(sends)([{ id: queued.id, accountId: account.id, releasedAt: queued.updatedAt, credentialId: queued.credentialId }]);
  // the sender claims it, sees the suspension and hands it back to the schedule: held, no attempt spent, not failed
  await waitFor(
    async () => {
      const row = await db.stepSend.findUniqueOrThrow({ where: { id: raced.id } });
      return row.state === "scheduled" && row.lastError === "account suspended";
    },
    { what: "the raced send handed back" },
  );
  assert.equal((await db.stepSend.findUniqueOrThrow({ where: { id: raced.id } })).attempts, 0);

  // a test send queued before the suspension waits, delayed
  await tests.add({ accountId: account.id, campaignId: campaign.id, email: "qa@example.com" }, { jobId: "held-test-send" });
  await waitFor(async () => (await tests.queue.getJob("held-test-send"))?.getState().then((state) => state === "delayed"), { what: "the test send held" });

  const overview = await readScheduleOverview(db, null, { accountId: account.id });
  assert.deepEqual(overview!.accounts[0]!.counts, { due: 0, later: 0, queued: 0, sending: 0, held: 2 });
  assert.equal(overview!.accounts[0]!.campaigns[0]!.heldBecause, "account suspended");
  assert.equal(smtp.messages.length, 0, "nothing reached the SMTP server");
  assert.equal(await db.stepSend.count({ where: { campaignId: campaign.id, state: { in: ["failed", "cancelled", "sent"] } } }), 0);

  assert.equal((await runOperatorCommand(db, ["unsuspend", account.id])).code, 0);
  await waitFor(() => smtp.messagesTo("ann@example.com").length === 1 && smtp.messagesTo("bob@example.com").length === 1, { what: "both held sends delivered", timeoutMs: 30_000 });
  await waitFor(async () => (await db.stepSend.count({ where: { campaignId: campaign.id, state: "sent" } })) === 2, { what: "both sends recorded sent" });
  // the held test send runs at its next look (a minute); promoted here rather than waited for
  await (await tests.queue.getJob("held-test-send"))!.promote();
  await waitFor(() => smtp.messagesTo("qa@example.com").length === 1, { what: "the test send delivered" });
  assert.equal(smtp.messages.length, 3);
});
