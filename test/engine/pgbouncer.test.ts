import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createLogger, loadConfig } from "@outreach/core";
import { createDbClient, dbClientOptions, executor, fromPg, isDatabaseBusyError, poolOf, type Db, type PrismaQueryable } from "@outreach/db";
import { createTestDatabase, pgbouncerUnavailableReason, skipWithoutSystemServer, startPgBouncer, startWebhookReceiver, waitFor, type PgBouncerTestServer, type TestDatabase } from "@outreach/testing";
import { OutboxRelay } from "../../apps/webhook-deliverer/src/outbox-relay.js";
import { PgListener } from "../../apps/webhook-deliverer/src/pg-listener.js";
import { createAccount, createWebhook, emitEvent, sentData, startDeliverer } from "../kit/webhook-deliverer.js";
import { eventsOf, seedCampaign, startEngine, type Engine } from "./harness.js";

// The apps through a real PgBouncer in transaction pooling mode (Debian's 1.18,
// installed by .ci/install-test-servers.sh; without it these tests skip, saying why, and
// under CI they fail):
// the engine sends, the webhook-deliverer delivers and is woken by NOTIFY over its
// direct connection, and the connection timeouts hold although PgBouncer refuses
// them as startup parameters.
let bouncer: PgBouncerTestServer;
let engine: Engine;
const logger = createLogger({ service: "test", level: "error" });

/** What a deployment behind PgBouncer sets: the pooled URL, the direct one, settings per transaction. */
const pooledEnv = (database: TestDatabase): Record<string, string> => ({
  DATABASE_URL: bouncer.urlFor(database.url),
  DATABASE_DIRECT_URL: database.url,
  DATABASE_TRANSACTION_POOLING: "true",
});
/** Small timeouts, to see them act. */
const SHORT_TIMEOUTS = { DATABASE_STATEMENT_TIMEOUT_MS: "1500", DATABASE_LOCK_TIMEOUT_MS: "300", DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: "20500" };

/** A client made the way every app makes its own, from the pooled configuration. */
function pooledClient(database: TestDatabase, env: Record<string, string> = {}): { db: Db; config: ReturnType<typeof loadConfig> } {
  const config = loadConfig("api", { ...pooledEnv(database), ...env });
  return { db: createDbClient(config.databaseUrl, dbClientOptions(config)), config };
}

const skip = skipWithoutSystemServer("PgBouncer", pgbouncerUnavailableReason());

before(async () => {
  if (skip) return;
  bouncer = await startPgBouncer({ defaultPoolSize: 4 });
  engine = await startEngine(pooledEnv);
});

after(async () => {
  await engine?.stop();
  await bouncer?.close();
});

test("dispatch -> send -> sent rows and emails received, the dispatcher and sender connected through PgBouncer", { skip }, async () => {
  assert.equal(new URL(engine.config.databaseUrl).port, String(bouncer.port), "the apps' DATABASE_URL is PgBouncer's");
  const before = await bouncer.transactionsServed(engine.database.name);
  const { account, campaign, contacts } = await seedCampaign(engine, {
    credentials: [{ username: "pooled", dailyLimit: 100 }],
    steps: [{ subject: "One {{first_name}}" }, { subject: "Two", delayMinutes: 0 }],
    contacts: 4,
  });
  await engine.dispatch(account.id, campaign.id);
  await waitFor(() => engine.smtp.messages.filter((m) => m.username === "pooled").length === 8, { timeoutMs: 30_000, what: "both steps to four contacts" });
  const rows = await waitFor(
    async () => {
      const found = await engine.db.stepSend.findMany({ where: { campaignId: campaign.id } });
      return found.length === 8 && found.every((r) => r.state === "sent") ? found : undefined;
    },
    { timeoutMs: 30_000, what: "eight sends recorded" },
  );
  assert.equal(new Set(rows.map((r) => r.messageId)).size, 8);
  for (const contact of contacts) assert.equal(engine.smtp.messagesTo(contact.email).length, 2, `${contact.email}: each step once`);
  assert.equal((await eventsOf(engine.db, account.id, "enrollment.sent")).length, 8, "one per step sent");
  await waitFor(async () => (await bouncer.transactionsServed(engine.database.name)) > before, { timeoutMs: 10_000, what: "PgBouncer's statistics to count the apps' transactions" });
});

