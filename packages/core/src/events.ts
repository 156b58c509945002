/** The v1 event set delivered to outbound webhooks. */
export const EVENT_TYPES = [
  "enrollment.sent",
  "enrollment.opened",
  "enrollment.replied",
  "enrollment.bounced",
  "enrollment.unsubscribed",
  "credential.disabled",
  "campaign.paused",
] as const;

/**
 * Events beyond the v1 set, delivered only to webhooks that name them in
 * event_filters: "*" keeps meaning the v1 set, so no receiver gets a type it
 * was not written for.
 */
export const OPT_IN_EVENT_TYPES = ["enrollment.clicked"] as const;

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

export interface EnrollmentEventData {
  enrollment_id: string;
  contact_id: string;
  contact_email: string;
  campaign_id: string;
  status: string;
  sent_at: string | null;
  replied_at: string | null;
  bounce_reason: string | null;
  /** the A/B variant of the step (of the step sent, or the last one sent before an open or reply); null without variants */
  variant_id?: string | null;
}

/** data of enrollment.clicked (opt-in): the enrollment, the link's destination and when it was first clicked. */
export interface EnrollmentClickedData extends EnrollmentEventData {
  url: string;
  clicked_at: string;
}

export interface EnrollmentUnsubscribedData {
  enrollment_id: string;
  contact_id: string;
  contact_email: string;
  campaign_id: string;
  unsubscribed_at: string;
}

export interface CredentialDisabledData {
  credential_id: string;
  from_email: string;
  campaign_id: string;
  bounce_rate: number;
  threshold: number;
}

export interface CampaignPausedData {
  campaign_id: string;
  name: string;
  reason: "all_credentials_disabled";
}

export interface EventDataByType {
  "enrollment.sent": EnrollmentEventData;
  "enrollment.opened": EnrollmentEventData;
  "enrollment.replied": EnrollmentEventData;
  "enrollment.bounced": EnrollmentEventData;
  "enrollment.unsubscribed": EnrollmentUnsubscribedData;
  "credential.disabled": CredentialDisabledData;
  "campaign.paused": CampaignPausedData;
  "enrollment.clicked": EnrollmentClickedData;
}

export interface EventEnvelope<T extends EventType = EventType> {
  id: string;
  type: T;
  created_at: string;
  account_id: string;
  data: EventDataByType[T];
}
