import { deleteExpiredIdempotencyRecords, deleteFinishedDeliveries, deleteOldRequestLogs, deleteRelayedEvents } from "@outreach/db";
import type { Tx } from "../../tx.js";

/** How long each kind of row is kept (days), from RETENTION_* settings. */
export interface RetentionPolicy {
  requestLogDays: number;
  eventDays: number;
  webhookDeliveryDays: number;
}

export interface PurgeCounts {
  requestLogs: number;
  idempotencyRecords: number;
  webhookDeliveries: number;
  events: number;
}

const DAY_MS = 86_400_000;

/** Rows deleted per statement: each batch is its own short transaction. */
export const PURGE_BATCH_SIZE = 5000;

/** Runs one batched DELETE (it must delete at most `batch` rows) until a batch comes back short. */
async function inBatches(batch: number, deleteBatch: () => Promise<number>): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await deleteBatch();
    total += deleted;
    if (deleted < batch) return total;
  }
}

/**
 * Deletes what is past its retention window, a batch per statement (no long
 * transaction, no long lock):
 * - request logs older than requestLogDays;
 * - idempotency records past their expiry (24 h), or within idempotencyLeadMs
 *   of it (the time to the next purge): their stored responses may hold a
 *   secret shown once (an API key), sealed, and none is kept past 24 h;
 * - webhook deliveries finished (succeeded, failed, skipped) more than
 *   webhookDeliveryDays ago, with their attempts (ON DELETE CASCADE);
 * - outbox events relayed more than eventDays ago that no delivery refers to any
 *   more (deleting an event would cascade to its deliveries: one still pending,
 *   or finished too recently to be purged, keeps its event). Events not yet
 *   relayed are never purged.
 * Batches take their rows with SKIP LOCKED, so two purges at once do not wait on each other.
 */
export async function purgeOldRows(tx: Tx, policy: RetentionPolicy, now = new Date(), batch = PURGE_BATCH_SIZE, idempotencyLeadMs = 0): Promise<PurgeCounts> {
  const before = (days: number) => new Date(now.getTime() - days * DAY_MS);
  const logsBefore = before(policy.requestLogDays);
  const deliveriesBefore = before(policy.webhookDeliveryDays);
  const eventsBefore = before(policy.eventDays);
  const requestLogs = await inBatches(batch, () => deleteOldRequestLogs(tx, logsBefore, batch));
  const idempotencyRecords = await inBatches(batch, () => deleteExpiredIdempotencyRecords(tx, new Date(now.getTime() + idempotencyLeadMs), batch));
  const webhookDeliveries = await inBatches(batch, () => deleteFinishedDeliveries(tx, deliveriesBefore, batch));
  const events = await inBatches(batch, () => deleteRelayedEvents(tx, eventsBefore, batch));
  return { requestLogs, idempotencyRecords, webhookDeliveries, events };
}
