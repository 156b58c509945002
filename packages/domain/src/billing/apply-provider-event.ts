import { insertProviderEvent, lockAccount, type Db, type ProviderSubscription } from "@outreach/db";
import type { Tx } from "../tx.js";
import type { InvoiceEventType, ProviderEventInput, SubscriptionEventType, SubscriptionSnapshot } from "./provider-objects.js";
import { ENTITLING_STATUSES, FREE_PLAN_SLUG, syncAccountPlan } from "./sync-account-plan.js";

export type ProviderEventOutcome = "applied" | "stale" | "ignored" | "duplicate";

export interface ProviderEventResult {
  outcome: ProviderEventOutcome;
  accountId: string | null;
  detail: string;
}

export interface ApplyProviderEventOptions {
  /**
   * The subscription as the provider holds it now (null when it has none by
   * that id). Asked when two events of one subscription carry the same time
   * (the provider's clock has one-second steps), and for an invoice of a
   * subscription not heard of yet. Without it (no provider client configured)
   * events of the same second apply in arrival order.
   */
  fetchSubscription?: (id: string) => Promise<SubscriptionSnapshot | null>;
}

/** A subscription that entitles its account to a plan, but whose price no plan carries: the operator must set it (pnpm ops set-price). */
export class UnknownPriceError extends Error {
  constructor(
    readonly subscriptionId: string,
    readonly priceId: string | null,
  ) {
    super(`subscription ${subscriptionId} has price ${priceId ?? "(none)"}, which no plan carries; set it with \`pnpm ops set-price <plan> ${priceId ?? "<price>"}\``);
    this.name = "UnknownPriceError";
  }
}

type SubscriptionEvent = Extract<ProviderEventInput, { type: SubscriptionEventType }>;
type InvoiceEvent = Extract<ProviderEventInput, { type: InvoiceEventType }>;

const isSubscriptionEvent = (event: ProviderEventInput): event is SubscriptionEvent => event.type.startsWith("customer.subscription.");

/**
 * Applies one payment-provider event, exactly once: the event id is stored in
 * the same transaction, so a replay (or a concurrent duplicate, which waits on
 * the first) changes nothing. Events of one account are applied one at a time
 * (its row is locked), and each part of a subscription (price and period;
 * status) remembers the time of the event that wrote it, so an event older than
 * what is stored is recorded as stale and changes nothing. The account's plan,
 * status and period are then derived from its subscriptions (syncAccountPlan).
 * Throws (and stores nothing) when the event cannot be applied yet, so the
 * provider delivers it again.
 */
export async function applyProviderEvent(db: Db, event: ProviderEventInput, options: ApplyProviderEventOptions = {}): Promise<ProviderEventResult> {
  return db.$transaction(
    async (tx) => {
      const inserted = await insertProviderEvent(tx, event.id, event.type, event.occurredAt);
      if (inserted === 0) return { outcome: "duplicate", accountId: null, detail: "already processed" } satisfies ProviderEventResult;
      const result = await applyOnce(tx, event, options);
      await tx.providerEvent.update({ where: { id: event.id }, data: { processedAt: new Date(), accountId: result.accountId, outcome: result.outcome } });
      return result;
    },
    // a provider look-up may happen inside (same-second events)
    { timeout: 60_000, maxWait: 10_000 },
  );
}

async function applyOnce(tx: Tx, event: ProviderEventInput, options: ApplyProviderEventOptions): Promise<ProviderEventResult> {
  const subscriptionId = isSubscriptionEvent(event) ? event.subscription.id : event.invoice.subscriptionId;
  const customerId = isSubscriptionEvent(event) ? event.subscription.customerId : event.invoice.customerId;
  if (!subscriptionId) return { outcome: "ignored", accountId: null, detail: "the invoice belongs to no subscription" };

  const accountId = await findAccountId(tx, subscriptionId, customerId);
  if (!accountId) return { outcome: "ignored", accountId: null, detail: `no account has customer ${customerId ?? "(none)"}` };
  await lockAccount(tx, accountId);
  const stored = await tx.providerSubscription.findUnique({ where: { id: subscriptionId } });

  const result = isSubscriptionEvent(event) ? await applySubscriptionEvent(tx, accountId, stored, event, options) : await applyInvoiceEvent(tx, accountId, stored, subscriptionId, event, options);
  if (result.outcome === "applied") await syncAccountPlan(tx, accountId);
  return result;
}

/** The account a subscription already belongs to, else the one with the customer. */
async function findAccountId(tx: Tx, subscriptionId: string, customerId: string | null): Promise<string | null> {
  const known = await tx.providerSubscription.findUnique({ where: { id: subscriptionId }, select: { accountId: true } });
  if (known) return known.accountId;
  if (!customerId) return null;
  const account = await tx.account.findUnique({ where: { providerCustomerId: customerId }, select: { id: true } });
  return account?.id ?? null;
}

