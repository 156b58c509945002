import { after, before } from "node:test";
import Stripe from "stripe";
import type { EventDataByType, EventType } from "@outreach/core";
import type { Db } from "@outreach/db";
import { startWebhookReceiver, waitFor, type WebhookReceiver as Receiver } from "@outreach/testing";
import { createAccount, createWebhook, startDeliverer, type Deliverer } from "../../../test/kit/webhook-deliverer.js";

export { startDeliverer, createAccount, createWebhook, sentData, emitEvent, type Deliverer } from "../../../test/kit/webhook-deliverer.js";
export type { ReceivedRequest, ReceiverAnswer as Answer, WebhookReceiver as Receiver } from "@outreach/testing";

/** A webhook receiver on loopback (see startWebhookReceiver). */
export async function startReceiver(path = "/hook", port = 0): Promise<Receiver> {
  return startWebhookReceiver({ path, port });
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
      bounce_reason: '550 5.1.1 <ana.lima+outreach@example.com>: Recipient address rejected: "unknown" user – ünïcödé',
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
    "reply.categorized": {
      reply_id: "6f1d7a52-3f4b-4a8e-9a55-0c1de1b0a005",
      ...enrollment,
      category: "out_of_office",
      category_source: "rules",
      previous_category: null,
      categorized_at: "2026-11-21T08:00:00.000Z",
    },
    "credential.auth_failed": {
      credential_id: "6f1d7a52-3f4b-4a8e-9a55-0c1de1b0a004",
      campaign_id: enrollment.campaign_id,
      from_email: "sales@example.com",
      provider: "google",
      reason: "Google refused the refresh token (invalid_grant): reconnect the mailbox",
    },
    "credential.paused": {
      credential_id: "6f1d7a52-3f4b-4a8e-9a55-0c1de1b0a004",
      campaign_id: enrollment.campaign_id,
      from_email: "sales@example.com",
      paused_until: "2026-11-22T08:00:00.000Z",
      reason: "bounce spike: 3 bounces of 20 sends in 24 h (15%, half the threshold is 12.5%)",
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
    () => db.webhookDelivery.findFirst({ where: { webhookId, eventId, state: { not: "pending" } }, include: { attemptLog: { orderBy: { number: "asc" } } } }).then((delivery) => delivery ?? undefined),
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

/**
 * The deliverer for one test file: started before its tests and stopped after
 * them (call it after the file's receiverPool, so that its receivers close first).
 * The answer is filled in by the before hook, so read it inside tests.
 */
export function delivererForFile(env: Record<string, string> = {}): Deliverer {
  const deliverer = {} as Deliverer;
  before(async () => {
    Object.assign(deliverer, await startDeliverer(env));
  });
  after(async () => {
    await deliverer.stop?.();
  });
  return deliverer;
}

/** Fresh accounts, one per URL, then a webhook ("*") of each to its URL; answers the account ids in order. */
export async function accountsWithWebhooks<const U extends readonly string[]>(deliverer: Deliverer, urls: U): Promise<{ [K in keyof U]: string }> {
  const accountIds: string[] = [];
  for (let i = 0; i < urls.length; i++) accountIds.push(await createAccount(deliverer.db));
  for (const [i, url] of urls.entries()) await createWebhook(deliverer.db, deliverer.config, accountIds[i]!, url);
  return accountIds as { [K in keyof U]: string };
}
