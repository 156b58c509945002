import { OPT_IN_EVENT_TYPES } from "@outreach/core";
import { insertDeliveriesForEvents, lockEventsToRelay, markEventsRelayed } from "@outreach/db";
import type { Tx } from "../tx.js";

export interface RelayBatch {
  events: number;
  /** deliveries created */
  deliveries: number;
}

/**
 * Fans out the oldest events not yet relayed, in order of creation: one
 * delivery per enabled webhook of the event's account whose filters match
 * (the exact type, or "*" for a v1 type: opt-in types such as
 * enrollment.clicked go only to webhooks that name them), and the events are marked relayed, all in one
 * transaction. Rows are taken with FOR UPDATE SKIP LOCKED, so any number of
 * relays run side by side without taking the same event; the unique
 * (webhook, event) pair makes a repeat harmless. The deliveries' creation
 * wakes the deliverers (a NOTIFY from the table's trigger at commit:
 * packages/db/sql/triggers/webhook_deliveries_notify.sql).
 */
export async function relayOutboxBatch(db: { $transaction: <T>(fn: (tx: Tx) => Promise<T>) => Promise<T> }, limit = 200, now = new Date()): Promise<RelayBatch> {
  return db.$transaction(async (tx) => {
    const ids = await lockEventsToRelay(tx, limit);
    if (ids.length === 0) return { events: 0, deliveries: 0 };
    const deliveries = await insertDeliveriesForEvents(tx, ids, [...OPT_IN_EVENT_TYPES], now);
    await markEventsRelayed(tx, ids, now);
    return { events: ids.length, deliveries };
  });
}
