import type { EnrollmentEventFields, EventData, EventType } from "@outreach/core";
import { latestSentVariant, type Contact, type Enrollment } from "@outreach/db";
import type { Tx } from "../tx.js";

/**
 * Writes an event to the outbox. Call it inside the transaction that makes the
 * state change, so the event exists if and only if the change does; the
 * webhook-deliverer's outbox relay fans it out into webhook deliveries
 * (a trigger wakes it at commit: packages/db/sql/triggers/events_notify_outbox.sql;
 * see relay-outbox.ts).
 */
export async function recordEvent<T extends EventType>(tx: Tx, accountId: string, type: T, data: RecordedEventData<T>): Promise<string> {
  const payload =
    ATTRIBUTED.has(type) && (data as { variant_id?: unknown }).variant_id === undefined
      ? { ...data, variant_id: await attributedVariant(tx, (data as { enrollment_id: string }).enrollment_id) }
      : data;
  const event = await tx.event.create({ data: { accountId, type, data: payload as object }, select: { id: true } });
  return event.id;
}

/** Events whose data names the A/B variant they are credited to (enrollment.sent names its own, see recordSentBatch). */
const ATTRIBUTED_TYPES = ["enrollment.opened", "enrollment.replied", "enrollment.clicked"] as const satisfies readonly EventType[];
const ATTRIBUTED = new Set<EventType>(ATTRIBUTED_TYPES);

/**
 * The data recordEvent takes: the event's data (EventData, see
 * @outreach/core's event-payloads), where an attributed event may leave
 * variant_id out for recordEvent to look up.
 */
export type RecordedEventData<T extends EventType> = EventData<T> | (T extends (typeof ATTRIBUTED_TYPES)[number] ? Omit<EventData<T>, "variant_id"> & { variant_id?: string | null } : never);

/** The variant of the latest step sent to the enrollment: an open, click or reply is credited to it. null without variants. */
export async function attributedVariant(tx: Tx, enrollmentId: string): Promise<string | null> {
  return latestSentVariant(tx, enrollmentId);
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/**
 * data of enrollment.bounced, and of enrollment.opened/replied/clicked before
 * recordEvent adds their variant_id: the enrollment as it is after the change.
 */
export function enrollmentEventData(enrollment: Enrollment, contact: Pick<Contact, "id" | "email">): EnrollmentEventFields {
  return {
    enrollment_id: enrollment.id,
    contact_id: contact.id,
    contact_email: contact.email,
    campaign_id: enrollment.campaignId,
    status: enrollment.status,
    sent_at: iso(enrollment.sentAt),
    replied_at: iso(enrollment.repliedAt),
    bounce_reason: enrollment.bounceReason,
  };
}

/**
 * data of enrollment.sent: the enrollment after the send and the variant sent.
 * The sender writes this event in SQL (recordSentBatch, through recordSentSends
 * in packages/db/src/queries/step-sends.ts: one statement for the whole
 * record); this is the same data built in TypeScript, and
 * test/event-payloads.test.ts holds the two equal, field for field.
 */
export function enrollmentSentData(enrollment: Enrollment, contact: Pick<Contact, "id" | "email">, variantId: string | null): EventData<"enrollment.sent"> {
  return { ...enrollmentEventData(enrollment, contact), variant_id: variantId };
}
