import { OPT_IN_EVENT_TYPES } from "@outreach/core";
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
    const events = await tx.$queryRaw<Array<{ id: string }>>`
      SELECT id FROM events WHERE "dispatchedAt" IS NULL
      ORDER BY "createdAt", id
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED`;
    if (events.length === 0) return { events: 0, deliveries: 0 };
    const ids = events.map((event) => event.id);
    const deliveries = await tx.$executeRaw`
      INSERT INTO webhook_deliveries (id, "accountId", "webhookId", "eventId", "eventType", "nextAttemptAt", "createdAt")
      SELECT gen_random_uuid(), e."accountId", w.id, e.id, e.type, ${now}, ${now}
      FROM events e
      JOIN webhooks w ON w."accountId" = e."accountId" AND w."disabledAt" IS NULL AND (e.type = ANY(w."eventFilters") OR ('*' = ANY(w."eventFilters") AND e.type <> ALL(${[...OPT_IN_EVENT_TYPES]}::text[])))
      WHERE e.id = ANY(${ids}::uuid[])
      ORDER BY e."createdAt", e.id, w."createdAt"
      ON CONFLICT ("webhookId", "eventId") DO NOTHING`;
    await tx.$executeRaw`UPDATE events SET "dispatchedAt" = ${now} WHERE id = ANY(${ids}::uuid[])`;
    return { events: events.length, deliveries };
  });
}
