import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createLogger } from "@outreach/core";
import { executor } from "@outreach/db";
import { accountsWithDueSends, releaseDueSends, type ReleasedSend } from "@outreach/domain";
import { addCampaign, createTestDatabase, type TestDatabase } from "@outreach/testing";
import { DEFAULT_FEEDER_OPTIONS, Feeder, type FeederOptions } from "../src/feeder.js";
import { addDueSends, seedAccounts } from "./seed-due-sends.js";

// The feeder serves every account with due sends, however many there are: each
// tick looks at a bounded number of accounts and the next tick goes on where it
// stopped. Campaigns that are paused cost nothing per tick, however many due
// sends they hold.
let database: TestDatabase;
before(async () => {
  database = await createTestDatabase();
});
after(() => database?.drop());

const logger = createLogger({ service: "dispatcher", level: "error" });

function feederOf(db: TestDatabase, options: Partial<FeederOptions> = {}) {
  const released: ReleasedSend[] = [];
  const feeder = new Feeder(
    db.db,
    async (sends) => void released.push(...sends),
    logger,
    async () => [],
    async () => [],
    { ...DEFAULT_FEEDER_OPTIONS, ...options },
  );
  return { feeder, released };
}

/** Ends the sends of earlier tests. */
async function clearSchedule() {
  await executor(database.db).execute(`UPDATE step_sends SET state = 'cancelled' WHERE state IN ('scheduled', 'queued')`);
}

test("more accounts with a backlog than the feeder's default cap: every account gets sends released within a few ticks", async () => {
  await clearSchedule();
  const campaigns = await seedAccounts(database.db, 1_050);
  // more due sends than free slots: every account still has due sends after its release
  for (const campaign of campaigns) await addDueSends(database.db, campaign, 12);
  const { feeder, released } = feederOf(database);
  for (let i = 0; i < 3; i++) await feeder.tick();
  const served = new Set(released.map((r) => r.accountId));
  const starved = campaigns.filter((c) => !served.has(c.accountId));
  assert.equal(starved.length, 0, `${starved.length} accounts never got a send released`);
  assert.equal(released.length, campaigns.length * 10, "each account filled its 10 slots");
});

test("with a cap of 20 accounts per tick, 50 accounts are all served in turn, the cursor wrapping around", async () => {
  await clearSchedule();
  const campaigns = await seedAccounts(database.db, 50);
  // two sends each: the second is released only when the account comes round again
  for (const campaign of campaigns) await addDueSends(database.db, campaign, 2);
  const { feeder, released } = feederOf(database, { maxAccountsPerTick: 20 });
  const perTick: number[] = [];
  for (let i = 0; i < 3; i++) {
    const before = released.length;
    await feeder.tick();
    perTick.push(released.length - before);
  }
  assert.ok(
    perTick.every((n) => n <= 40),
    `a tick serves at most 20 accounts: ${perTick}`,
  );
  assert.equal(new Set(released.map((r) => r.accountId)).size, 50, "every account was served after 3 ticks");
  // sends come back from the queue as sent; the accounts are served again on the next round
  await executor(database.db).execute(`UPDATE step_sends SET state = 'sent' WHERE state = 'queued'`);
  for (let i = 0; i < 3; i++) await feeder.tick();
  const stillDue = await database.db.stepSend.count({ where: { campaignId: { in: campaigns.map((c) => c.campaignId) }, stepPosition: 1, state: "scheduled" } });
  assert.equal(stillDue, 0, "the second round served every account again");
});

test("an account whose only due sends belong to a paused campaign is not listed; one with an active campaign too gets that campaign's sends released", async () => {
  // a database of its own: rows read are counted, and earlier tests' rows (dead index entries) would count too
  const own = await createTestDatabase();
  try {
    await pausedCampaignsCostNothing(own);
  } finally {
    await own.drop();
  }
});

async function pausedCampaignsCostNothing(database: TestDatabase) {
  const [pausedOnly, mixed] = await seedAccounts(database.db, 2, "paused");
  const longAgo = new Date(Date.now() - 3_600_000);
  await addDueSends(database.db, pausedOnly!, 3_000, longAgo);
  await addDueSends(database.db, mixed!, 3_000, longAgo);
  const active = await addCampaign(database.db, mixed!.accountId, "active");
  const activeSends = await addDueSends(database.db, active, 3);

  const { feeder } = feederOf(database);
  // What one feeder pass over these accounts reads of step_sends, counted by PostgreSQL for this transaction.
  const { listed, touched } = await database.db.$transaction(async (tx) => {
    const page = await accountsWithDueSends(tx, new Date());
    for (const accountId of [pausedOnly!.accountId, mixed!.accountId]) await releaseDueSends(tx, accountId);
    const [stats] = await executor(tx).rows<{ rows: bigint }>(`
      SELECT (coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0))::bigint AS rows FROM pg_stat_xact_user_tables WHERE relname = 'step_sends'`);
    return { listed: page.accountIds, touched: Number(stats?.rows ?? 0) };
  });
  assert.ok(touched < 500, `6,000 due sends of paused campaigns are not read on a pass (read ${touched} rows)`);
  assert.ok(!listed.includes(pausedOnly!.accountId), "the paused-only account is not listed");
  assert.ok(listed.includes(mixed!.accountId), "the account with an active campaign is listed");
  const state = await database.db.stepSend.findMany({ where: { id: { in: activeSends } }, select: { state: true } });
  assert.deepEqual(
    state.map((s) => s.state),
    ["queued", "queued", "queued"],
    "the active campaign's sends were released",
  );
  assert.equal(await feeder.tick(), 0, "nothing more to release: the paused campaign's sends stay");
  assert.equal(await database.db.stepSend.count({ where: { campaignId: pausedOnly!.campaignId, state: "queued" } }), 0);
}
