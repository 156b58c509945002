import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { promisify } from "node:util";
import { after, before, test } from "node:test";
import { AppMetrics, createRedis, Keyring, loadConfig, redisKeys, replyClassifierSeries, type Config, type ReplyClassifierConfig, type RedisClient } from "@outreach/core";
import { createTestDatabase, REPO_ROOT, startModelStandIn, type ImapTestServer, type ModelStandIn, type TestDatabase } from "@outreach/testing";
import { categorizeReplyByModel, type ModelCategoryDeps } from "../src/categorize-reply-by-model.js";
import { pollerEnv, seedInbox, type SeededInbox } from "./helpers.js";

// The categorize-reply job against a real PostgreSQL and Redis and a local
// stand-in of the model's endpoint (it counts the questions it is asked).
// The whole path through Dovecot and the poller is in model-category.test.ts.

let database: TestDatabase;
let redis: RedisClient;
let standIn: ModelStandIn;
let config: Config;
let keyring: Keyring;
let metrics: AppMetrics;
let calls: ReturnType<typeof replyClassifierSeries>["calls"];

// the seed only names the inbox's IMAP user; no IMAP server is reached here
const noImap = { host: "127.0.0.1", port: 1, addUser: async () => undefined } as unknown as ImapTestServer;

before(async () => {
  standIn = await startModelStandIn();
  database = await createTestDatabase();
  config = loadConfig("imap-poller", pollerEnv(database, { LOG_LEVEL: "error" }));
  keyring = Keyring.fromConfig(config);
  redis = createRedis(config, "producer");
  metrics = new AppMetrics("imap-poller");
  calls = replyClassifierSeries(metrics).calls;
});
after(async () => {
  await redis?.quit();
  await database?.drop();
  await standIn?.close();
});

const silent = { info: () => undefined, warn: () => undefined };

function deps(classifier: Partial<ReplyClassifierConfig> = {}): ModelCategoryDeps {
  return {
    db: database.db,
    redis,
    config,
    calls,
    logger: silent,
    classifier: { url: standIn.url, apiKey: standIn.apiKey, model: "stand-in", timeoutMs: 2_000, dailyBudget: 100, ...classifier },
  };
}

let uid = 0n;

/** A stored reply of the seeded enrollment, categorized as given. */
async function storeReply(seeded: SeededInbox, text: string, category: { category: string; categorySource: string } = { category: "other", categorySource: "rules" }): Promise<string> {
  const enrollment = seeded.enrollments[0]!;
  uid += 1n;
  const row = await database.db.inboundMessage.create({
    data: {
      credentialId: seeded.credentialId,
      accountId: seeded.accountId,
      campaignId: seeded.campaignId,
      enrollmentId: enrollment.enrollmentId,
      uidValidity: 1n,
      uid,
      kind: "reply",
      fromEmail: enrollment.contactEmail,
      subject: "Re: Hello",
      bodyText: text,
      ...category,
      categorizedAt: new Date(),
    },
  });
  return row.id;
}

const categoryOf = async (id: string) => database.db.inboundMessage.findUniqueOrThrow({ where: { id }, select: { category: true, categorySource: true } });

async function sample(outcome: string): Promise<number> {
  const values = (await calls.get()).values;
  return values.find((value) => value.labels.outcome === outcome)?.value ?? 0;
}

test("a label other than other becomes the reply's category, source model, with reply.categorized", async () => {
  const seeded = await seedInbox(database.db, keyring, noImap);
  const replyId = await storeReply(seeded, "Hmm, tell me more about the second point.");
  standIn.answer = () => ({ label: "interested" });
  const categorized = await sample("categorized");
  assert.equal(await categorizeReplyByModel(deps(), { accountId: seeded.accountId, replyId }), "categorized interested");
  assert.deepEqual(await categoryOf(replyId), { category: "interested", categorySource: "model" });
  const events = await database.db.event.findMany({ where: { accountId: seeded.accountId, type: "reply.categorized" } });
  assert.equal(events.length, 1);
  assert.equal((events[0]!.data as Record<string, unknown>).category_source, "model");
  assert.equal(await sample("categorized"), categorized + 1);
  // the job again (a retry, a second copy) asks nothing: the reply is no longer the rules' other
  const asked = standIn.requests.length;
  assert.equal(await categorizeReplyByModel(deps(), { accountId: seeded.accountId, replyId }), "categorized already");
  assert.equal(standIn.requests.length, asked);
});

test("the model answering other, garbage or a label outside the set keeps the rules' other", async () => {
  const seeded = await seedInbox(database.db, keyring, noImap);
  for (const answer of [{ label: "other" }, { content: "I think they are interested" }, { label: "hot_lead" }]) {
    const replyId = await storeReply(seeded, "Hmm, tell me more about the second point.");
    standIn.answer = () => answer;
    await categorizeReplyByModel(deps(), { accountId: seeded.accountId, replyId });
    assert.deepEqual(await categoryOf(replyId), { category: "other", categorySource: "rules" }, JSON.stringify(answer));
  }
});

