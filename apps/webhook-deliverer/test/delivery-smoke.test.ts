import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createAccount, createWebhook, emitEvent, sentData, startDeliverer, startReceiver, waitFor, type Deliverer, type Receiver } from "./harness.js";

let deliverer: Deliverer;
let receiver: Receiver;
before(async () => {
  deliverer = await startDeliverer();
  receiver = await startReceiver();
});
after(async () => {
  await receiver?.close();
  await deliverer?.stop();
});

test("an event reaches a matching webhook as a signed envelope, and retries keep its id", async () => {
  const accountId = await createAccount(deliverer.db);
  const { id: webhookId } = await createWebhook(deliverer.db, deliverer.config, accountId, receiver.url);
  receiver.answers.push({ status: 500 }, { status: 503 });
  const eventId = await emitEvent(deliverer.db, accountId, "enrollment.sent", sentData());
  await waitFor(() => receiver.requests.length === 3, { what: "three attempts" });
  const ids = new Set(receiver.requests.map((r) => r.body.id));
  assert.equal(ids.size, 1);
  const delivery = await deliverer.db.webhookDelivery.findFirstOrThrow({ where: { webhookId, eventId } });
  assert.equal([...ids][0], delivery.id);
  await waitFor(async () => (await deliverer.db.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } })).state === "succeeded", { what: "succeeded" });
  assert.equal(receiver.requests[0]!.headers["user-agent"], "service-webhooks/1.0");
  assert.match(String(receiver.requests[0]!.headers["x-service-signature"]), /^t=\d+,v1=[0-9a-f]{64}$/);
});
