import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createTestDatabase, uniqueQueuePrefix, type TestDatabase } from "../src/database.js";

let first: TestDatabase;
let second: TestDatabase;

before(async () => {
  [first, second] = await Promise.all([createTestDatabase(), createTestDatabase()]);
});
after(async () => {
  await Promise.all([first?.drop(), second?.drop()]);
});

test("each test database is migrated and seeded with the default plans", async () => {
  const plans = await first.db.plan.findMany({ orderBy: { tier: "asc" } });
  assert.deepEqual(
    plans.map((p) => p.slug),
    ["free", "hobby", "pro", "scale", "founder"].sort((a, b) => plans.find((p) => p.slug === a)!.tier - plans.find((p) => p.slug === b)!.tier),
  );
  const free = plans.find((p) => p.slug === "free")!;
  assert.equal(free.monthlyLimit, 100);
  assert.equal(free.providerPriceId, null);
  assert.equal(plans.find((p) => p.slug === "founder")!.public, false);
});

test("test databases are isolated from each other", async () => {
  const plan = await first.db.plan.findUniqueOrThrow({ where: { slug: "free" } });
  await first.db.account.create({ data: { email: "isolated@example.test", planId: plan.id, currentPeriodEnd: new Date(Date.now() + 86_400_000) } });
  assert.equal(await first.db.account.count(), 1);
  assert.equal(await second.db.account.count(), 0);
  assert.notEqual(first.name, second.name);
});

test("queue prefixes are unique per call", () => {
  assert.notEqual(uniqueQueuePrefix(), uniqueQueuePrefix());
});
