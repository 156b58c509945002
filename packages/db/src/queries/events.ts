import { columns, type RowOf } from "./columns.js";
import { executor, type Queryable } from "./executor.js";

/* Statements on events (the transactional outbox) that the relay, the deliveries and the retention purge run. */

export const eventIdColumns = columns({ id: "uuid" });

/** Locks up to `limit` events not yet relayed, oldest first, skipping those another relay holds: their ids. */
export async function lockEventsToRelay(q: Queryable, limit: number): Promise<string[]> {
  const events = await executor(q).rows<RowOf<typeof eventIdColumns>>(
    `
      SELECT id FROM events WHERE "dispatchedAt" IS NULL
      ORDER BY "createdAt", id
      LIMIT $1
      FOR UPDATE SKIP LOCKED`,
    [limit],
  );
  return events.map((event) => event.id);
}

/** The events are relayed (fanned out into deliveries) at `now`. */
export async function markEventsRelayed(q: Queryable, eventIds: string[], now: Date): Promise<number> {
  return executor(q).execute(`UPDATE events SET "dispatchedAt" = $1 WHERE id = ANY($2::uuid[])`, [now, eventIds]);
}

export const eventPayloadColumns = columns({ data: "jsonb", createdAt: "timestamptz" });
export type EventPayloadRow = RowOf<typeof eventPayloadColumns>;

/** An event's data and time (what a delivery's envelope carries): undefined when it is gone. */
export async function eventPayload(q: Queryable, eventId: string): Promise<EventPayloadRow | undefined> {
  const [event] = await executor(q).rows<EventPayloadRow>(`SELECT data, "createdAt" FROM events WHERE id = $1::uuid`, [eventId]);
  return event;
}

/**
 * Deletes up to `batch` events relayed before `before` that no delivery refers to, skipping locked rows: how many.
 * The batch's ids go to the DELETE as an array (= ANY), so it finds them by primary key: with
 * `id IN (subquery)` the planner may hash the batch and read the whole table for it. The batch
 * is taken in time order, so it is read from the time index up to the cutoff: without an order,
 * statistics from before the last purge (which promise many rows past the cutoff) made the
 * planner scan the table for a LIMIT it never filled (1.5 s a minute at 2M events).
 */
export async function deleteRelayedEvents(q: Queryable, before: Date, batch: number): Promise<number> {
  return executor(q).execute(
    `
    DELETE FROM events WHERE id = ANY(ARRAY(
      SELECT e.id FROM events e
      WHERE e."dispatchedAt" < $1
        AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d."eventId" = e.id)
      ORDER BY e."dispatchedAt" LIMIT $2 FOR UPDATE SKIP LOCKED))`,
    [before, batch],
  );
}

export const outboxBacklogColumns = columns({ backlog: "int4" });

/** Events not fanned out into deliveries yet, and deliveries due for an attempt by `now`: the webhook deliverer's backlog. */
export async function countWebhookBacklog(q: Queryable, now: Date): Promise<number | undefined> {
  const [row] = await executor(q).rows<RowOf<typeof outboxBacklogColumns>>(
    `
    SELECT ((SELECT count(*) FROM events WHERE "dispatchedAt" IS NULL)
          + (SELECT count(*) FROM webhook_deliveries WHERE state = 'pending' AND "nextAttemptAt" <= $1))::int AS backlog`,
    [now],
  );
  return row?.backlog;
}
