import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, describe, test } from "node:test";
import type { Db } from "@outreach/db";
import { createTestDatabase, type TestDatabase } from "@outreach/testing";
import { applyProviderEvent, ProviderPayloadError, readProviderEvent, readSubscription, UnknownPriceError, type ProviderEventInput, type SubscriptionSnapshot } from "../src/billing/index.js";

let database: TestDatabase;
let db: Db;
before(async () => {
  database = await createTestDatabase();
  db = database.db;
});
after(() => database?.drop());

const id = (prefix: string) => `${prefix}_${randomBytes(8).toString("hex")}`;
const T0 = new Date("2026-03-01T10:00:00Z");
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

async function account(planSlug = "free") {
  const plan = await db.plan.findUniqueOrThrow({ where: { slug: planSlug } });
  const customerId = id("cus");
  const row = await db.account.create({
    data: { email: `${customerId}@example.com`, planId: plan.id, providerCustomerId: customerId, currentPeriodStart: T0, currentPeriodEnd: new Date("2026-04-01T10:00:00Z") },
  });
  return { accountId: row.id, customerId };
}

function snapshot(customerId: string, overrides: Partial<SubscriptionSnapshot> = {}): SubscriptionSnapshot {
  return {
    id: id("sub"),
    customerId,
    status: "active",
    priceId: "price_pro_monthly",
    planSlug: null,
    periodStart: new Date("2026-03-05T00:00:00Z"),
    periodEnd: new Date("2026-04-05T00:00:00Z"),
    startedAt: new Date("2026-03-05T00:00:00Z"),
    ...overrides,
  };
}

const subscriptionEvent = (type: "created" | "updated" | "deleted", subscription: SubscriptionSnapshot, seconds: number): ProviderEventInput => ({
  id: id("evt"),
  type: `customer.subscription.${type}`,
  occurredAt: at(seconds),
  subscription,
});

const invoiceEvent = (type: "invoice.paid" | "invoice.payment_failed", subscriptionId: string, customerId: string, seconds: number): ProviderEventInput => ({
  id: id("evt"),
  type,
  occurredAt: at(seconds),
  invoice: { id: id("in"), subscriptionId, customerId },
});

async function state(accountId: string) {
  const row = await db.account.findUniqueOrThrow({ where: { id: accountId }, include: { plan: true } });
  return { plan: row.plan.slug, status: row.subscriptionStatus, subscription: row.providerSubscriptionId, periodStart: row.currentPeriodStart, periodEnd: row.currentPeriodEnd };
}

describe("reading the provider's objects", () => {
  test("a subscription in the current shape: price and period on the item", () => {
    const read = readSubscription({
      id: "sub_1",
      customer: { id: "cus_1", object: "customer" },
      status: "trialing",
      start_date: 1772000000,
      metadata: { plan_slug: "pro", account_id: "x" },
      items: { data: [{ price: { id: "price_a" }, current_period_start: 1772000000, current_period_end: 1774600000 }] },
    });
    assert.deepEqual(read, {
      id: "sub_1",
      customerId: "cus_1",
      status: "trialing",
      priceId: "price_a",
      planSlug: "pro",
      periodStart: new Date(1772000000 * 1000),
      periodEnd: new Date(1774600000 * 1000),
      startedAt: new Date(1772000000 * 1000),
    });
  });

  test("a subscription in an older shape: period on the subscription, plan instead of price", () => {
    const read = readSubscription({
      id: "sub_2",
      customer: "cus_2",
      status: "past_due",
      plan: { id: "price_b" },
      current_period_start: 100,
      current_period_end: 200,
      created: 50,
      items: { data: [{}] },
    });
    assert.equal(read.priceId, "price_b");
    assert.deepEqual([read.periodStart, read.periodEnd, read.startedAt], [new Date(100_000), new Date(200_000), new Date(50_000)]);
  });

  test("events: unknown types have no input; handled ones must be well formed", () => {
    assert.deepEqual(readProviderEvent({ id: "evt_1", type: "charge.refunded", data: {} }), { id: "evt_1", type: "charge.refunded", input: null });
    assert.throws(() => readProviderEvent({ type: "invoice.paid" }), ProviderPayloadError);
    assert.throws(() => readProviderEvent({ id: "evt_2", type: "invoice.paid", data: { object: {} } }), ProviderPayloadError, "no created");
    assert.throws(() => readProviderEvent({ id: "evt_3", type: "customer.subscription.created", created: 5, data: { object: { status: "active" } } }), ProviderPayloadError);
    const invoice = readProviderEvent({ id: "evt_4", type: "invoice.paid", created: 5, data: { object: { id: "in_1", customer: "cus_1", subscription: "sub_9" } } });
    assert.deepEqual(invoice.input, { id: "evt_4", type: "invoice.paid", occurredAt: new Date(5000), invoice: { id: "in_1", subscriptionId: "sub_9", customerId: "cus_1" } });
  });
});

