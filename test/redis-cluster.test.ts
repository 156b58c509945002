import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createLogger, createRedis, keyspaceNodes, loadConfig, pingRedis, redisKeys, TypedQueue, type Config, type RedisClient } from "@outreach/core";
import {
  apiRequest,
  createTestDatabase,
  dovecotUnavailableReason,
  findFreePort,
  LOOPBACK_MAIL_ENV,
  redisClusterUnavailableReason,
  skipWithoutSystemServer,
  startAppProcess,
  startDovecot,
  startRedisCluster,
  startSmtpServer,
  startWebhookReceiver,
  uniqueQueuePrefix,
  waitFor,
  type AppDir,
  type AppProcess,
  type DovecotTestServer,
  type RedisClusterTestServer,
  type SmtpTestServer,
  type TestDatabase,
  type WebhookReceiver,
} from "@outreach/testing";
import { checkRateLimit } from "../apps/api/src/middleware/rate-limit.js";
import { RateLimiter } from "../apps/api/src/rate-limiter.js";
import { ApiKeyCache } from "../apps/api/src/api-key-cache.js";
import { takeClassifierCall } from "../apps/imap-poller/src/classifier-budget.js";
import { ReplicaRing } from "../apps/imap-poller/src/replica-ring.js";
import { RedisSessionWantedSignal } from "../apps/sender/src/session-wanted-signal.js";

// The apps against a three-master Redis Cluster (REDIS_CLUSTER_NODES): first
// the scripts and MULTIs of the apps' own classes, then every app as a
// process, a campaign sent, its webhooks delivered, a reply detected, a
// revocation broadcast between two API replicas and the operators' queue view.
// REDIS_URL points nowhere: nothing may fall back to it. Six processes start
// from source, so the end-to-end test has a longer timeout than the runner's default.
const skip = skipWithoutSystemServer("redis-server", redisClusterUnavailableReason(), process.env) || skipWithoutSystemServer("Dovecot", dovecotUnavailableReason(), process.env);
const OPERATOR_TOKEN = "operator-token-for-cluster-tests-0123";
const INBOX = "cluster-inbox@sender.test";
const INBOX_PASSWORD = "cluster-inbox-pw";
const logger = createLogger({ service: "api", level: "error" });

let cluster: RedisClusterTestServer;
let database: TestDatabase;
let smtp: SmtpTestServer;
let dovecot: DovecotTestServer;
let receiver: WebhookReceiver;
let config: Config;
let env: Record<string, string>;
const processes: AppProcess[] = [];
const connections: RedisClient[] = [];

function connect(role: "worker" | "producer" | "command" = "producer"): RedisClient {
  const client = createRedis(config, role);
  connections.push(client);
  return client;
}

before(async () => {
  if (skip) return;
  [cluster, database, smtp, dovecot, receiver] = await Promise.all([startRedisCluster(), createTestDatabase(), startSmtpServer(), startDovecot(), startWebhookReceiver()]);
  await dovecot.addUsers([{ email: INBOX, password: INBOX_PASSWORD }]);
  env = {
    ...LOOPBACK_MAIL_ENV,
    DATABASE_URL: database.url,
    REDIS_CLUSTER_NODES: cluster.nodes,
    REDIS_URL: "redis://127.0.0.1:1",
    QUEUE_PREFIX: uniqueQueuePrefix(),
    PUBLIC_BASE_URL: "http://outreach.test",
    LOG_LEVEL: "warn",
    WEBHOOK_ALLOW_PRIVATE_URLS: "true",
    WEBHOOK_RETRY_BASE_MS: "300",
    IMAP_POLL_INTERVAL_SECONDS: "2",
    OPERATOR_TOKEN,
  };
  config = loadConfig("api", env);
  await pingRedis(connect(), 10_000);
});
after(async () => {
  await Promise.all(processes.map((app) => app.stop("SIGKILL")));
  for (const client of connections) client.disconnect();
  await Promise.all([cluster?.stop(), smtp?.close(), dovecot?.close(), receiver?.close()]);
  await database?.drop();
});

