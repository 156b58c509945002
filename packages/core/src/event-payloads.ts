import Joi from "joi";
import type { EventType } from "./events.js";
import { REPLY_CATEGORIES, REPLY_CATEGORY_SOURCES } from "./reply-categories.js";

/**
 * The `data` of every event the service writes, defined once: each field's
 * joi rule (strict: every key present, its type and nullability exact, no
 * other key), the TypeScript type inferred from the same declaration
 * (EventData<T>), and what the API's OpenAPI document says of it (see
 * apps/api/src/serializers/event.ts). The code that builds event data in
 * TypeScript is typed by EventData<T>; the SQL that builds enrollment.sent
 * (recordSentBatch) is held to the same schema by
 * packages/domain/test/event-payloads.test.ts.
 *
 * joi does not infer a TypeScript type from a schema, so the fields are made
 * by the small builders below, each carrying its joi rule and its type.
 */

/** How a field is documented (the OpenAPI document maps each format to its JSON Schema). */
export type PayloadFieldFormat = "uuid" | "email" | "date-time" | "string" | "number" | "enum";

export interface PayloadField<T> {
  /** the joi rule of a value (presence is the payload's: every field is required) */
  readonly rule: Joi.Schema;
  readonly format: PayloadFieldFormat;
  /** the allowed values of an "enum" field */
  readonly values?: readonly string[];
  readonly nullable: boolean;
  readonly description?: string;
  /**
   * The release that added the field: every event written since carries it,
   * events stored by earlier releases do not (GET /events and redeliveries
   * serve stored data as it is), so documents show it as optional.
   */
  readonly since?: string;
  /** never set: carries the TypeScript type of the field's value */
  readonly type?: T;
}

export type PayloadFields = Record<string, PayloadField<unknown>>;

/** The TypeScript type of the data a set of fields describes: every key present. */
export type PayloadData<F extends PayloadFields> = { [K in keyof F]: F[K] extends PayloadField<infer T> ? T : never };

export interface EventPayload<F extends PayloadFields = PayloadFields> {
  readonly fields: F;
  /** strict: every field present, nothing else; validate with PAYLOAD_VALIDATION */
  readonly schema: Joi.ObjectSchema<PayloadData<F>>;
}

/** Options that check a payload exactly as stored: no type coercion, every error reported. */
export const PAYLOAD_VALIDATION: Joi.ValidationOptions = { convert: false, abortEarly: false, allowUnknown: false };

/** A timestamp as event data carries it: ISO 8601 in UTC with milliseconds (Date.toISOString, and the SQL that matches it). */
export const EVENT_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function field<T>(rule: Joi.Schema, format: PayloadFieldFormat, description?: string, values?: readonly string[]): PayloadField<T> {
  return { rule, format, nullable: false, ...(values ? { values } : {}), ...(description ? { description } : {}) };
}

const uuid = (description?: string) => field<string>(Joi.string().guid(), "uuid", description);
const email = (description?: string) => field<string>(Joi.string().email({ tlds: { allow: false }, minDomainSegments: 1 }), "email", description);
const timestamp = (description?: string) => field<string>(Joi.string().pattern(EVENT_TIMESTAMP), "date-time", description);
/** free text: any string, the empty one included */
const text = (description?: string) => field<string>(Joi.string().allow(""), "string", description);
const number = (description?: string) => field<number>(Joi.number(), "number", description);
const oneOf = <const V extends readonly string[]>(values: V, description?: string) => field<V[number]>(Joi.string().valid(...values), "enum", description, values);

/** The field, or null. */
function nullable<T>(inner: PayloadField<T>): PayloadField<T | null> {
  return { ...inner, rule: inner.rule.allow(null), nullable: true } as PayloadField<T | null>;
}

/** A field added by a later release (see PayloadField.since). */
function since<T>(release: string, inner: PayloadField<T>): PayloadField<T> {
  return { ...inner, since: release };
}

function payload<const F extends PayloadFields>(fields: F): EventPayload<F> {
  const keys = Object.fromEntries(Object.entries(fields).map(([key, f]) => [key, f.rule.required()]));
  return { fields, schema: Joi.object(keys).unknown(false) as Joi.ObjectSchema<PayloadData<F>> };
}

