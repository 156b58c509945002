import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { startStripeStandIn, type StripeStandIn } from "@outreach/testing";
import { assertError, request, startTestApi, type TestApi } from "./helpers.js";

const PROVIDER_DETAIL = "upstream billing-db-7.internal rejected key sk_live_SECRETMARKER42";

let api: TestApi;
let stripe: StripeStandIn;

before(async () => {
  stripe = await startStripeStandIn();
  api = await startTestApi({ STRIPE_SECRET_KEY: "sk_test_standin", STRIPE_API_BASE: stripe.url });
});

after(async () => {
  await api?.close();
  await stripe?.close();
});

test("a payment-provider failure at signup answers a fixed 503: the provider's error text is only logged", async () => {
  const logged: string[] = [];
  const logger = api.ctx.logger;
  const original = logger.error.bind(logger);
  logger.error = ((message: unknown, meta?: unknown) => {
    logged.push(JSON.stringify([message, meta]));
    return original(message as string, meta as object);
  }) as typeof logger.error;
  try {
    stripe.failNext(10, 500, PROVIDER_DETAIL);
    const res = await request(api.baseUrl, "POST", "/signup", { body: { email: "provider-down@example.com" } });
    stripe.failNext(0);
    assertError(res, api, 503, "service_unavailable", /payment provider could not be reached/);
    assert.ok(!res.text.includes("SECRETMARKER42"), res.text);
    assert.ok(!res.text.includes("billing-db-7"), res.text);
    assert.ok(
      logged.some((line) => line.includes("SECRETMARKER42")),
      "the detail is in the log",
    );
    assert.equal(await api.database.db.account.count({ where: { email: "provider-down@example.com" } }), 0);
  } finally {
    logger.error = original;
  }
});
