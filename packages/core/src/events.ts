import type { EventDataByType } from "./event-payloads.js";

/** The data of each event type: defined once, in event-payloads.ts. */
export * from "./event-payloads.js";

/** The v1 event set delivered to outbound webhooks. */
export const EVENT_TYPES = ["enrollment.sent", "enrollment.opened", "enrollment.replied", "enrollment.bounced", "enrollment.unsubscribed", "credential.disabled", "campaign.paused"] as const;

/**
 * Events beyond the v1 set, delivered only to webhooks that name them in
 * event_filters: "*" keeps meaning the v1 set, so no receiver gets a type it
 * was not written for.
 */
export const OPT_IN_EVENT_TYPES = ["enrollment.clicked", "reply.categorized", "credential.auth_failed", "credential.paused"] as const;

/** Every event type the service emits (v1 and opt-in). */
export const ALL_EVENT_TYPES = [...EVENT_TYPES, ...OPT_IN_EVENT_TYPES] as const;

export type EventType = (typeof ALL_EVENT_TYPES)[number];

export const EVENT_WILDCARD = "*";

export function isEventType(value: unknown): value is EventType {
  return typeof value === "string" && (ALL_EVENT_TYPES as readonly string[]).includes(value);
}

export function isOptInEventType(type: string): boolean {
  return (OPT_IN_EVENT_TYPES as readonly string[]).includes(type);
}

/** A v1 type matches "*" or its own name; an opt-in type only its own name. */
export function eventMatchesFilters(type: EventType, filters: readonly string[]): boolean {
  return filters.includes(type) || (filters.includes(EVENT_WILDCARD) && !isOptInEventType(type));
}

export interface EventEnvelope<T extends EventType = EventType> {
  id: string;
  type: T;
  created_at: string;
  account_id: string;
  data: EventDataByType[T];
}
