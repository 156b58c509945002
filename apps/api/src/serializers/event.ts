import type { Event } from "@outreach/db";

/** An event of the account's log: what its webhooks were sent as the envelope's type, created_at and data. */
export function serializeEvent(event: Pick<Event, "id" | "type" | "createdAt" | "data">) {
  return { id: event.id, type: event.type, created_at: event.createdAt, data: event.data };
}
