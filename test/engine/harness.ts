import { Keyring, loadConfig, TypedQueue, createRedis, type Config, type KeySource } from "@outreach/core";
import { executor, type Db } from "@outreach/db";
import { startWorker } from "@outreach/runtime";
import {
  createTestDatabase,
  findFreePort,
  LOOPBACK_MAIL_ENV,
  startAppProcess,
  startSmtpServer,
  uniqueQueuePrefix,
  waitFor,
  type AppProcess,
  type SmtpTestServer,
  type TestDatabase,
  sealedCredentialSecrets,
} from "@outreach/testing";
import { dispatcherWorker } from "../../apps/dispatcher/src/worker.js";
import { senderWorker } from "../../apps/sender/src/worker.js";

export interface Engine {
  db: Db;
  /** the apps' HEALTH_PORTs (/healthz, /readyz, /metrics) */
  healthPorts: { dispatcher: number; sender: number };
  database: TestDatabase;
  smtp: SmtpTestServer;
  config: Config;
  dispatch(accountId: string, campaignId: string, batchNumber?: number): Promise<void>;
  stop(): Promise<void>;
}

type EnvOf = Record<string, string> | ((database: TestDatabase) => Record<string, string> | Promise<Record<string, string>>);

/**
 * The real dispatcher and sender apps in-process, with their own database, queue prefix and SMTP server.
 * `env` may be a function of the database (e.g. a DATABASE_URL through a pooler in front of it);
 * `senderEnv` applies to the sender only (e.g. its DATABASE_URL through a proxy that a test cuts).
 */
export async function startEngine(env: EnvOf = {}, options: { senderEnv?: EnvOf } = {}): Promise<Engine> {
  const database = await createTestDatabase();
  const smtp = await startSmtpServer();
  const envOf = async (e: EnvOf | undefined) => (typeof e === "function" ? await e(database) : (e ?? {}));
  const base = { DATABASE_URL: database.url, QUEUE_PREFIX: uniqueQueuePrefix(), PUBLIC_BASE_URL: "http://outreach.test", LOG_LEVEL: "error", ...LOOPBACK_MAIL_ENV, ...(await envOf(env)) };
  const config = loadConfig("sender", { ...base, ...(await envOf(options.senderEnv)), HEALTH_PORT: String(await findFreePort()) });
  const dispatcherConfig = loadConfig("dispatcher", { ...base, HEALTH_PORT: String(await findFreePort()) });
  const dispatcher = await startWorker(dispatcherWorker, dispatcherConfig);
  const sender = await startWorker(senderWorker, config);
  const producer = createRedis(config, "producer");
  const dispatchQueue = new TypedQueue("campaign-dispatch", config, producer);
  return {
    db: database.db,
    healthPorts: { dispatcher: dispatcherConfig.healthPort, sender: config.healthPort },
    database,
    smtp,
    config,
    async dispatch(accountId, campaignId, batchNumber = 1) {
      await database.db.campaign.update({ where: { id: campaignId }, data: { status: "active" } });
      await dispatchQueue.add({ accountId, campaignId, batchNumber });
    },
    async stop() {
      await dispatchQueue.close();
      await producer.quit();
      await Promise.all([dispatcher.close(), sender.close()]);
      await smtp.close();
      await database.drop();
    },
  };
}

export interface ProcessEngine {
  database: TestDatabase;
  smtp: SmtpTestServer;
  config: Config;
  dispatchQueue: TypedQueue<"campaign-dispatch">;
  dispatcher: AppProcess;
  senders: AppProcess[];
  stop(): Promise<void>;
}

/**
 * One dispatcher and two sender processes (separate processes, as in a deployment)
 * against one SMTP server whose replies take 20 ms, so sessions stay open and due
 * sends compete for them.
 */
export async function startEngineProcesses(env: Record<string, string> = {}): Promise<ProcessEngine> {
  const database = await createTestDatabase();
  const smtp = await startSmtpServer({ latencyMs: 20 });
  const all = { DATABASE_URL: database.url, QUEUE_PREFIX: uniqueQueuePrefix(), PUBLIC_BASE_URL: "http://outreach.test", LOG_LEVEL: "error", ...LOOPBACK_MAIL_ENV, ...env };
  const config = loadConfig("sender", all);
  const processes = await Promise.all([startAppProcess("dispatcher", { env: all }), startAppProcess("sender", { env: all }), startAppProcess("sender", { env: all })]);
  const [dispatcher, ...senders] = processes;
  const producer = createRedis(config, "producer");
  const dispatchQueue = new TypedQueue("campaign-dispatch", config, producer);
  return {
    database,
    smtp,
    config,
    dispatchQueue,
    dispatcher: dispatcher!,
    senders,
    async stop() {
      await dispatchQueue.close();
      await producer.quit();
      await Promise.all(processes.map((p) => p.stop()));
      await smtp.close();
      await database.drop();
    },
  };
}

