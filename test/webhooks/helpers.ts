import { randomUUID } from "node:crypto";
import { after } from "node:test";
import { executor, type Db } from "@outreach/db";
import { createTestDatabase, startAppProcess, uniqueQueuePrefix, type AppProcess, type TestDatabase } from "@outreach/testing";
import { emitEvent, sentData, startDeliverer, type Deliverer } from "../kit/webhook-deliverer.js";
import { startRecordingReceiver, type RecordingReceiver } from "./recording-receiver.js";

/**
 * What a webhook fault test starts (databases, receivers, deliverers), each
 * stopped after the file's tests, last started first.
 */
export function webhookFixtures() {
  const cleanups: Array<() => Promise<unknown>> = [];
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  });
  return {
    /** runs `cleanup` after the file's tests */
    onCleanup(cleanup: () => Promise<unknown>): void {
      cleanups.push(cleanup);
    },
    async testDatabase(): Promise<TestDatabase> {
      const database = await createTestDatabase();
      cleanups.push(() => database.drop());
      return database;
    },
    async receiver(answerFor?: Parameters<typeof startRecordingReceiver>[0]): Promise<RecordingReceiver> {
      const started = await startRecordingReceiver(answerFor);
      cleanups.push(() => started.close());
      return started;
    },
    /** the deliverer as a real process (a SIGKILL kills it, not the test) */
    async delivererProcess(env: Record<string, string>): Promise<AppProcess> {
      const app = await startAppProcess("webhook-deliverer", { env, timeoutMs: 60_000 });
      cleanups.push(() => app.stop("SIGKILL"));
      return app;
    },
    /** the deliverer in-process, on a shared database (replicas: call it again with the same QUEUE_PREFIX) */
    async delivererInProcess(env: Record<string, string>, database: TestDatabase): Promise<Deliverer> {
      const replica = await startDeliverer(env, database);
      cleanups.push(() => replica.stop());
      return replica;
    },
  };
}

export function delivererEnv(database: TestDatabase, extra: Record<string, string> = {}): Record<string, string> {
  return { DATABASE_URL: database.url, QUEUE_PREFIX: uniqueQueuePrefix(), LOG_LEVEL: "error", WEBHOOK_ALLOW_PRIVATE_URLS: "true", WEBHOOK_TIMEOUT_MS: "2000", ...extra };
}

/** Emits one enrollment.sent per new campaign id (the id tells the events apart at the receiver); answers the ids. */
export async function emitEvents(db: Db, accountId: string, count: number): Promise<string[]> {
  const campaigns: string[] = Array.from({ length: count }, () => randomUUID());
  for (const campaignId of campaigns) await emitEvent(db, accountId, "enrollment.sent", sentData(campaignId));
  return campaigns;
}

/** `count` enrollment.sent events of one account written in one statement, as a big batch's sends would leave them. */
export async function emitManyEvents(db: Db, accountId: string, count: number): Promise<void> {
  await executor(db).execute(
    `
    INSERT INTO events (id, "accountId", type, data, "createdAt")
    SELECT gen_random_uuid(), $1::uuid, 'enrollment.sent',
      $2::jsonb || jsonb_build_object('campaign_id', gen_random_uuid()::text), clock_timestamp()
    FROM generate_series(1, $3::int)`,
    [accountId, JSON.stringify(sentData()), count],
  );
}

/** The delivery ids the receiver saw, per event (its campaign id). */
export function idsPerEvent(receiver: RecordingReceiver): Map<string, Set<string>> {
  const ids = new Map<string, Set<string>>();
  for (const arrival of receiver.arrivals) {
    const campaignId = String(arrival.data.campaign_id);
    ids.set(campaignId, (ids.get(campaignId) ?? new Set()).add(arrival.id));
  }
  return ids;
}

/** How many deliveries are in each state. */
export async function deliveryStates(db: Db): Promise<Record<string, number>> {
  const rows = await db.webhookDelivery.groupBy({ by: ["state"], _count: true });
  return Object.fromEntries(rows.map((r) => [r.state, r._count]));
}