test("the timeouts hold through PgBouncer: in transactions and alone, a busy lock and a long statement are refused fast", { skip }, async () => {
  const { db, config } = pooledClient(engine.database, SHORT_TIMEOUTS);
  try {
    const expected = [`${config.database.statementTimeoutMs}ms`, `${config.database.lockTimeoutMs}ms`, `${config.database.idleInTransactionTimeoutMs}ms`];
    const settings = (q: PrismaQueryable) =>
      executor(q).rows<{ s: string; l: string; i: string }>(
        `SELECT current_setting('statement_timeout') s, current_setting('lock_timeout') l, current_setting('idle_in_transaction_session_timeout') i`,
      );
    // several rounds, so that they run on different server connections of PgBouncer's pool
    for (let round = 0; round < 6; round++) {
      const [alone] = await settings(db);
      assert.deepEqual([alone!.s, alone!.l, alone!.i], expected, "a statement outside a transaction");
      const [inside] = await db.$transaction((tx) => settings(tx));
      assert.deepEqual([inside!.s, inside!.l, inside!.i], expected, "inside a transaction");
      // the planning pool's reads before a lock: query(text, values) on the pool itself
      const [onPool] = await fromPg(poolOf(db)!).rows<{ s: string; l: string; i: string }>(
        `SELECT current_setting('statement_timeout') s, current_setting('lock_timeout') l, current_setting('idle_in_transaction_session_timeout') i`,
      );
      assert.deepEqual([onPool!.s, onPool!.l, onPool!.i], expected, "query(text, values) on the pool");
    }
    // an isolation level can still be chosen after the settings
    const [isolation] = await db.$transaction((tx) => executor(tx).rows<{ level: string }>(`SELECT current_setting('transaction_isolation') AS level`), { isolationLevel: "RepeatableRead" });
    assert.equal(isolation!.level, "repeatable read");
    // nothing is left on PgBouncer's server connections for another client: a plain client sees the server's defaults
    const plain = createDbClient(bouncer.urlFor(engine.database.url), { poolMax: 1 });
    try {
      const [other] = await settings(plain);
      assert.deepEqual([other!.s, other!.l], ["0", "0"]);
    } finally {
      await plain.$disconnect();
    }

    const { account, campaign } = await seedCampaign(engine, { contacts: 0 });
    let release!: () => void;
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    const holder = engine.db.$transaction(
      async (tx) => {
        await executor(tx).rows(`SELECT id FROM campaigns WHERE id = $1::uuid FOR UPDATE`, [campaign.id]);
        locked();
        await released;
      },
      { timeout: 60_000 },
    );
    try {
      await isLocked;
      await assert.rejects(db.campaign.update({ where: { id: campaign.id }, data: { name: "alone" } }), (err) => isDatabaseBusyError(err), "a statement alone meets lock_timeout");
      await assert.rejects(
        db.$transaction((tx) => executor(tx).rows(`SELECT id FROM campaigns WHERE id = $1::uuid AND "accountId" = $2::uuid FOR UPDATE`, [campaign.id, account.id])),
        (err) => isDatabaseBusyError(err),
        "a transaction meets lock_timeout",
      );
    } finally {
      release();
      await holder;
    }
    await assert.rejects(executor(db).rows(`SELECT pg_sleep(30)`), (err) => isDatabaseBusyError(err), "statement_timeout");
    // and the connections are fine afterwards
    assert.equal((await db.campaign.update({ where: { id: campaign.id }, data: { name: "after" } })).name, "after");
  } finally {
    await db.$disconnect();
  }
});

test("the webhook-deliverer through PgBouncer delivers events written through PgBouncer", { skip }, async () => {
  const receiver = await startWebhookReceiver();
  const deliverer = await startDeliverer(pooledEnv(engine.database), engine.database);
  const { db } = pooledClient(engine.database);
  try {
    const accountId = await createAccount(db);
    await createWebhook(db, deliverer.config, accountId, receiver.url);
    await emitEvent(db, accountId, "enrollment.sent", sentData("00000000-0000-4000-8000-0000000000b1"));
    await waitFor(() => receiver.requests.length === 1, { timeoutMs: 20_000, what: "the delivery" });
    assert.equal(receiver.requests[0]!.body.data.campaign_id, "00000000-0000-4000-8000-0000000000b1");
    const delivery = await waitFor(() => db.webhookDelivery.findFirst({ where: { accountId, state: "succeeded" } }), { what: "the delivery recorded" });
    assert.equal(delivery.accountId, accountId);
  } finally {
    await deliverer.stop();
    await db.$disconnect();
    await receiver.close();
  }
});

test("a commit through PgBouncer wakes the relay over its direct LISTEN connection", { skip }, async () => {
  const database = await createTestDatabase();
  const { db } = pooledClient(database);
  let relayed = 0;
  // polling every 10 minutes: within this test only the NOTIFY can wake it
  const relay = new OutboxRelay(db, (count) => void (relayed += count), logger, { pollMs: 600_000 });
  const listener = new PgListener(loadConfig("webhook-deliverer", pooledEnv(database)).databaseDirectUrl, { outbox_events: () => relay.wake() }, logger);
  try {
    const accountId = await createAccount(db);
    await createWebhook(db, loadConfig("webhook-deliverer", pooledEnv(database)), accountId, "http://127.0.0.1:9/unused");
    relay.start();
    await listener.start();
    for (let i = 1; i <= 3; i++) {
      const eventId = await emitEvent(db, accountId, "enrollment.sent", sentData());
      await waitFor(async () => (await db.event.findUniqueOrThrow({ where: { id: eventId } })).dispatchedAt !== null, { timeoutMs: 30_000, what: `event ${i} relayed` });
      assert.equal(relayed, i);
    }
  } finally {
    await listener.stop();
    await relay.stop();
    await db.$disconnect();
    await database.drop();
  }
});