test("a reply a person or the rules categorized is never asked; another account's reply id is not read", async () => {
  const seeded = await seedInbox(database.db, keyring, noImap);
  const manual = await storeReply(seeded, "Tell me more.", { category: "other", categorySource: "manual" });
  const byRules = await storeReply(seeded, "Not interested, thanks.", { category: "not_interested", categorySource: "rules" });
  const other = await storeReply(seeded, "Tell me more.");
  standIn.answer = () => ({ label: "interested" });
  const asked = standIn.requests.length;
  assert.equal(await categorizeReplyByModel(deps(), { accountId: seeded.accountId, replyId: manual }), "categorized already");
  assert.equal(await categorizeReplyByModel(deps(), { accountId: seeded.accountId, replyId: byRules }), "categorized already");
  assert.equal(await categorizeReplyByModel(deps(), { accountId: randomUUID(), replyId: other }), "no such reply");
  assert.equal(standIn.requests.length, asked);
  assert.deepEqual(await categoryOf(manual), { category: "other", categorySource: "manual" });
});

test("a failed or timed-out question fails the job while it has an attempt left, then the rules' answer stays", async () => {
  const seeded = await seedInbox(database.db, keyring, noImap);
  const replyId = await storeReply(seeded, "Hmm, tell me more about the second point.");
  standIn.answer = () => ({ status: 500 });
  await assert.rejects(categorizeReplyByModel(deps(), { accountId: seeded.accountId, replyId }, { attemptsMade: 0, opts: { attempts: 2 } }), /asking once more/);
  assert.equal(await categorizeReplyByModel(deps(), { accountId: seeded.accountId, replyId }, { attemptsMade: 1, opts: { attempts: 2 } }), "failed");
  standIn.answer = () => ({ delayMs: 60_000, then: { label: "interested" } });
  assert.equal(await categorizeReplyByModel(deps({ timeoutMs: 200 }), { accountId: seeded.accountId, replyId }, { attemptsMade: 1, opts: { attempts: 2 } }), "timeout");
  assert.deepEqual(await categoryOf(replyId), { category: "other", categorySource: "rules" });
});

test("the budget: an account's (N+1)th question of the UTC day is not asked, another account's still is", async () => {
  const budget = 3;
  const first = await seedInbox(database.db, keyring, noImap);
  const second = await seedInbox(database.db, keyring, noImap);
  standIn.answer = () => ({ label: "other" });
  const askedBefore = standIn.requests.length;
  const overBudget = await sample("over_budget");
  const outcomes: string[] = [];
  for (let i = 0; i < budget + 2; i++) {
    const replyId = await storeReply(first, `Question ${i} about the second point.`);
    outcomes.push(await categorizeReplyByModel(deps({ dailyBudget: budget }), { accountId: first.accountId, replyId }));
  }
  assert.deepEqual(outcomes, ["other", "other", "other", "over_budget", "over_budget"]);
  assert.equal(standIn.requests.length - askedBefore, budget, "the stand-in was asked exactly the budget's number of times");
  assert.equal(await sample("over_budget"), overBudget + 2);

  const replyId = await storeReply(second, "A question from another account.");
  assert.equal(await categorizeReplyByModel(deps({ dailyBudget: budget }), { accountId: second.accountId, replyId }), "other");
  assert.equal(standIn.requests.length - askedBefore, budget + 1, "another account has its own budget");

  // the counter is the account's for the UTC day, and expires by itself
  const key = redisKeys.replyClassifierBudget(config, first.accountId, new Date());
  assert.equal(Number(await redis.get(key)), budget + 2);
  assert.ok((await redis.ttl(key)) > 86_400);
});

test("a budget of 0 asks nothing", async () => {
  const seeded = await seedInbox(database.db, keyring, noImap);
  const replyId = await storeReply(seeded, "Tell me more.");
  const asked = standIn.requests.length;
  assert.equal(await categorizeReplyByModel(deps({ dailyBudget: 0 }), { accountId: seeded.accountId, replyId }), "over_budget");
  assert.equal(standIn.requests.length, asked);
});

test("the poller does not start with REPLY_CLASSIFIER_URL but no key: it exits 1 naming REPLY_CLASSIFIER_API_KEY", async () => {
  const env = { PATH: process.env.PATH ?? "", ...pollerEnv(database), REPLY_CLASSIFIER_URL: standIn.url };
  const started = promisify(execFile)(process.execPath, ["--import", "tsx", join(REPO_ROOT, "apps/imap-poller/src/main.ts")], { cwd: REPO_ROOT, env, timeout: 60_000 });
  await assert.rejects(started, (err: { code?: number; stderr?: string }) => err.code === 1 && /REPLY_CLASSIFIER_API_KEY: required when REPLY_CLASSIFIER_URL is set/.test(err.stderr ?? ""));
});