test("the apps' own scripts and MULTIs on the cluster: rate limits, the classifier budget, the poller ring, pub/sub", { skip }, async () => {
  const redis = connect();
  const policy = { name: "key", limit: 3, windowSeconds: 60 };
  const decisions = [];
  for (let i = 0; i < 4; i++) decisions.push((await checkRateLimit(redis, config, logger, policy, "subject-1"))?.allowed);
  assert.deepEqual(decisions, [true, true, true, false], "GCRA enforces the limit (null would mean Redis refused the script)");
  const limiter = new RateLimiter(redis, config, logger, { name: "account", limit: 20, windowSeconds: 60 });
  let allowed = 0;
  for (let i = 0; i < 25; i++) if ((await limiter.take("subject-2"))?.allowed) allowed++;
  assert.equal(allowed, 20);

  const account = "6f1c2a7e-0000-4000-8000-0000000000c1";
  assert.deepEqual(
    [await takeClassifierCall(redis, config, account, 2), await takeClassifierCall(redis, config, account, 2), await takeClassifierCall(redis, config, account, 2)],
    [true, true, false],
  );

  const rings = [new ReplicaRing(redis, redisKeys.pollerReplicas(config)), new ReplicaRing(redis, redisKeys.pollerReplicas(config))];
  for (const ring of rings) await ring.start();
  assert.deepEqual([...(await rings[0]!.beat())].sort(), rings.map((r) => r.replicaId).sort(), "MULTI: heartbeat and a view of both replicas");
  for (const ring of rings) await ring.stop();

  // pub/sub: a sender's wish for a session reaches the other sender; a key revoked on one API replica leaves the other's cache
  const [publisher, subscriberA, subscriberB, subscriberC] = [connect(), connect("worker"), connect("worker"), connect("worker")];
  const wanted = [
    new RedisSessionWantedSignal(publisher, subscriberA, redisKeys.smtpSessionWantedChannel(config)),
    new RedisSessionWantedSignal(publisher, subscriberB, redisKeys.smtpSessionWantedChannel(config)),
  ];
  let heard: string | undefined;
  wanted[1]!.onWanted((accountId) => (heard = accountId));
  // announced until heard: the subscription is taken asynchronously, and a hint sent before it is lost by design
  assert.equal(await waitFor(() => (wanted[0]!.announce(account), heard), { what: "the session wish", intervalMs: 100 }), account);
  const caches = [subscriberB, subscriberC].map((subscriber) => new ApiKeyCache(redisKeys.apiKeyEventsChannel(config), publisher, subscriber, logger));
  const auth = { accountId: account } as never;
  await waitFor(
    async () => {
      caches[1]!.set("hash-1", auth);
      await caches[0]!.revoke("hash-1");
      await new Promise((resolve) => setTimeout(resolve, 100));
      return caches[1]!.get("hash-1") === undefined;
    },
    { what: "the revocation on the other replica's cache" },
  );
  for (const signal of wanted) await signal.close();
});

async function start(app: AppDir, extra: Record<string, string> = {}): Promise<AppProcess> {
  const started = await startAppProcess(app, { env: { ...env, ...extra }, timeoutMs: 120_000 });
  processes.push(started);
  return started;
}

