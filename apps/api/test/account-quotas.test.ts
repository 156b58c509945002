import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { setAccountQuotas, tierQuotas } from "@outreach/domain";
import { assertError, request, signUp, startTestApi, type JsonResponse, type TestApi } from "./helpers.js";

// One cheap (free) account must not multiply limits: keys, campaigns, webhooks,
// SMTP credentials and watched inboxes are counted against its plan tier's
// quotas, which an operator can raise or lower per account. Keys and webhooks are
// tried at the free tier's own limits; campaigns, credentials and inboxes (hundreds
// on free) under a small override, which is counted the same way.
const FREE = tierQuotas(0);
let api: TestApi;
before(async () => {
  api = await startTestApi({ SIGNUP_LIMIT_PER_HOUR: "1000", RATE_LIMIT_PER_MINUTE: "100000", WEBHOOK_ALLOW_PRIVATE_URLS: "true" });
});
after(() => api?.close());

const post = (token: string, path: string, body: unknown) => request(api.baseUrl, "POST", path, { token, body });

function credential(index: number, imap: boolean) {
  return {
    label: `Inbox ${index}`,
    from_email: `sender${index}@example.com`,
    smtp_host: "127.0.0.1",
    smtp_port: 587,
    smtp_username: `sender${index}`,
    smtp_password: "pw",
    daily_limit: 10,
    ...(imap ? { imap_host: "127.0.0.1", imap_port: 993, imap_username: `sender${index}`, imap_password: "pw" } : {}),
  };
}

function campaign(credentials: number, imapInboxes = 0) {
  return {
    campaign: {
      name: "Quota",
      smtp_credentials: Array.from({ length: credentials }, (_, i) => credential(i, i < imapInboxes)),
      sequence_steps: [{ position: 1, subject: "Hi", body_html: "<p>Hi</p>" }],
    },
  };
}

const newKey = (token: string) => post(token, "/api_keys", { label: "more" });
const newWebhook = (token: string) => post(token, "/webhooks", { url: "http://127.0.0.1:9/hook" });
const newCampaign = (token: string, credentials = 1, imapInboxes = 0) => post(token, "/campaigns", campaign(credentials, imapInboxes));

function assertQuotaExceeded(res: JsonResponse, details: { quota: string; limit: number; current: number; requested?: number }): void {
  assertError(res, api, 422, "quota_exceeded", new RegExp(`^Quota ${details.quota} exceeded: the account may hold at most ${details.limit} .* and has ${details.current}\\b`));
  assert.deepEqual(res.body.details, { requested: 1, plan_slug: "free", ...details });
}

async function createAll(count: number, create: () => Promise<JsonResponse>): Promise<void> {
  for (let i = 0; i < count; i++) {
    const res = await create();
    assert.equal(res.status, 201, res.text);
  }
}

test("API keys: the key past a free account's quota is refused; a revoked key frees its slot; an override raises the quota", async () => {
  const { token, accountId } = await signUp(api); // the signup key is the first
  const limit = FREE.api_keys!;
  await createAll(limit - 1, () => newKey(token));
  assertQuotaExceeded(await newKey(token), { quota: "api_keys", limit, current: limit });
  assert.equal(await api.database.db.apiKey.count({ where: { accountId } }), limit);

  const keys = (await request(api.baseUrl, "GET", "/api_keys", { token })).body;
  assert.equal((await request(api.baseUrl, "DELETE", `/api_keys/${keys[4].id}`, { token })).status, 200);
  await createAll(1, () => newKey(token));
  assertQuotaExceeded(await newKey(token), { quota: "api_keys", limit, current: limit });

  await setAccountQuotas(api.database.db, accountId, [["api_keys", limit + 2]]);
  await createAll(2, () => newKey(token));
  assertQuotaExceeded(await newKey(token), { quota: "api_keys", limit: limit + 2, current: limit + 2 });
});

test("webhooks: the one past a free account's quota is refused; an override raises the quota, unlimited lifts it", async () => {
  const { token, accountId } = await signUp(api);
  const limit = FREE.webhooks!;
  await createAll(limit, () => newWebhook(token));
  assertQuotaExceeded(await newWebhook(token), { quota: "webhooks", limit, current: limit });
  await setAccountQuotas(api.database.db, accountId, [["webhooks", limit + 1]]);
  await createAll(1, () => newWebhook(token));
  assertQuotaExceeded(await newWebhook(token), { quota: "webhooks", limit: limit + 1, current: limit + 1 });
  await setAccountQuotas(api.database.db, accountId, [["webhooks", null]]);
  await createAll(2, () => newWebhook(token));
  assert.equal(await api.database.db.webhook.count({ where: { accountId } }), limit + 3);
});

