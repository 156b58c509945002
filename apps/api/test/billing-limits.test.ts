import assert from "node:assert/strict";
import { test } from "node:test";
import { getPlanUsage } from "@outreach/domain";
import { request } from "./helpers.js";
import { billingApiForFile, deliver, nowSeconds, payingAccount, subscribe, subscriptionOf } from "./billing-fixtures.js";
import { assertEnvelope, call, createCampaign, emails, importContacts, type WorkflowEnv } from "./workflow-fixtures.js";

const env = billingApiForFile();

const db = () => env.api.database.db;

/** A campaign of the account with one pending enrollment, ready to dispatch. */
async function dispatchable(account: { accountId: string; token: string }) {
  const workflow: WorkflowEnv = { api: env.api, a: account, b: account };
  const campaign = await createCampaign(workflow);
  const importId = await importContacts(workflow, emails(1));
  const enrolled = await call(workflow, "POST", `/campaigns/${campaign.id}/enroll`, { body: { contact_import_id: importId } });
  assert.equal(enrolled.status, 200, enrolled.text);
  return {
    dispatch: () => call(workflow, "POST", `/campaigns/${campaign.id}/dispatch`),
    workflow,
  };
}

/** Records `sends` in the account's current billing period, as the sender would have. */
async function useUp(accountId: string, sends: number) {
  const usage = await getPlanUsage(db(), accountId);
  await db().usagePeriod.upsert({
    where: { accountId_periodStart: { accountId, periodStart: usage.periodStart } },
    create: { accountId, periodStart: usage.periodStart, periodEnd: usage.periodEnd, sends },
    update: { sends },
  });
}

test("an upgrade lifts a 402 on the next dispatch, and the billing period becomes the subscription's", async () => {
  const a = await payingAccount(env);
  const { dispatch, workflow } = await dispatchable(a);
  await useUp(a.accountId, 100);
  const refused = await dispatch();
  assertEnvelope(workflow, refused, 402, "plan_limit_reached");
  assert.deepEqual(refused.body.details, { current_period_sends: 100, monthly_limit: 100, plan_slug: "free" });

  const subscription = await subscribe(env, a.token, "hobby");
  await deliver(env.api, env.stripe.event("customer.subscription.created", subscription), "applied");

  const accepted = await dispatch();
  assert.equal(accepted.status, 200, accepted.text);
  assert.equal(accepted.body.queued, true);
  const usage = await request(env.api.baseUrl, "GET", "/billing/usage", { token: a.token });
  assert.equal(usage.body.plan_slug, "hobby");
  assert.equal(usage.body.monthly_limit, 5000);
  assert.equal(usage.body.current_period_sends, 0, "the paid period starts afresh");
  assert.equal(usage.body.period_start, new Date(subscription.items.data[0].current_period_start * 1000).toISOString());
  assert.equal(usage.body.period_end, new Date(subscription.items.data[0].current_period_end * 1000).toISOString());
});

test("a downgrade applies the lower limit from the next dispatch, counting the period's sends so far", async () => {
  const a = await payingAccount(env);
  const { dispatch, workflow } = await dispatchable(a);
  const subscription = await subscribe(env, a.token, "pro");
  const t = nowSeconds();
  await deliver(env.api, env.stripe.event("customer.subscription.created", subscription, { created: t }), "applied");
  await useUp(a.accountId, 6000);
  assert.equal((await dispatch()).status, 200, "6,000 of pro's 25,000");

  const downgraded = env.stripe.updateSubscription(subscription.id, { price: "price_hobby_monthly" });
  await deliver(env.api, env.stripe.event("customer.subscription.updated", downgraded, { created: t + 30 }), "applied");
  const refused = await dispatch();
  assertEnvelope(workflow, refused, 402, "plan_limit_reached");
  assert.deepEqual(refused.body.details, { current_period_sends: 6000, monthly_limit: 5000, plan_slug: "hobby" });
});

test("a deleted subscription applies the free limit from the next dispatch; the free months roll on from the last period", async () => {
  const a = await payingAccount(env);
  const { dispatch, workflow } = await dispatchable(a);
  const subscription = await subscribe(env, a.token, "hobby");
  const t = nowSeconds();
  await deliver(env.api, env.stripe.event("customer.subscription.created", subscription, { created: t }), "applied");
  await useUp(a.accountId, 150);
  assert.equal((await dispatch()).status, 200);

  const canceled = env.stripe.updateSubscription(subscription.id, { status: "canceled" });
  await deliver(env.api, env.stripe.event("customer.subscription.deleted", canceled, { created: t + 30 }), "applied");
  const refused = await dispatch();
  assertEnvelope(workflow, refused, 402, "plan_limit_reached");
  assert.deepEqual(refused.body.details, { current_period_sends: 150, monthly_limit: 100, plan_slug: "free" });

  const shown = await subscriptionOf(env, a.token);
  assert.equal(shown.plan.slug, "free");
  assert.equal(shown.status, "canceled");
  // the period the sends were counted in is kept; the next free month starts at its end
  assert.equal(shown.current_period_start, new Date(subscription.items.data[0].current_period_start * 1000).toISOString());
  const next = await getPlanUsage(db(), a.accountId, new Date(subscription.items.data[0].current_period_end * 1000 + 1000));
  assert.equal(next.periodStart.toISOString(), new Date(subscription.items.data[0].current_period_end * 1000).toISOString());
  assert.equal(next.currentPeriodSends, 0);
  assert.equal(next.limitReached, false);
});

test("a subscription that no longer pays (unpaid) falls back to the free limit; paying again restores the plan", async () => {
  const a = await payingAccount(env);
  const { dispatch, workflow } = await dispatchable(a);
  const subscription = await subscribe(env, a.token, "pro");
  const t = nowSeconds();
  await deliver(env.api, env.stripe.event("customer.subscription.created", subscription, { created: t }), "applied");
  await useUp(a.accountId, 500);
  await deliver(env.api, env.stripe.event("customer.subscription.updated", env.stripe.updateSubscription(subscription.id, { status: "unpaid" }), { created: t + 10 }), "applied");
  assertEnvelope(workflow, await dispatch(), 402, "plan_limit_reached");
  assert.equal((await subscriptionOf(env, a.token)).status, "unpaid");

  const invoice = { id: "in_late", object: "invoice", customer: a.customerId, parent: { subscription_details: { subscription: subscription.id } } };
  await deliver(env.api, env.stripe.event("invoice.paid", invoice, { created: t + 20 }), "applied");
  assert.equal((await dispatch()).status, 200);
  const shown = await subscriptionOf(env, a.token);
  assert.equal(shown.plan.slug, "pro");
  assert.equal(shown.status, "active");
});