describe("applying events", () => {
  test("without a provider to ask, events of the same second apply in arrival order", async () => {
    const a = await account();
    const sub = snapshot(a.customerId);
    assert.equal((await applyProviderEvent(db, subscriptionEvent("created", sub, 0))).outcome, "applied");
    const result = await applyProviderEvent(db, subscriptionEvent("updated", { ...sub, priceId: "price_hobby_monthly" }, 0));
    assert.equal(result.outcome, "applied");
    assert.equal((await state(a.accountId)).plan, "hobby");
  });

  test("an invoice of a subscription not heard of yet: ignored without a provider, read from it with one", async () => {
    const a = await account();
    const sub = snapshot(a.customerId, { status: "past_due" });
    const ignored = await applyProviderEvent(db, invoiceEvent("invoice.payment_failed", sub.id, a.customerId, 5));
    assert.equal(ignored.outcome, "ignored");
    assert.equal((await state(a.accountId)).plan, "free");

    const asked: string[] = [];
    const result = await applyProviderEvent(db, invoiceEvent("invoice.payment_failed", sub.id, a.customerId, 6), {
      fetchSubscription: async (subscriptionId) => (asked.push(subscriptionId), sub),
    });
    assert.equal(result.outcome, "applied");
    assert.deepEqual(asked, [sub.id]);
    assert.deepEqual(await state(a.accountId), { plan: "pro", status: "past_due", subscription: sub.id, periodStart: sub.periodStart, periodEnd: sub.periodEnd });

    // the older created event, arriving now, changes nothing
    assert.equal((await applyProviderEvent(db, subscriptionEvent("created", { ...sub, status: "incomplete" }, 1))).outcome, "stale");
    assert.equal((await state(a.accountId)).status, "past_due");
  });

  test("with two live subscriptions the higher tier counts; an old one ending late takes nothing away", async () => {
    const a = await account();
    const hobby = snapshot(a.customerId, { priceId: "price_hobby_monthly" });
    const scale = snapshot(a.customerId, { priceId: "price_scale_monthly", startedAt: new Date("2026-03-06T00:00:00Z") });
    await applyProviderEvent(db, subscriptionEvent("created", hobby, 0));
    await applyProviderEvent(db, subscriptionEvent("created", scale, 10));
    assert.deepEqual([(await state(a.accountId)).plan, (await state(a.accountId)).subscription], ["scale", scale.id]);
    // the hobby subscription is canceled (its deletion may arrive long after)
    await applyProviderEvent(db, subscriptionEvent("deleted", hobby, 20));
    assert.deepEqual([(await state(a.accountId)).plan, (await state(a.accountId)).status], ["scale", "active"]);
    await applyProviderEvent(db, subscriptionEvent("deleted", scale, 30));
    const after = await state(a.accountId);
    assert.deepEqual([after.plan, after.status, after.subscription], ["free", "canceled", scale.id]);
  });

  test("a private plan an operator gave is kept when a subscription ends or never starts", async () => {
    const a = await account("founder");
    const abandoned = snapshot(a.customerId, { status: "incomplete" });
    assert.equal((await applyProviderEvent(db, subscriptionEvent("created", abandoned, 0))).outcome, "applied");
    await applyProviderEvent(db, subscriptionEvent("updated", { ...abandoned, status: "incomplete_expired" }, 100));
    const after = await state(a.accountId);
    assert.equal(after.plan, "founder");
    assert.equal(after.status, "incomplete_expired");
  });

  test("a live subscription at a price no plan carries throws and stores nothing", async () => {
    const a = await account();
    const sub = snapshot(a.customerId, { priceId: "price_unheard_of" });
    const event = subscriptionEvent("created", sub, 0);
    await assert.rejects(applyProviderEvent(db, event), UnknownPriceError);
    assert.equal(await db.providerEvent.count({ where: { id: event.id } }), 0);
    assert.equal(await db.providerSubscription.count({ where: { id: sub.id } }), 0);
    // a subscription that entitles to nothing may carry any price
    assert.equal((await applyProviderEvent(db, subscriptionEvent("created", { ...sub, status: "incomplete" }, 1))).outcome, "applied");
  });

  test("a deleted event is canceled whatever status its object shows", async () => {
    const a = await account();
    const sub = snapshot(a.customerId);
    await applyProviderEvent(db, subscriptionEvent("created", sub, 0));
    await applyProviderEvent(db, subscriptionEvent("deleted", sub, 1));
    const after = await state(a.accountId);
    assert.deepEqual([after.plan, after.status], ["free", "canceled"]);
  });

  test("invoice.paid brings past_due back to active; a failure does not touch a canceled subscription", async () => {
    const a = await account();
    const sub = snapshot(a.customerId);
    await applyProviderEvent(db, subscriptionEvent("created", sub, 0));
    await applyProviderEvent(db, invoiceEvent("invoice.payment_failed", sub.id, a.customerId, 10));
    assert.equal((await state(a.accountId)).status, "past_due");
    await applyProviderEvent(db, invoiceEvent("invoice.paid", sub.id, a.customerId, 20));
    assert.equal((await state(a.accountId)).status, "active");
    await applyProviderEvent(db, subscriptionEvent("deleted", sub, 30));
    const result = await applyProviderEvent(db, invoiceEvent("invoice.payment_failed", sub.id, a.customerId, 40));
    assert.equal(result.outcome, "ignored");
    assert.deepEqual([(await state(a.accountId)).plan, (await state(a.accountId)).status], ["free", "canceled"]);
  });
});