test("campaigns: the one past the quota is refused, nothing of it written; deleting one frees its slot; an override raises the quota", async () => {
  const { token, accountId } = await signUp(api);
  await setAccountQuotas(api.database.db, accountId, [["campaigns", 10]]);
  await createAll(10, () => newCampaign(token));
  const refused = await newCampaign(token);
  assertQuotaExceeded(refused, { quota: "campaigns", limit: 10, current: 10 });
  assert.equal(await api.database.db.campaign.count({ where: { accountId } }), 10);
  assert.equal(await api.database.db.smtpCredential.count({ where: { accountId } }), 10);

  const [first] = (await request(api.baseUrl, "GET", "/campaigns", { token })).body;
  assert.equal((await request(api.baseUrl, "DELETE", `/campaigns/${first.id}`, { token })).status, 200);
  await createAll(1, () => newCampaign(token));
  assertQuotaExceeded(await newCampaign(token), { quota: "campaigns", limit: 10, current: 10 });
  await setAccountQuotas(api.database.db, accountId, [["campaigns", 11]]);
  await createAll(1, () => newCampaign(token));
  assertQuotaExceeded(await newCampaign(token), { quota: "campaigns", limit: 11, current: 11 });
});

test("SMTP credentials are counted across the account's campaigns: a campaign that would pass the quota is refused whole", async () => {
  const { token, accountId } = await signUp(api);
  await setAccountQuotas(api.database.db, accountId, [["smtp_credentials", 20]]);
  await createAll(1, () => newCampaign(token, 15));
  assertQuotaExceeded(await newCampaign(token, 6), { quota: "smtp_credentials", limit: 20, current: 15, requested: 6 });
  assert.equal(await api.database.db.campaign.count({ where: { accountId } }), 1);
  await createAll(1, () => newCampaign(token, 5));
  assertQuotaExceeded(await newCampaign(token, 1), { quota: "smtp_credentials", limit: 20, current: 20 });
  await setAccountQuotas(api.database.db, accountId, [["smtp_credentials", 21]]);
  await createAll(1, () => newCampaign(token, 1));
  assert.equal(await api.database.db.smtpCredential.count({ where: { accountId } }), 21);
});

test("IMAP inboxes watched are counted apart: credentials without IMAP settings still fit", async () => {
  const { token, accountId } = await signUp(api);
  await setAccountQuotas(api.database.db, accountId, [["imap_inboxes", 10]]);
  await createAll(1, () => newCampaign(token, 10, 10));
  assertQuotaExceeded(await newCampaign(token, 2, 1), { quota: "imap_inboxes", limit: 10, current: 10 });
  await createAll(1, () => newCampaign(token, 2, 0));
  await setAccountQuotas(api.database.db, accountId, [["imap_inboxes", 11]]);
  await createAll(1, () => newCampaign(token, 1, 1));
  assertQuotaExceeded(await newCampaign(token, 1, 1), { quota: "imap_inboxes", limit: 11, current: 11 });
  assert.equal(await api.database.db.smtpCredential.count({ where: { accountId, imapHost: { not: null } } }), 11);
});

/** Sends `count` creations at once; answers their statuses. */
async function race(count: number, create: () => Promise<JsonResponse>): Promise<number[]> {
  const results = await Promise.all(Array.from({ length: count }, create));
  for (const res of results) if (res.status !== 201) assert.equal(res.body?.code, "quota_exceeded", res.text);
  return results.map((res) => res.status);
}

test("concurrent creations at the limit: of 10 at once for the last slot, exactly one gets it (keys, webhooks, campaigns)", async () => {
  const { token, accountId } = await signUp(api);
  await setAccountQuotas(api.database.db, accountId, [
    ["api_keys", 5],
    ["webhooks", 5],
    ["campaigns", 10],
  ]);
  await createAll(3, () => newKey(token));
  const keys = await race(10, () => newKey(token));
  assert.equal(keys.filter((status) => status === 201).length, 1, String(keys));
  assert.equal(await api.database.db.apiKey.count({ where: { accountId, revokedAt: null } }), 5);

  await createAll(4, () => newWebhook(token));
  const webhooks = await race(10, () => newWebhook(token));
  assert.equal(webhooks.filter((status) => status === 201).length, 1, String(webhooks));
  assert.equal(await api.database.db.webhook.count({ where: { accountId } }), 5);

  await createAll(9, () => newCampaign(token));
  const campaigns = await race(10, () => newCampaign(token));
  assert.equal(campaigns.filter((status) => status === 201).length, 1, String(campaigns));
  assert.equal(await api.database.db.campaign.count({ where: { accountId } }), 10);
});

test("GET /billing/subscription shows each quota's limit (the free tier's, or the override) and what the account holds", async () => {
  const { token, accountId } = await signUp(api);
  await createAll(1, () => newCampaign(token, 3, 2));
  await setAccountQuotas(api.database.db, accountId, [["campaigns", null]]);
  const res = await request(api.baseUrl, "GET", "/billing/subscription", { token });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body.quotas, {
    api_keys: { limit: 25, current: 1 },
    campaigns: { limit: null, current: 1 },
    webhooks: { limit: 25, current: 0 },
    smtp_credentials: { limit: 500, current: 3 },
    imap_inboxes: { limit: 50, current: 2 },
  });
});
