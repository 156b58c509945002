import { executor, type Queryable } from "./executor.js";

/* Statements on provider_events: the payment provider's events, each applied once. */

/** Stores the event's id (the claim to apply it): 1 when stored, 0 when it was there already (or a concurrent duplicate committed it first). */
export async function insertProviderEvent(q: Queryable, id: string, type: string, occurredAt: Date): Promise<number> {
  return executor(q).execute(
    `
        INSERT INTO provider_events (id, type, "occurredAt") VALUES ($1, $2, $3)
        ON CONFLICT (id) DO NOTHING`,
    [id, type, occurredAt],
  );
}
