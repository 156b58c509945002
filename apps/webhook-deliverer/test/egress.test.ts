import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { startDnsServer, type DnsTestServer } from "@outreach/testing";
import { createAccount, createWebhook, emitEvent, sentData, startDeliverer, receiverPool, waitFor, waitForOutcome, type Deliverer } from "./harness.js";

let dns: DnsTestServer;
/** private addresses allowed (as in development), names resolved by the test DNS server */
let open: Deliverer;
/** the production setting: only public addresses */
let strict: Deliverer;
const receiver = receiverPool();
before(async () => {
  dns = await startDnsServer();
  open = await startDeliverer({ WEBHOOK_RETRY_BASE_MS: "50", DNS_SERVERS: dns.address });
  strict = await startDeliverer({ WEBHOOK_RETRY_BASE_MS: "50", DNS_SERVERS: dns.address, WEBHOOK_ALLOW_PRIVATE_URLS: "false" });
});
after(async () => {
  await open?.stop();
  await strict?.stop();
  await dns?.close();
});

async function deliverOnce(deliverer: Deliverer, url: string) {
  const accountId = await createAccount(deliverer.db);
  const { id: webhookId } = await createWebhook(deliverer.db, deliverer.config, accountId, url);
  const eventId = await emitEvent(deliverer.db, accountId, "enrollment.sent", sentData());
  return waitForOutcome(deliverer.db, webhookId, eventId);
}

test("a redirect is not followed: the delivery fails at once and the Location target receives nothing", async () => {
  const [rx, target] = [await receiver(), await receiver()];
  rx.fallback = { status: 302, headers: { location: target.url } };
  const delivery = await deliverOnce(open, rx.url);
  assert.equal(delivery.state, "failed");
  assert.equal(delivery.attempts, 1);
  assert.equal(delivery.attemptLog[0]!.statusCode, 302);
  assert.match(delivery.attemptLog[0]!.error!, /redirect.*not followed/);
  assert.equal(delivery.nextAttemptAt, null);
  assert.equal(rx.requests.length, 1);
  assert.equal(target.requests.length, 0);
});

test("a host name is resolved through the egress guard and the request goes to the address it checked", async () => {
  const rx = await receiver();
  dns.setA("hooks.customer-one.test", ["127.0.0.1"]);
  const port = new URL(rx.url).port;
  const delivery = await deliverOnce(open, `http://hooks.customer-one.test:${port}/hook`);
  assert.equal(delivery.state, "succeeded");
  assert.equal(rx.requests.length, 1);
  assert.equal(rx.requests[0]!.headers.host, `hooks.customer-one.test:${port}`);
  assert.ok(dns.queryCount("hooks.customer-one.test") >= 1);
});

test("a host name that does not resolve is a network error: retried, and delivered once it resolves", async () => {
  const rx = await receiver();
  const port = new URL(rx.url).port;
  const accountId = await createAccount(open.db);
  const { id: webhookId } = await createWebhook(open.db, open.config, accountId, `http://hooks.customer-two.test:${port}/hook`);
  const eventId = await emitEvent(open.db, accountId, "enrollment.sent", sentData());
  await waitFor(async () => (await open.db.webhookAttempt.count({ where: { delivery: { webhookId } } })) >= 2, { timeoutMs: 30_000, what: "two attempts" });
  dns.setA("hooks.customer-two.test", ["127.0.0.1"]);
  const delivery = await waitForOutcome(open.db, webhookId, eventId);
  assert.equal(delivery.state, "succeeded", JSON.stringify(delivery.attemptLog));
  for (const attempt of delivery.attemptLog.slice(0, -1)) assert.match(attempt.error!, /does not resolve/);
  assert.equal(rx.requests.length, 1);
});

for (const kind of ["127.0.0.1", "localhost", "[::1]", "a name resolving to 127.0.0.1"]) {
  test(`a private address is refused (${kind}): nothing is sent, one attempt recorded as refused, no retry`, async () => {
    const rx = await receiver();
    const port = new URL(rx.url).port;
    let host = kind;
    if (kind.startsWith("a name")) {
      host = "internal.customer-three.test";
      dns.setA(host, ["127.0.0.1"]);
    }
    const delivery = await deliverOnce(strict, `http://${host}:${port}/hook`);
    assert.equal(delivery.state, "failed");
    assert.equal(delivery.attempts, 1);
    assert.equal(delivery.attemptLog.length, 1);
    assert.equal(delivery.attemptLog[0]!.statusCode, null);
    assert.match(delivery.attemptLog[0]!.error!, /^refused: .*public host/);
    if (kind.startsWith("a name")) {
      // the tenant reads last_error: it names the refusal, never the internal address the name resolved to
      for (const error of [delivery.lastError!, delivery.attemptLog[0]!.error!]) {
        assert.equal(error, "refused: internal.customer-three.test must be a public host: it resolves to a private or reserved address");
      }
    }
    assert.equal(delivery.nextAttemptAt, null);
    assert.equal(rx.requests.length, 0);
  });
}