/** An enrollment's status (the enrollments.status enum). */
export const ENROLLMENT_STATUSES = ["pending", "sent", "opened", "replied", "bounced", "unsubscribed"] as const;

/** What every enrollment.* event but enrollment.unsubscribed says of the enrollment, as it is after the change. */
const enrollmentFields = {
  enrollment_id: uuid(),
  contact_id: uuid(),
  contact_email: email(),
  campaign_id: uuid(),
  status: oneOf(ENROLLMENT_STATUSES, "The enrollment's status after the change."),
  sent_at: nullable(timestamp()),
  replied_at: nullable(timestamp()),
  bounce_reason: nullable(text()),
};

/** enrollment.sent, .opened, .replied and .clicked also name the A/B variant credited. */
const variantField = {
  variant_id: since("1.2.0", nullable(uuid("The A/B variant of the step sent (enrollment.sent), or of the last step sent before the open, click or reply; null without variants."))),
};

/** The data of each event type (SPEC "data by type"; enrollment.clicked and variant_id: README "Receiving webhooks"). */
export const EVENT_PAYLOADS = {
  "enrollment.sent": payload({ ...enrollmentFields, ...variantField }),
  "enrollment.opened": payload({ ...enrollmentFields, ...variantField }),
  "enrollment.replied": payload({ ...enrollmentFields, ...variantField }),
  "enrollment.bounced": payload(enrollmentFields),
  "enrollment.unsubscribed": payload({
    enrollment_id: uuid(),
    contact_id: uuid(),
    contact_email: email(),
    campaign_id: uuid(),
    unsubscribed_at: timestamp(),
  }),
  "credential.disabled": payload({
    credential_id: uuid(),
    from_email: email(),
    campaign_id: uuid(),
    bounce_rate: number("Percent of the inbox's sends that bounced."),
    threshold: number(),
  }),
  "campaign.paused": payload({ campaign_id: uuid(), name: text(), reason: oneOf(["all_credentials_disabled"]) }),
  "enrollment.clicked": payload({
    ...enrollmentFields,
    ...variantField,
    url: text("The link's destination as written in the template."),
    clicked_at: timestamp("The first click of a tracked link."),
  }),
  "reply.categorized": payload({
    reply_id: uuid("The reply (GET /replies/:id)."),
    enrollment_id: uuid(),
    contact_id: uuid(),
    contact_email: email(),
    campaign_id: uuid(),
    category: oneOf(REPLY_CATEGORIES, "What the reply says."),
    category_source: oneOf(REPLY_CATEGORY_SOURCES, "rules: the service's rules; model: the configured classifier; manual: a person (PATCH /replies/:id)."),
    previous_category: nullable(oneOf(REPLY_CATEGORIES, "The category before this one; null for a reply's first.")),
    categorized_at: timestamp(),
  }),
  "credential.auth_failed": payload({
    credential_id: uuid(),
    campaign_id: uuid(),
    from_email: email(),
    provider: oneOf(["google", "microsoft"], "The OAuth2 mailbox's provider."),
    reason: text("Why the mailbox can no longer log in (the provider refused its refresh token): it must be reconnected."),
  }),
  "credential.paused": payload({
    credential_id: uuid(),
    campaign_id: uuid(),
    from_email: email(),
    paused_until: timestamp("Nothing is sent through the inbox until then, and its warm-up ramp is held meanwhile."),
    reason: text("The bounce or complaint spike that paused it, with its counts over the last 24 hours."),
  }),
} as const satisfies { [T in EventType]: EventPayload };

/** The data of a test ping (webhook.test, POST /webhooks/:id/test): not an event of the log, built when sent. */
export const WEBHOOK_TEST_PAYLOAD = payload({ webhook_id: uuid(), message: text() });

/** The `data` of an event of type T, as written to the outbox and delivered. */
export type EventData<T extends EventType> = PayloadData<(typeof EVENT_PAYLOADS)[T]["fields"]>;

export type EventDataByType = { [T in EventType]: EventData<T> };

/** What the enrollment.* events (but enrollment.unsubscribed) share: the enrollment after the change. */
export type EnrollmentEventFields = PayloadData<typeof enrollmentFields>;

export type WebhookTestData = PayloadData<(typeof WEBHOOK_TEST_PAYLOAD)["fields"]>;
