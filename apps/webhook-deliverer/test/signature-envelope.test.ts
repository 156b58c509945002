import assert from "node:assert/strict";
import { test } from "node:test";
import { EVENT_TYPES, encryptSecret, Keyring, secretAad } from "@outreach/core";
import { createAccount, createWebhook, emitEvent, sampleEvents, sentData, delivererForFile, receiverPool, v1Values, verifyWithStripe, waitFor, waitForOutcome } from "./harness.js";

const receiver = receiverPool();
const deliverer = delivererForFile();

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

test("a delivery verifies with stripe-node's constructEvent over the exact bytes, with the spec's headers and envelope", async () => {
  const rx = await receiver();
  const accountId = await createAccount(deliverer.db);
  const { id: webhookId, secret } = await createWebhook(deliverer.db, deliverer.config, accountId, rx.url);
  const data = sentData();
  const eventId = await emitEvent(deliverer.db, accountId, "enrollment.sent", data);
  await waitFor(() => rx.requests.length === 1, { timeoutMs: 20_000, what: "the delivery" });
  const delivery = await waitForOutcome(deliverer.db, webhookId, eventId);
  const request = rx.requests[0]!;
  const header = String(request.headers["x-service-signature"]);

  assert.match(header, /^t=\d+,v1=[0-9a-f]{64}$/);
  const verified = verifyWithStripe(request.raw, header, secret) as Record<string, unknown>;
  assert.equal(verified.id, delivery.id);
  assert.throws(() => verifyWithStripe(request.raw, header, `${secret}x`), /No signatures found matching/);
  // one byte changed in the body: the signature no longer holds
  const tampered = Buffer.from(request.raw);
  tampered.writeUInt8(tampered.readUInt8(tampered.length - 2) ^ 1, tampered.length - 2);
  assert.throws(() => verifyWithStripe(tampered, header, secret), /No signatures found matching/);
  const t = Number(/^t=(\d+)/.exec(header)![1]);
  assert.ok(Math.abs(t - Date.now() / 1000) < 120, `t=${t} is the time of sending`);

  assert.equal(request.headers["content-type"], "application/json");
  assert.equal(request.headers["user-agent"], "service-webhooks/1.0");

  const envelope = JSON.parse(request.raw.toString("utf8"));
  assert.deepEqual(Object.keys(envelope).sort(), ["account_id", "created_at", "data", "id", "type"]);
  assert.equal(envelope.id, delivery.id);
  assert.match(envelope.id, UUID);
  assert.notEqual(envelope.id, eventId, "the envelope id is the delivery's, not the event's");
  assert.equal(envelope.type, "enrollment.sent");
  assert.equal(envelope.account_id, accountId);
  const event = await deliverer.db.event.findUniqueOrThrow({ where: { id: eventId } });
  assert.equal(envelope.created_at, event.createdAt.toISOString());
  assert.match(envelope.created_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  assert.deepEqual(envelope.data, data);
  assert.equal(delivery.state, "succeeded");
});

test("the data of each of the 7 event types reaches the receiver exactly as the event carries it", async () => {
  const rx = await receiver();
  const accountId = await createAccount(deliverer.db);
  const { secret } = await createWebhook(deliverer.db, deliverer.config, accountId, rx.url);
  const samples = sampleEvents();
  const emitted = new Map<string, string>();
  for (const type of EVENT_TYPES) emitted.set(await emitEvent(deliverer.db, accountId, type, samples[type] as never), type);
  await waitFor(() => rx.requests.length >= EVENT_TYPES.length, { timeoutMs: 20_000, what: "7 deliveries" });

  const byType = new Map<string, any>();
  for (const request of rx.requests) {
    const envelope = verifyWithStripe(request.raw, String(request.headers["x-service-signature"]), secret) as any;
    assert.ok(!byType.has(envelope.type), `one delivery of ${envelope.type}`);
    byType.set(envelope.type, envelope);
  }
  assert.deepEqual([...byType.keys()].sort(), [...EVENT_TYPES].sort());
  for (const type of EVENT_TYPES) {
    assert.deepEqual(byType.get(type).data, samples[type], `data of ${type}`);
    assert.equal(byType.get(type).account_id, accountId);
  }
  // the ids are the deliveries', one per event
  const deliveries = await deliverer.db.webhookDelivery.findMany({ where: { accountId } });
  assert.deepEqual(new Set(deliveries.map((d) => d.id)), new Set([...byType.values()].map((e) => e.id)));
  for (const d of deliveries) assert.equal(emitted.get(d.eventId!), d.eventType);
});

test("during a secret rotation the header has a v1 for the new secret then one for the old; after the grace, one", async () => {
  const rx = await receiver();
  const accountId = await createAccount(deliverer.db);
  const { id: webhookId, secret: oldSecret } = await createWebhook(deliverer.db, deliverer.config, accountId, rx.url);
  // as rotate_secret leaves the row: a new current secret, the old one kept for a while
  const newSecret = `whsec_rotated_${Date.now()}`;
  const keyring = Keyring.fromConfig(deliverer.config);
  const webhook = await deliverer.db.webhook.findUniqueOrThrow({ where: { id: webhookId } });
  await deliverer.db.webhook.update({
    where: { id: webhookId },
    data: { secretEnc: encryptSecret(newSecret, keyring, secretAad("webhooks", "secretEnc", webhookId)), previousSecretEnc: webhook.secretEnc, previousSecretUntil: new Date(Date.now() + 3600_000) },
  });

  await emitEvent(deliverer.db, accountId, "enrollment.opened", sampleEvents()["enrollment.opened"]);
  await waitFor(() => rx.requests.length === 1, { timeoutMs: 20_000, what: "the delivery during the rotation" });
  const during = rx.requests[0]!;
  const header = String(during.headers["x-service-signature"]);
  const t = /^t=(\d+)/.exec(header)![1];
  const v1 = v1Values(header);
  assert.equal(v1.length, 2, header);
  assert.notEqual(v1[0], v1[1]);
  verifyWithStripe(during.raw, `t=${t},v1=${v1[0]}`, newSecret);
  verifyWithStripe(during.raw, `t=${t},v1=${v1[1]}`, oldSecret);
  assert.throws(() => verifyWithStripe(during.raw, `t=${t},v1=${v1[0]}`, oldSecret));
  assert.throws(() => verifyWithStripe(during.raw, `t=${t},v1=${v1[1]}`, newSecret));
  // a receiver still on either secret accepts the whole header
  verifyWithStripe(during.raw, header, newSecret);
  verifyWithStripe(during.raw, header, oldSecret);

  // the grace period is over
  await deliverer.db.webhook.update({ where: { id: webhookId }, data: { previousSecretUntil: new Date(Date.now() - 1000) } });
  await emitEvent(deliverer.db, accountId, "enrollment.opened", sampleEvents()["enrollment.opened"]);
  await waitFor(() => rx.requests.length === 2, { timeoutMs: 20_000, what: "the delivery after the rotation" });
  const afterGrace = rx.requests[1]!;
  const header2 = String(afterGrace.headers["x-service-signature"]);
  assert.equal(v1Values(header2).length, 1, header2);
  verifyWithStripe(afterGrace.raw, header2, newSecret);
  assert.throws(() => verifyWithStripe(afterGrace.raw, header2, oldSecret), /No signatures found matching/);
});
