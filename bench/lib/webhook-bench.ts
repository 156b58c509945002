// Pieces of bench/webhooks.ts: a loopback receiver that answers 200 at once (the
// webhook receiver of @outreach/testing), the event data both the engine and the
// raw loop send, and bulk-SQL seeding of accounts, webhooks and events.
import { randomUUID } from "node:crypto";
import { Keyring, type EventData } from "@outreach/core";
import { sealedWebhookSecret, startWebhookReceiver, type ReceivedRequest, type ReceiverAnswer, type WebhookReceiver } from "@outreach/testing";
import { executor, type Db } from "@outreach/db";
import { ENCRYPTION_KEY } from "./settings.js";

/** data of an enrollment.sent event, the shape the engine emits (the raw loop sends the same). */
export function benchEventData(i: number, campaignId: string = randomUUID()): EventData<"enrollment.sent"> {
  return {
    enrollment_id: randomUUID(),
    contact_id: randomUUID(),
    contact_email: `reader-${i}@example${i % 97}.com`,
    campaign_id: campaignId,
    status: "sent",
    sent_at: new Date().toISOString(),
    replied_at: null,
    bounce_reason: null,
    variant_id: null,
  };
}

export interface BenchReceiver {
  /** one URL per port; each port is its own origin (a pool of its own at the sender) */
  urls: string[];
  readonly count: number;
  /** Date.now() of each request's end of body, in arrival order */
  readonly times: number[];
  /** requests whose envelope id came before */
  readonly duplicates: number;
  readonly bodyBytes: number[];
  /** most requests open at once, all ports together */
  readonly maxOpen: number;
  waitForCount(count: number, timeoutMs: number): Promise<void>;
  /** resolves with Date.now() of the arrival of the envelope whose data.campaign_id is this */
  arrivalOf(campaignId: string, timeoutMs: number): Promise<number>;
  reset(): void;
  close(): Promise<void>;
}

/**
 * The webhook receiver of @outreach/testing on `ports` loopback ports, answering
 * 200 at once (or after `delayMs`), keep-alive 60 s; counts what arrives, each
 * envelope parsed, across all ports. Only the latest requests are kept.
 */
export async function startBenchReceiver(ports = 1, delayMs = 0): Promise<BenchReceiver> {
  let times: number[] = [];
  let seen = new Set<string>();
  let duplicates = 0;
  let bodyBytes: number[] = [];
  let maxOpen = 0;
  let waiters: Array<{ count: number; resolve: () => void }> = [];
  const watched = new Map<string, (at: number) => void>();
  const receivers: WebhookReceiver[] = [];
  const openNow = () => receivers.reduce((sum, r) => sum + r.open, 0);
  const answer: ReceiverAnswer = { status: 200, headers: { "content-length": "2" }, body: "ok", ...(delayMs > 0 ? { delayMs } : {}) };
  const record = (request: ReceivedRequest): ReceiverAnswer => {
    const at = request.at;
    const envelope = request.body as { id: string; data?: { campaign_id?: string } };
    maxOpen = Math.max(maxOpen, openNow());
    times.push(at);
    if (bodyBytes.length < 100) bodyBytes.push(request.raw.length);
    if (seen.has(envelope.id)) duplicates++;
    else seen.add(envelope.id);
    const watcher = envelope.data?.campaign_id ? watched.get(envelope.data.campaign_id) : undefined;
    if (watcher) watcher(at);
    if (waiters.length) waiters = waiters.filter((w) => (times.length >= w.count ? (w.resolve(), false) : true));
    return answer;
  };
  for (let p = 0; p < ports; p++) {
    const receiver: WebhookReceiver = await startWebhookReceiver({
      keepAliveTimeoutMs: 60_000,
      immediate: true,
      answer: (request) => {
        // the counts above are what the benchmark reads: the requests themselves are not kept
        receiver.requests.length = 0;
        return record(request);
      },
    });
    receivers.push(receiver);
  }
  return {
    urls: receivers.map((r) => r.url),
    get count() {
      return times.length;
    },
    get times() {
      return times;
    },
    get duplicates() {
      return duplicates;
    },
    get bodyBytes() {
      return bodyBytes;
    },
    get maxOpen() {
      return maxOpen;
    },
    waitForCount(count, timeoutMs) {
      if (times.length >= count) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`receiver: ${times.length} of ${count} deliveries after ${timeoutMs} ms`)), timeoutMs);
        waiters.push({ count, resolve: () => (clearTimeout(timer), resolve()) });
      });
    },
    arrivalOf(campaignId, timeoutMs) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => (watched.delete(campaignId), reject(new Error(`receiver: event ${campaignId} did not arrive within ${timeoutMs} ms`))), timeoutMs);
        watched.set(campaignId, (at) => (clearTimeout(timer), watched.delete(campaignId), resolve(at)));
      });
    },
    reset() {
      times = [];
      seen = new Set();
      duplicates = 0;
      bodyBytes = [];
      maxOpen = openNow();
      waiters = [];
    },
    async close() {
      await Promise.all(receivers.map((r) => r.close()));
    },
  };
}

/**
 * `accounts` accounts (plan scale), each with one webhook ("*") to
 * urls[i % urls.length]; answers the account ids in order.
 */
export async function seedWebhookAccounts(db: Db, label: string, accounts: number, urls: string[]): Promise<string[]> {
  const rows = await executor(db).rows<{ id: string }>(
    `INSERT INTO accounts (email, "planId", "currentPeriodStart", "currentPeriodEnd", "updatedAt")
     SELECT $1 || '-' || g || '@bench.example', p.id, now(), now() + interval '30 days', now()
     FROM plans p, generate_series(1, $2::int) AS g WHERE p.slug = 'scale'
     ORDER BY g RETURNING id`,
    [label, accounts],
  );
  const ids = rows.map((r) => r.id);
  const keyring = new Keyring(ENCRYPTION_KEY);
  for (const [i, accountId] of ids.entries()) {
    await db.webhook.create({ data: { accountId, url: urls[i % urls.length]!, eventFilters: ["*"], ...sealedWebhookSecret(keyring, `whsec_bench_${i}_${randomUUID()}`) } });
  }
  return ids;
}

/**
 * `count` enrollment.sent events in one statement (one commit, one NOTIFY), the
 * i-th for accountIds[i % accounts], in that order; data shaped as benchEventData.
 */
export async function insertEvents(db: Db, accountIds: string[], count: number): Promise<void> {
  await executor(db).execute(
    `INSERT INTO events (id, "accountId", type, data, "createdAt")
     SELECT gen_random_uuid(), ($1::uuid[])[1 + (g % cardinality($1::uuid[]))], 'enrollment.sent',
       jsonb_build_object(
         'enrollment_id', gen_random_uuid()::text, 'contact_id', gen_random_uuid()::text,
         'contact_email', 'reader-' || g || '@example' || (g % 97) || '.com', 'campaign_id', gen_random_uuid()::text,
         'status', 'sent', 'sent_at', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
         'replied_at', NULL, 'bounce_reason', NULL, 'variant_id', NULL),
       clock_timestamp()
     FROM generate_series(0, $2::int - 1) AS g`,
    [accountIds, count],
  );
}

export { percentile } from "./numbers.js";
