/** What the service keeps of a payment-provider subscription. */
export interface SubscriptionSnapshot {
  id: string;
  customerId: string | null;
  /** the provider's own value: active, trialing, past_due, unpaid, canceled, incomplete, ... */
  status: string;
  priceId: string | null;
  /** metadata.plan_slug written at checkout: names the plan when no plan carries the price any more */
  planSlug: string | null;
  periodStart: Date | null;
  periodEnd: Date | null;
  startedAt: Date | null;
}

export const SUBSCRIPTION_EVENT_TYPES = ["customer.subscription.created", "customer.subscription.updated", "customer.subscription.deleted"] as const;
export const INVOICE_EVENT_TYPES = ["invoice.paid", "invoice.payment_failed"] as const;
export const HANDLED_PROVIDER_EVENT_TYPES: readonly string[] = [...SUBSCRIPTION_EVENT_TYPES, ...INVOICE_EVENT_TYPES];

export type SubscriptionEventType = (typeof SUBSCRIPTION_EVENT_TYPES)[number];
export type InvoiceEventType = (typeof INVOICE_EVENT_TYPES)[number];

export type ProviderEventInput =
  | { id: string; type: SubscriptionEventType; occurredAt: Date; subscription: SubscriptionSnapshot }
  | { id: string; type: InvoiceEventType; occurredAt: Date; invoice: { id: string | null; subscriptionId: string | null; customerId: string | null } };

/** A signed event whose content is not what the provider sends. */
export class ProviderPayloadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ProviderPayloadError";
  }
}

type Obj = Record<string, unknown>;

const isObject = (value: unknown): value is Obj => typeof value === "object" && value !== null && !Array.isArray(value);

/** An id, or an expanded object carrying one. */
function idOf(value: unknown): string | null {
  if (typeof value === "string" && value) return value;
  if (isObject(value) && typeof value.id === "string" && value.id) return value.id;
  return null;
}

function time(value: unknown): Date | null {
  // seconds since 1970; anything past the year 5000 is not a time the provider sends
  return typeof value === "number" && Number.isFinite(value) && value > 0 && value < 1e11 ? new Date(value * 1000) : null;
}

/**
 * Reads a subscription object. API versions differ: the period lives on the
 * items in recent ones and on the subscription itself in older ones; both are read.
 */
export function readSubscription(value: unknown): SubscriptionSnapshot {
  if (!isObject(value) || typeof value.id !== "string" || !value.id) throw new ProviderPayloadError("the subscription has no id");
  if (typeof value.status !== "string" || !value.status) throw new ProviderPayloadError(`subscription ${value.id} has no status`);
  const items = isObject(value.items) && Array.isArray(value.items.data) ? value.items.data.filter(isObject) : [];
  const item = items[0];
  const priceId = idOf(item?.price) ?? idOf(item?.plan) ?? idOf(value.plan);
  const metadata = isObject(value.metadata) ? value.metadata : {};
  return {
    id: value.id,
    customerId: idOf(value.customer),
    status: value.status,
    priceId,
    planSlug: typeof metadata.plan_slug === "string" && metadata.plan_slug ? metadata.plan_slug : null,
    periodStart: time(item?.current_period_start) ?? time(value.current_period_start),
    periodEnd: time(item?.current_period_end) ?? time(value.current_period_end),
    startedAt: time(value.start_date) ?? time(value.created),
  };
}

/** The subscription an invoice belongs to: under parent.subscription_details in recent API versions, top-level before. */
function invoiceSubscriptionId(invoice: Obj): string | null {
  const parent = isObject(invoice.parent) ? invoice.parent : null;
  const details = parent && isObject(parent.subscription_details) ? parent.subscription_details : null;
  return idOf(details?.subscription) ?? idOf(invoice.subscription);
}

/**
 * Reads a verified event. Answers the event's id and type, and its input for
 * the sync (null for a type the service does not handle). Throws
 * ProviderPayloadError when a handled event is malformed.
 */
export function readProviderEvent(body: unknown): { id: string; type: string; input: ProviderEventInput | null } {
  if (!isObject(body) || typeof body.id !== "string" || !body.id || typeof body.type !== "string") {
    throw new ProviderPayloadError("the body is not an event (id and type are required)");
  }
  const { id, type } = body;
  if (!HANDLED_PROVIDER_EVENT_TYPES.includes(type)) return { id, type, input: null };
  const occurredAt = time(body.created);
  if (!occurredAt) throw new ProviderPayloadError(`event ${id} has no creation time`);
  const object = isObject(body.data) ? body.data.object : undefined;
  if (!isObject(object)) throw new ProviderPayloadError(`event ${id} carries no object`);
  if ((SUBSCRIPTION_EVENT_TYPES as readonly string[]).includes(type)) {
    return { id, type, input: { id, type: type as SubscriptionEventType, occurredAt, subscription: readSubscription(object) } };
  }
  const invoice = { id: typeof object.id === "string" ? object.id : null, subscriptionId: invoiceSubscriptionId(object), customerId: idOf(object.customer) };
  return { id, type, input: { id, type: type as InvoiceEventType, occurredAt, invoice } };
}