test("every app as a process on the cluster: a campaign sent, its webhooks delivered, a reply detected, a revocation broadcast, the queues listed", { skip, timeout: 300_000 }, async () => {
  const metricsPort = await findFreePort();
  // a few at a time: tsx compiling six processes at once starves a small machine
  const [api1, api2] = await Promise.all([start("api", { METRICS_PORT: String(metricsPort) }), start("api")]);
  await Promise.all([start("dispatcher"), start("sender")]);
  await Promise.all([start("imap-poller"), start("webhook-deliverer")]);
  for (const app of processes) {
    const ready = await fetch(`${app.baseUrl}/readyz`);
    assert.equal(ready.status, 200, `${app.app} /readyz`);
    assert.equal(((await ready.json()) as { checks: Record<string, string> }).checks.redis, "ok", app.app);
  }
  const call = (api: AppProcess, method: string, path: string, token?: string, body?: unknown) => apiRequest(api.baseUrl, method, path, { token, body });

  const signup = await call(api1!, "POST", "/signup", undefined, { email: "owner@cluster.test" });
  assert.equal(signup.status, 201, signup.text);
  const token = signup.body.api_key.plaintext as string;
  assert.equal((await call(api1!, "POST", "/webhooks", token, { url: receiver.url })).status, 201);
  const imported = await call(api1!, "POST", "/contact_imports", token, { contacts: ["ann", "bob"].map((name) => ({ email: `${name}@example.com`, first_name: name })) });
  const campaign = await call(api1!, "POST", "/campaigns", token, {
    campaign: {
      name: "Cluster",
      min_wait_seconds: 0,
      max_wait_seconds: 0,
      smtp_credentials: [
        {
          label: "main",
          from_email: INBOX,
          smtp_host: smtp.host,
          smtp_port: smtp.port,
          smtp_secure: false,
          smtp_username: INBOX,
          smtp_password: "pw",
          daily_limit: 100,
          imap_host: dovecot.host,
          imap_port: dovecot.port,
          imap_secure: false,
          imap_username: INBOX,
          imap_password: INBOX_PASSWORD,
        },
      ],
      sequence_steps: [{ position: 1, subject: "Hello {{first_name}}", body_html: "<p>Hi {{first_name}}</p>", delay_minutes: 0 }],
    },
  });
  assert.equal(campaign.status, 201, campaign.text);
  const campaignId = campaign.body.id as string;
  assert.equal((await call(api2!, "POST", `/campaigns/${campaignId}/enroll`, token, { contact_import_id: imported.body.id })).body.enrolled, 2);
  const dispatched = await call(api2!, "POST", `/campaigns/${campaignId}/dispatch`, token, {});
  assert.equal(dispatched.status, 200, dispatched.text);

  const sent = await waitFor(() => (smtp.messagesTo("ann@example.com").length && smtp.messagesTo("bob@example.com").length ? smtp.messages.filter((m) => m.username === INBOX) : undefined), {
    timeoutMs: 60_000,
    what: "both emails at the SMTP server",
  });
  assert.equal(sent.length, 2, "each sent once");
  const eventsOf = (type: string) => receiver.requests.filter((r) => r.body?.type === type);
  await waitFor(() => eventsOf("enrollment.sent").length >= 2, { timeoutMs: 30_000, what: "the enrollment.sent webhooks" });

  // a test send: the allowance script in the api, the shared test-send queue and its per-account slot in the sender
  const tested = await call(api1!, "POST", `/campaigns/${campaignId}/test_send`, token, { emails: ["qa@cluster.test"] });
  assert.equal(tested.status, 200, tested.text);
  assert.equal(tested.body.allowance.remaining, tested.body.allowance.limit - 1);
  await waitFor(() => smtp.messagesTo("qa@cluster.test").length === 1, { timeoutMs: 30_000, what: "the test email" });

  const ann = smtp.messagesTo("ann@example.com")[0]!;
  const reply = [
    "From: ann@example.com",
    `To: ${INBOX}`,
    `Subject: Re: ${ann.parsed.subject}`,
    `Date: ${new Date().toUTCString()}`,
    "Message-ID: <reply-from-ann@example.com>",
    `In-Reply-To: ${ann.parsed.messageId}`,
    `References: ${ann.parsed.messageId}`,
    "Content-Type: text/plain; charset=utf-8",
    "",
    "Tell me more.",
    "",
  ].join("\r\n");
  await dovecot.appendMessage(INBOX, reply);
  const replies = await waitFor(async () => ((await call(api2!, "GET", "/replies", token)).body as unknown[]).length > 0 && (await call(api2!, "GET", "/replies", token)).body, {
    timeoutMs: 60_000,
    what: "the reply detected by the poller",
  });
  assert.equal((replies as unknown[]).length, 1);
  await waitFor(() => eventsOf("enrollment.replied").length >= 1, { timeoutMs: 30_000, what: "the enrollment.replied webhook" });

  // a key revoked through one API replica stops working on the other at once (pub/sub), well within the cache's 10 s
  const second = await call(api1!, "POST", "/api_keys", token, { label: "second" });
  assert.equal(second.status, 201, second.text);
  assert.equal((await call(api2!, "GET", "/campaigns", second.body.plaintext)).status, 200, "cached on api 2");
  assert.equal((await call(api1!, "DELETE", `/api_keys/${second.body.id}`, token)).status, 200);
  const revokedAt = Date.now();
  await waitFor(async () => (await call(api2!, "GET", "/campaigns", second.body.plaintext)).status === 401, { timeoutMs: 5_000, what: "the revocation on api 2" });
  assert.ok(Date.now() - revokedAt < 5_000);

  // a shard left behind by a sender gone from the registry is found only by scanning the masters
  const leftover = new TypedQueue("send-email", config, connect(), "sender-gone");
  await leftover.add({ accountId: signup.body.account_id, stepSendId: "6f1c2a7e-0000-4000-8000-0000000000c2" }, { jobId: "left-behind" });
  await leftover.close();
  const board = await fetch(`http://127.0.0.1:${metricsPort}/admin/queues/api/queues`, { headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } });
  assert.equal(board.status, 200);
  const names = ((await board.json()) as { queues: Array<{ name: string }> }).queues.map((q) => q.name);
  for (const name of ["campaign-dispatch", "send-email", "test-send", "categorize-reply"]) assert.ok(names.includes(name), `${name} on the board`);
  assert.ok(
    names.some((name) => name.startsWith("send-email.") && name !== "send-email.sender-gone"),
    `the running sender's own queue: ${names.join(", ")}`,
  );
  assert.ok(names.includes("send-email.sender-gone"), `the leftover shard, found by SCAN on the cluster: ${names.join(", ")}`);

  // every key of the deployment, ours and BullMQ's, in the one slot of its hash tag
  const ports = new Set<number>();
  let keys = 0;
  const scanner = connect();
  await pingRedis(scanner, 10_000);
  for (const node of keyspaceNodes(scanner)) {
    let cursor = "0";
    do {
      const [next, found] = await node.scan(cursor, "MATCH", `${config.queuePrefix}*`, "COUNT", 1000);
      for (const _ of found) {
        keys++;
        ports.add(node.options.port!);
      }
      cursor = next;
    } while (cursor !== "0");
  }
  assert.ok(keys > 10, `${keys} keys`);
  assert.deepEqual([...ports], [await cluster.portOfKey(`${config.queuePrefix}:x`)]);

  const codes = await Promise.all(processes.map((app) => app.stop("SIGTERM")));
  assert.deepEqual(
    codes,
    processes.map(() => 0),
    processes.map((app) => `--- ${app.app}\n${app.output().slice(-3_000)}`).join("\n"),
  );
});
