import { after } from "node:test";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import { Keyring, loadConfig, randomToken, type Config, type EventDataByType, type EventType } from "@outreach/core";
import type { Db } from "@outreach/db";
import { recordEvent } from "@outreach/domain";
import { startWorker } from "@outreach/runtime";
import { createTestDatabase, findFreePort, uniqueQueuePrefix, waitFor, type TestDatabase, sealedWebhookSecret } from "@outreach/testing";
import { webhookDelivererWorker } from "../src/worker.js";

/** A request a receiver got: headers and the raw body exactly as sent. */
export interface ReceivedRequest {
  headers: IncomingMessage["headers"];
  raw: Buffer;
  body: any;
  at: number;
}

/** How the receiver answers: a status (and headers), never (hang), or by closing the connection without an answer (drop). */
export type Answer = { status: number; headers?: Record<string, string>; body?: string; delayMs?: number } | "hang" | "drop";

/**
 * A real HTTP receiver on loopback. `answers` is consumed in order, one per
 * request; when it is empty, `fallback` answers.
 */
export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  answers: Answer[];
  fallback: Answer;
  /** requests being answered right now, and the most there were at once */
  inFlight: number;
  maxInFlight: number;
  close(): Promise<void>;
}

export async function startReceiver(path = "/hook", port = 0): Promise<Receiver> {
  const hanging = new Set<ServerResponse>();
  const receiver: Receiver = { url: "", requests: [], answers: [], fallback: { status: 200 }, inFlight: 0, maxInFlight: 0, close: async () => undefined };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const raw = Buffer.concat(chunks);
      let body: unknown = null;
      try {
        body = JSON.parse(raw.toString("utf8"));
      } catch {
        body = null;
      }
      receiver.requests.push({ headers: req.headers, raw, body, at: Date.now() });
      const answer = receiver.answers.shift() ?? receiver.fallback;
      if (answer === "hang") {
        hanging.add(res);
        return;
      }
      if (answer === "drop") {
        req.socket.destroy();
        return;
      }
      receiver.inFlight += 1;
      receiver.maxInFlight = Math.max(receiver.maxInFlight, receiver.inFlight);
      setTimeout(() => {
        receiver.inFlight -= 1;
        res.writeHead(answer.status, { "content-type": "text/plain", ...answer.headers });
        res.end(answer.body ?? "ok");
      }, answer.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  receiver.close = async () => {
    for (const res of hanging) res.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return receiver;
}

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

/** Every event type with realistic data, as the engine writes them. */
export function sampleEvents(): { [T in EventType]: EventDataByType[T] } {
  const enrollment = {
    enrollment_id: "6f1d7a52-3f4b-4a8e-9a55-0c1de1b0a001",
    contact_id: "6f1d7a52-3f4b-4a8e-9a55-0c1de1b0a002",
    contact_email: "ana.lima+outreach@example.com",
    campaign_id: "6f1d7a52-3f4b-4a8e-9a55-0c1de1b0a003",
  };
  return {
    "enrollment.sent": { ...enrollment, status: "sent", sent_at: "2026-11-20T09:15:02.123Z", replied_at: null, bounce_reason: null, variant_id: null },
    "enrollment.opened": { ...enrollment, status: "opened", sent_at: "2026-11-20T09:15:02.123Z", replied_at: null, bounce_reason: null, variant_id: null },
    "enrollment.replied": { ...enrollment, status: "replied", sent_at: "2026-11-20T09:15:02.123Z", replied_at: "2026-11-21T14:03:59.000Z", bounce_reason: null, variant_id: null },
    "enrollment.bounced": {
      ...enrollment,
      status: "bounced",
      sent_at: "2026-11-20T09:15:02.123Z",
      replied_at: null,
      bounce_reason: "550 5.1.1 <ana.lima+outreach@example.com>: Recipient address rejected: \"unknown\" user – ünïcödé",
    },
    "enrollment.unsubscribed": { ...enrollment, unsubscribed_at: "2026-11-22T18:00:00.000Z" },
    "credential.disabled": { credential_id: "6f1d7a52-3f4b-4a8e-9a55-0c1de1b0a004", from_email: "sales@example.com", campaign_id: enrollment.campaign_id, bounce_rate: 12.5, threshold: 5 },
    "campaign.paused": { campaign_id: enrollment.campaign_id, name: "Q4 outreach — EMEA 🚀", reason: "all_credentials_disabled" },
    "enrollment.clicked": {
      ...enrollment,
      status: "opened",
      sent_at: "2026-11-20T09:15:02.123Z",
      replied_at: null,
      bounce_reason: null,
      variant_id: null,
      url: "https://example.com/pricing?utm_source=outreach",
      clicked_at: "2026-11-20T10:01:00.000Z",
    },
  };
}

/**
 * Verifies a delivery the way a receiver would, with an implementation that is
 * not ours (stripe-node's constructEvent: same t=,v1= scheme, 300 s
 * tolerance) over the exact bytes received; throws when it does not verify.
 */
export function verifyWithStripe(raw: Buffer, header: string, secret: string): unknown {
  return stripe.webhooks.constructEvent(raw, header, secret);
}
const stripe = new Stripe("sk_test_not_used_for_requests");

/** The v1 values of a signature header, in order. */
export function v1Values(header: string): string[] {
  return header
    .split(",")
    .filter((part) => part.startsWith("v1="))
    .map((part) => part.slice(3));
}

/** Waits until the event has been fanned out (its deliveries exist, if any). */
export async function waitForRelay(db: Db, eventId: string, timeoutMs = 20_000): Promise<void> {
  await waitFor(async () => (await db.event.findUniqueOrThrow({ where: { id: eventId } })).dispatchedAt !== null, { timeoutMs, what: `event ${eventId} relayed` });
}

/** Waits until the delivery of an event to a webhook has ended (not pending) and returns it with its attempts in order. */
export async function waitForOutcome(db: Db, webhookId: string, eventId: string, timeoutMs = 30_000) {
  return waitFor(
    () =>
      db.webhookDelivery
        .findFirst({ where: { webhookId, eventId, state: { not: "pending" } }, include: { attemptLog: { orderBy: { number: "asc" } } } })
        .then((delivery) => delivery ?? undefined),
    { timeoutMs, what: `delivery of ${eventId} to ${webhookId} to end` },
  );
}

export { waitFor };

/** A file's receivers: `receiver()` starts one, closed after the file's tests. */
export function receiverPool(): () => Promise<Receiver> {
  const started: Receiver[] = [];
  after(async () => {
    for (const r of started) await r.close();
  });
  return async () => {
    const receiver = await startReceiver();
    started.push(receiver);
    return receiver;
  };
}
