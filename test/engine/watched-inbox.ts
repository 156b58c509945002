import { Keyring, loadConfig } from "@outreach/core";
import { startWorker } from "@outreach/runtime";
import { after, before } from "node:test";
import { findFreePort, LOOPBACK_MAIL_ENV, sealedCredentialSecrets, startImapServer, type ImapTestServer } from "@outreach/testing";
import { imapPollerWorker } from "../../apps/imap-poller/src/worker.js";
import { startEngineApi, type EngineApi } from "./engine-api.js";
import { startEngine, type Engine } from "./harness.js";

export const IMAP_PASSWORD = "imap-secret";

/** The real imap-poller in-process, on the engine's database and queues. */
export async function startPoller(engine: Engine, env: Record<string, string> = {}): Promise<Awaited<ReturnType<typeof startWorker>>> {
  const { databaseUrl, queuePrefix } = engine.config;
  return startWorker(
    imapPollerWorker,
    loadConfig("imap-poller", { DATABASE_URL: databaseUrl, QUEUE_PREFIX: queuePrefix, LOG_LEVEL: "error", HEALTH_PORT: String(await findFreePort()), ...LOOPBACK_MAIL_ENV, ...env }),
  );
}

/** An inbox of the campaign sending to the engine's SMTP test server and watched on the IMAP test server (its IMAP user is created). */
export async function addWatchedInbox(engine: Engine, imap: ImapTestServer, accountId: string, campaignId: string, inbox: string, fromName?: string) {
  const keyring = Keyring.fromConfig(engine.config);
  await imap.addUser(inbox, IMAP_PASSWORD);
  return engine.db.smtpCredential.create({
    data: {
      accountId,
      campaignId,
      label: "Inbox",
      fromEmail: inbox,
      fromName: fromName ?? null,
      smtpHost: engine.smtp.host,
      smtpPort: engine.smtp.port,
      smtpSecure: false,
      smtpUsername: inbox,
      ...sealedCredentialSecrets(keyring, "secret", IMAP_PASSWORD),
      dailyLimit: 100,
      imapHost: imap.host,
      imapPort: imap.port,
      imapSecure: false,
      imapUsername: inbox,
    },
  });
}

export interface MailEngine {
  engine: Engine;
  imap: ImapTestServer;
  api: EngineApi;
}

/**
 * The engine (dispatcher, sender, SMTP test server), the API, the IMAP test
 * server and the poller for one test file: started before its tests and
 * stopped after them. The answer is filled in by the before hook, so read it
 * inside tests.
 */
export function mailEngineForFile(): MailEngine {
  const env = {} as MailEngine;
  let poller: Awaited<ReturnType<typeof startPoller>> | undefined;
  before(async () => {
    env.engine = await startEngine();
    env.imap = await startImapServer();
    env.api = await startEngineApi(env.engine);
    poller = await startPoller(env.engine);
  });
  after(async () => {
    await poller?.close();
    await env.api?.close();
    await env.engine?.stop();
    await env.imap?.close();
  });
  return env;
}
