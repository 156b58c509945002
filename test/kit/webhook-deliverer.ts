import { Keyring, loadConfig, randomToken, type Config, type EventDataByType, type EventType } from "@outreach/core";
import type { Db } from "@outreach/db";
import { recordEvent } from "@outreach/domain";
import { startWorker } from "@outreach/runtime";
import { createTestDatabase, findFreePort, uniqueQueuePrefix, type TestDatabase, sealedWebhookSecret } from "@outreach/testing";
import { webhookDelivererWorker } from "../../apps/webhook-deliverer/src/worker.js";

export interface Deliverer {
  db: Db;
  database: TestDatabase;
  config: Config;
  /** env the deliverer runs with (to start more processes of it) */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/** The real webhook-deliverer in-process, with its own database and queue prefix; loopback receivers allowed. */
export async function startDeliverer(env: Record<string, string> = {}, database?: TestDatabase): Promise<Deliverer> {
  const db = database ?? (await createTestDatabase());
  const base = {
    DATABASE_URL: db.url,
    QUEUE_PREFIX: uniqueQueuePrefix(),
    LOG_LEVEL: "error",
    WEBHOOK_ALLOW_PRIVATE_URLS: "true",
    WEBHOOK_RETRY_BASE_MS: "50",
    // generous: under a loaded CI machine a loopback answer must not time out (tests of timeouts set their own)
    WEBHOOK_TIMEOUT_MS: "10000",
    ...env,
  };
  const config = loadConfig("webhook-deliverer", { ...base, HEALTH_PORT: String(await findFreePort()) });
  const worker = await startWorker(webhookDelivererWorker, config);
  return {
    db: db.db,
    database: db,
    config,
    env: base,
    async stop() {
      await worker.close();
      if (!database) await db.drop();
    },
  };
}

export async function createAccount(db: Db): Promise<string> {
  const plan = await db.plan.findUniqueOrThrow({ where: { slug: "free" } });
  const now = new Date();
  const account = await db.account.create({
    data: { email: `acct-${randomToken(6)}@example.test`, planId: plan.id, currentPeriodStart: now, currentPeriodEnd: new Date(now.getTime() + 30 * 86_400_000) },
  });
  return account.id;
}

/** A webhook row as POST /webhooks makes it; answers its id and plaintext secret. */
export async function createWebhook(db: Db, config: Config, accountId: string, url: string, eventFilters: string[] = ["*"]): Promise<{ id: string; secret: string }> {
  const secret = `whsec_${randomToken(24)}`;
  const webhook = await db.webhook.create({ data: { accountId, url, eventFilters, ...sealedWebhookSecret(Keyring.fromConfig(config), secret) } });
  return { id: webhook.id, secret };
}

export function sentData(campaignId = "00000000-0000-4000-8000-000000000001"): EventDataByType["enrollment.sent"] {
  return {
    enrollment_id: "00000000-0000-4000-8000-00000000000e",
    contact_id: "00000000-0000-4000-8000-00000000000c",
    contact_email: "reader@example.com",
    campaign_id: campaignId,
    status: "sent",
    sent_at: new Date().toISOString(),
    replied_at: null,
    bounce_reason: null,
    variant_id: null,
  };
}

/** An event written to the outbox in its own transaction, as the engine does; answers its id. */
export async function emitEvent<T extends EventType>(db: Db, accountId: string, type: T, data: EventDataByType[T]): Promise<string> {
  return db.$transaction((tx) => recordEvent(tx, accountId, type, data));
}