/** The plan a subscription stands for: by its price, else by the plan named at checkout (a price the plan no longer carries). */
async function resolvePlanId(tx: Tx, snapshot: SubscriptionSnapshot): Promise<string | null> {
  if (snapshot.priceId) {
    const byPrice = await tx.plan.findUnique({ where: { providerPriceId: snapshot.priceId }, select: { id: true } });
    if (byPrice) return byPrice.id;
  }
  if (snapshot.planSlug && snapshot.planSlug !== FREE_PLAN_SLUG) {
    const bySlug = await tx.plan.findUnique({ where: { slug: snapshot.planSlug }, select: { id: true } });
    if (bySlug) return bySlug.id;
  }
  if (ENTITLING_STATUSES.has(snapshot.status)) throw new UnknownPriceError(snapshot.id, snapshot.priceId);
  return null;
}

const sameTime = (a: Date | null, b: Date) => a !== null && a.getTime() === b.getTime();
const isTie = (stored: ProviderSubscription, at: Date) => sameTime(stored.snapshotAt, at) || sameTime(stored.statusAt, at);
const latest = (...dates: Array<Date | null>) => new Date(Math.max(...dates.map((d) => d?.getTime() ?? 0)));

async function snapshotFields(tx: Tx, snapshot: SubscriptionSnapshot) {
  return {
    providerPriceId: snapshot.priceId,
    planId: await resolvePlanId(tx, snapshot),
    currentPeriodStart: snapshot.periodStart,
    currentPeriodEnd: snapshot.periodEnd,
    startedAt: snapshot.startedAt,
  };
}

/** Writes the subscription as the provider holds it now; the stored times become at least `at`. */
async function writeCurrent(
  tx: Tx,
  accountId: string,
  stored: ProviderSubscription | null,
  id: string,
  at: Date,
  fetch: NonNullable<ApplyProviderEventOptions["fetchSubscription"]>,
): Promise<ProviderEventResult> {
  const current = await fetch(id);
  if (!current) {
    if (!stored) return { outcome: "ignored", accountId, detail: `the provider has no subscription ${id}` };
    const time = latest(at, stored.snapshotAt, stored.statusAt);
    await tx.providerSubscription.update({ where: { id }, data: { status: "canceled", snapshotAt: time, statusAt: time } });
    return { outcome: "applied", accountId, detail: "the provider no longer has the subscription" };
  }
  const time = latest(at, stored?.snapshotAt ?? null, stored?.statusAt ?? null);
  const data = { ...(await snapshotFields(tx, current)), status: current.status, snapshotAt: time, statusAt: time };
  await tx.providerSubscription.upsert({ where: { id }, create: { id, accountId, ...data }, update: data });
  return { outcome: "applied", accountId, detail: "read again from the provider" };
}

async function applySubscriptionEvent(tx: Tx, accountId: string, stored: ProviderSubscription | null, event: SubscriptionEvent, options: ApplyProviderEventOptions): Promise<ProviderEventResult> {
  const at = event.occurredAt;
  const snapshot = event.type === "customer.subscription.deleted" ? { ...event.subscription, status: "canceled" } : event.subscription;
  if (stored && isTie(stored, at) && options.fetchSubscription) return writeCurrent(tx, accountId, stored, snapshot.id, at, options.fetchSubscription);
  // statusAt is never older than snapshotAt, so an older snapshot is older in every part
  if (stored?.snapshotAt && at < stored.snapshotAt) return { outcome: "stale", accountId, detail: "a newer event was applied already" };

  const statusIsNewer = !stored?.statusAt || at >= stored.statusAt;
  const data = { ...(await snapshotFields(tx, snapshot)), snapshotAt: at, ...(statusIsNewer ? { status: snapshot.status, statusAt: at } : {}) };
  await tx.providerSubscription.upsert({
    where: { id: snapshot.id },
    create: { id: snapshot.id, accountId, ...data, status: snapshot.status, statusAt: at },
    update: data,
  });
  return { outcome: "applied", accountId, detail: statusIsNewer ? `status ${snapshot.status}` : "price and period (a newer status is kept)" };
}

/** What an invoice outcome says about the subscription's status, for the statuses it speaks about. */
function statusAfterInvoice(type: InvoiceEventType, status: string): string | null {
  if (type === "invoice.paid") {
    if (["past_due", "unpaid", "incomplete"].includes(status)) return "active";
    return status === "active" || status === "trialing" ? status : null;
  }
  return ["active", "trialing", "past_due"].includes(status) ? "past_due" : null;
}

async function applyInvoiceEvent(
  tx: Tx,
  accountId: string,
  stored: ProviderSubscription | null,
  subscriptionId: string,
  event: InvoiceEvent,
  options: ApplyProviderEventOptions,
): Promise<ProviderEventResult> {
  const at = event.occurredAt;
  if (!stored) {
    if (!options.fetchSubscription) return { outcome: "ignored", accountId, detail: "an invoice of a subscription not heard of yet; its own events will set it" };
    return writeCurrent(tx, accountId, null, subscriptionId, at, options.fetchSubscription);
  }
  if (isTie(stored, at) && options.fetchSubscription) return writeCurrent(tx, accountId, stored, subscriptionId, at, options.fetchSubscription);
  if (stored.statusAt && at < stored.statusAt) return { outcome: "stale", accountId, detail: "a newer status was applied already" };

  const status = statusAfterInvoice(event.type, stored.status);
  if (status === null) return { outcome: "ignored", accountId, detail: `the invoice does not change a ${stored.status} subscription` };
  await tx.providerSubscription.update({ where: { id: subscriptionId }, data: { status, statusAt: at } });
  return { outcome: "applied", accountId, detail: `status ${status}` };
}
