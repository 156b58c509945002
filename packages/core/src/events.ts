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

export type EventType = (typeof EVENT_TYPES)[number];

export const EVENT_WILDCARD = "*";

export function isEventType(value: unknown): value is EventType {
  return typeof value === "string" && (EVENT_TYPES as readonly string[]).includes(value);
}

export function eventMatchesFilters(type: EventType, filters: readonly string[]): boolean {
  return filters.includes(EVENT_WILDCARD) || filters.includes(type);
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
}

export interface EventEnvelope<T extends EventType = EventType> {
  id: string;
  type: T;
  created_at: string;
  account_id: string;
  data: EventDataByType[T];
}