export interface SeedOptions {
  plan?: string;
  credentials?: Array<{ username: string; dailyLimit: number; fromEmail?: string }>;
  steps?: Array<{ subject: string; bodyHtml?: string; delayMinutes?: number }>;
  contacts?: number | string[];
  minWait?: number;
  maxWait?: number;
  verifyEmailMx?: boolean;
  bounceRateThreshold?: number;
  batchNumber?: number;
}

/** An account with one campaign, its credentials pointing at the test SMTP server, and pending enrollments. */
export async function seedCampaign(engine: Engine, options: SeedOptions = {}) {
  const { db, smtp, config } = engine;
  const plan = await db.plan.findUniqueOrThrow({ where: { slug: options.plan ?? "scale" } });
  const now = new Date();
  const account = await db.account.create({
    data: { email: `acct-${Math.random().toString(36).slice(2)}@example.test`, planId: plan.id, currentPeriodStart: now, currentPeriodEnd: new Date(now.getTime() + 30 * 86_400_000) },
  });
  const credentials = options.credentials ?? [{ username: "inbox-a", dailyLimit: 1000 }];
  const campaign = await db.campaign.create({
    data: {
      accountId: account.id,
      name: "Engine test",
      minWaitSeconds: options.minWait ?? 0,
      maxWaitSeconds: options.maxWait ?? 0,
      verifyEmailMx: options.verifyEmailMx ?? false,
      bounceRateThreshold: options.bounceRateThreshold ?? 8,
      steps: {
        create: (options.steps ?? [{ subject: "Hello {{first_name}}" }]).map((s, i) => ({
          position: i + 1,
          subject: s.subject,
          bodyHtml: s.bodyHtml ?? `<p>Step ${i + 1} for {{first_name}}</p>`,
          delayMinutes: s.delayMinutes ?? 0,
        })),
      },
    },
  });
  for (const [i, c] of credentials.entries()) {
    await db.smtpCredential.create({
      data: {
        accountId: account.id,
        campaignId: campaign.id,
        label: c.username,
        fromEmail: c.fromEmail ?? `${c.username}@sender.test`,
        smtpHost: smtp.host,
        smtpPort: smtp.port,
        smtpSecure: false,
        smtpUsername: c.username,
        ...sealedCredentialSecrets(Keyring.fromConfig(config), "secret"),
        dailyLimit: c.dailyLimit,
        createdAt: new Date(now.getTime() + i),
      },
    });
  }
  const emails = Array.isArray(options.contacts) ? options.contacts : Array.from({ length: options.contacts ?? 3 }, (_, i) => `contact${i + 1}@example.com`);
  const contacts = [];
  for (const [i, email] of emails.entries()) {
    const contact = await db.contact.create({ data: { accountId: account.id, email, firstName: `First${i + 1}` } });
    contacts.push(contact);
    await db.enrollment.create({ data: { accountId: account.id, campaignId: campaign.id, contactId: contact.id, batchNumber: options.batchNumber ?? 1, createdAt: new Date(now.getTime() + i) } });
  }
  return { account, campaign, contacts };
}

/** One credential per username on the campaign, each pointing at the test SMTP server with the password "pw". */
export async function createInboxes(
  db: Db,
  target: { accountId: string; campaignId: string; smtp: Pick<SmtpTestServer, "host" | "port">; keys: KeySource },
  usernames: readonly string[],
  dailyLimit: number,
): Promise<void> {
  for (const username of usernames) {
    await db.smtpCredential.create({
      data: {
        accountId: target.accountId,
        campaignId: target.campaignId,
        label: username,
        fromEmail: `${username}@sender.test`,
        smtpHost: target.smtp.host,
        smtpPort: target.smtp.port,
        smtpUsername: username,
        ...sealedCredentialSecrets(target.keys, "pw"),
        dailyLimit,
      },
    });
  }
}

/** n more contacts enrolled in the campaign, written with one statement each (for big batches). */
export async function enrollMany(db: Db, accountId: string, campaignId: string, n: number, prefix = "bulk", batchNumber = 1): Promise<void> {
  await executor(db).execute(
    `
    INSERT INTO contacts (id, "accountId", email, "firstName", "updatedAt")
    SELECT gen_random_uuid(), $1::uuid, $2 || '-' || g || '@example.com', 'Bulk' || g, now() FROM generate_series(1, $3) g`,
    [accountId, prefix, n],
  );
  await executor(db).execute(
    `
    INSERT INTO enrollments (id, "accountId", "campaignId", "contactId", "batchNumber", "updatedAt", "createdAt")
    SELECT gen_random_uuid(), $1::uuid, $2::uuid, c.id, $3, now(), c."createdAt"
    FROM contacts c WHERE c."accountId" = $4::uuid AND c.email LIKE $5`,
    [accountId, campaignId, batchNumber, accountId, prefix + "-%"],
  );
}

export async function eventsOf(db: Db, accountId: string, type?: string) {
  return db.event.findMany({ where: { accountId, ...(type ? { type } : {}) }, orderBy: { createdAt: "asc" } });
}

export { waitFor };
