import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { TEST_SEND_DAILY_LIMIT } from "../src/services/queue-test-send.js";
import { signUp } from "./helpers.js";
import { assertEnvelope, call, createCampaign, importContacts, QueueProbe, startWorkflowApi, type WorkflowEnv } from "./workflow-fixtures.js";

let env: WorkflowEnv;
let probe: QueueProbe<"test-send">;

before(async () => {
  env = await startWorkflowApi();
  probe = new QueueProbe(env, "test-send");
});
after(async () => {
  await probe?.close();
  await env?.api.close();
});

const db = () => env.api.database.db;

async function jobsOf(campaignId: string) {
  return (await probe.jobs()).filter((job) => job.campaignId === campaignId);
}

describe("POST /campaigns/:id/test_send", () => {
  test("queues one test-send job per address, lower-cased and de-duplicated case-insensitively in order", async () => {
    const campaign = await createCampaign(env);
    const res = await call(env, "POST", `/campaigns/${campaign.id}/test_send`, {
      body: { emails: ["Me@Example.com", " qa@example.org ", "me@example.COM", "boss@example.net"] },
    });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, {
      campaign_id: campaign.id,
      queued: 3,
      emails: ["me@example.com", "qa@example.org", "boss@example.net"],
      skipped: [],
      allowance: { limit: TEST_SEND_DAILY_LIMIT, remaining: TEST_SEND_DAILY_LIMIT - 3 },
    });
    const jobs = await jobsOf(campaign.id);
    assert.deepEqual(jobs.map((job) => job.email).sort(), ["boss@example.net", "me@example.com", "qa@example.org"]);
    for (const job of jobs) assert.deepEqual(Object.keys(job).sort(), ["accountId", "campaignId", "email"]);
    assert.ok(jobs.every((job) => job.accountId === env.a.accountId));
    // not an enrollment, not a contact, not a send counted against the plan
    assert.equal(await db().enrollment.count({ where: { campaignId: campaign.id } }), 0);
    assert.equal(await db().contact.count({ where: { accountId: env.a.accountId, email: "boss@example.net" } }), 0);
    assert.equal(await db().usagePeriod.count({ where: { accountId: env.a.accountId } }), 0);
  });

  test("missing, empty or non-array emails are 422 no_emails_provided; nothing is queued", async () => {
    const campaign = await createCampaign(env);
    for (const body of [undefined, {}, { emails: [] }, { emails: null }, { emails: "me@example.com" }, { emails: { a: "me@example.com" } }]) {
      const res = await call(env, "POST", `/campaigns/${campaign.id}/test_send`, body === undefined ? {} : { body });
      assertEnvelope(env, res, 422, "no_emails_provided");
    }
    assert.deepEqual(await jobsOf(campaign.id), []);
  });

  test("an invalid address, more than 25 addresses or an unknown field is 422 validation_failed; nothing is queued", async () => {
    const campaign = await createCampaign(env);
    const cases: Array<[unknown, RegExp]> = [
      [{ emails: ["ok@example.com", "not an email"] }, /emails\[1\] must be a valid email/],
      [{ emails: ["ok@example.com", 42] }, /emails\[1\] must be a string/],
      [{ emails: ["ok@example.com", null] }, /emails\[1\]/],
      [{ emails: ["user@localhost"] }, /must be a valid email/],
      [{ emails: [`${"a".repeat(250)}@example.com`] }, /emails\[0\]/],
      [{ emails: ["nul\u0000@example.com"] }, /emails\[0\]/],
      [{ emails: Array.from({ length: 26 }, (_, i) => `u${i}@example.com`) }, /emails must contain less than or equal to 25 items/],
      [{ emails: ["ok@example.com"], subject: "x" }, /subject is not allowed/],
      [["ok@example.com"], /must be of type object/],
    ];
    for (const [body, message] of cases) {
      assertEnvelope(env, await call(env, "POST", `/campaigns/${campaign.id}/test_send`, { body }), 422, "validation_failed", message);
    }
    const max = await call(env, "POST", `/campaigns/${campaign.id}/test_send`, { body: { emails: Array.from({ length: 25 }, (_, i) => `u${i}@example.com`) } });
    assert.deepEqual([max.status, max.body.queued], [200, 25]);
    assert.equal((await jobsOf(campaign.id)).length, 25);
  });

  test("unknown, malformed and another account's campaigns are 404 campaign_not_found; nothing is queued", async () => {
    const foreign = await createCampaign(env, {}, env.b.token);
    for (const id of [randomUUID(), "zzz", foreign.id]) {
      assertEnvelope(env, await call(env, "POST", `/campaigns/${id}/test_send`, { body: { emails: ["me@example.com"] } }), 404, "campaign_not_found");
    }
    assert.deepEqual(await jobsOf(foreign.id), []);
  });

  test("an address that unsubscribed in the account is never test-sent to; another account's unsubscribe does not count", async () => {
    const campaign = await createCampaign(env);
    await importContacts(env, ["gone@example.com", "stays@example.com"]);
    await db().contact.updateMany({ where: { accountId: env.a.accountId, email: "gone@example.com" }, data: { unsubscribedAt: new Date() } });
    await importContacts(env, ["other-gone@example.com"], env.b.token);
    await db().contact.updateMany({ where: { accountId: env.b.accountId, email: "other-gone@example.com" }, data: { unsubscribedAt: new Date() } });

    const res = await call(env, "POST", `/campaigns/${campaign.id}/test_send`, { body: { emails: ["Gone@Example.com", "stays@example.com", "other-gone@example.com"] } });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.emails, ["stays@example.com", "other-gone@example.com"]);
    assert.deepEqual(res.body.skipped, [{ email: "gone@example.com", reason: "unsubscribed" }]);
    assert.deepEqual((await jobsOf(campaign.id)).map((job) => job.email).sort(), ["other-gone@example.com", "stays@example.com"]);

    const none = await call(env, "POST", `/campaigns/${campaign.id}/test_send`, { body: { emails: ["gone@example.com"] } });
    assertEnvelope(env, none, 422, "unprocessable", /unsubscribed/);
    assert.deepEqual(none.body.details, { skipped: [{ email: "gone@example.com", reason: "unsubscribed" }] });
    assert.equal((await jobsOf(campaign.id)).length, 2, "nothing more was queued");
  });

  test(`test sends are limited to ${TEST_SEND_DAILY_LIMIT} addresses per account per UTC day: past it, 429 rate_limited and nothing queued`, async () => {
    const fresh = await signUp(env.api);
    const campaign = await createCampaign(env, {}, fresh.token);
    const batch = (n: number) => ({ emails: Array.from({ length: 25 }, (_, i) => `allowance-${n}-${i}@example.com`) });
    for (let n = 0; n < TEST_SEND_DAILY_LIMIT / 25; n++) {
      const ok = await call(env, "POST", `/campaigns/${campaign.id}/test_send`, { body: batch(n), token: fresh.token });
      assert.equal(ok.status, 200, ok.text);
      assert.equal(ok.body.allowance.remaining, TEST_SEND_DAILY_LIMIT - 25 * (n + 1));
    }
    const over = await call(env, "POST", `/campaigns/${campaign.id}/test_send`, { body: { emails: ["one-more@example.com"] }, token: fresh.token });
    assertEnvelope(env, over, 429, "rate_limited", /per account per day/);
    assert.deepEqual(over.body.details, { limit: TEST_SEND_DAILY_LIMIT, period: 86_400 });
    const retryAfter = Number(over.headers.get("retry-after"));
    assert.ok(retryAfter >= 1 && retryAfter <= 86_400, `Retry-After ${retryAfter}`);
    assert.equal((await jobsOf(campaign.id)).length, TEST_SEND_DAILY_LIMIT);
    // another account's allowance is its own
    const other = await createCampaign(env, {}, env.b.token);
    assert.equal((await call(env, "POST", `/campaigns/${other.id}/test_send`, { body: { emails: ["b@example.com"] }, token: env.b.token })).status, 200);
  });
});
