import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createRedis, TypedQueue } from "@outreach/core";
import { seedCampaign, startEngine, waitFor, type Engine } from "./harness.js";

let engine: Engine;
let queue: TypedQueue<"test-send">;
let producer: ReturnType<typeof createRedis>;
before(async () => {
  engine = await startEngine();
  producer = createRedis(engine.config, "producer");
  queue = new TypedQueue("test-send", engine.config, producer);
});
after(async () => {
  await queue?.close();
  await producer?.quit();
  await engine?.stop();
});

test("the sender sends every step of a test send, and never to an address that unsubscribed since it was queued", async () => {
  const { account, campaign } = await seedCampaign(engine, { steps: [{ subject: "First" }, { subject: "Second", delayMinutes: 60 }], contacts: ["left@example.com"] });
  await engine.db.contact.updateMany({ where: { accountId: account.id, email: "left@example.com" }, data: { unsubscribedAt: new Date() } });
  await queue.addBulk([
    { payload: { accountId: account.id, campaignId: campaign.id, email: "left@example.com" } },
    { payload: { accountId: account.id, campaignId: campaign.id, email: "qa@example.com" } },
  ]);
  await waitFor(() => engine.smtp.messagesTo("qa@example.com").length === 2, { what: "both steps of the test send" });
  assert.deepEqual(
    engine.smtp.messagesTo("qa@example.com").map((m) => m.parsed.subject),
    ["[Test] First", "[Test] Second"],
  );
  // both jobs were taken together; the unsubscribed address's job is done by now
  await waitFor(async () => (await queue.queue.getCompletedCount()) === 2, { what: "both jobs to complete" });
  assert.equal(engine.smtp.messagesTo("left@example.com").length, 0);
});
