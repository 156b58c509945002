import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { assertError, request, signUp, startTestApi, type TestApi } from "./helpers.js";

let api: TestApi;
before(async () => {
  api = await startTestApi({ SIGNUP_LIMIT_PER_HOUR: "1000", RATE_LIMIT_PER_MINUTE: "100000" });
});
after(() => api?.close());

const OUTREACH_KEYS = ["campaign_ids", "created_at", "id", "name", "unique_contacts"];
const UNKNOWN_ID = "00000000-0000-4000-8000-000000000000";

async function createOutreach(token: string, body: unknown = { outreach: { name: "Q3 push" } }) {
  const res = await request(api.baseUrl, "POST", "/outreaches", { token, body });
  assert.equal(res.status, 201, res.text);
  return res.body;
}

/** A campaign row in the outreach (campaigns have their own API; only the link matters here). */
async function addCampaign(accountId: string, outreachId: string | null, name: string) {
  return api.database.db.campaign.create({ data: { accountId, outreachId, name } });
}

test("POST /outreaches creates an outreach (wrapped or top-level body) and answers 201", async () => {
  const { token, accountId } = await signUp(api);
  const wrapped = await request(api.baseUrl, "POST", "/outreaches", { token, body: { outreach: { name: "  Spring  ", unique_contacts: true } } });
  assert.equal(wrapped.status, 201, wrapped.text);
  assert.deepEqual(Object.keys(wrapped.body).sort(), OUTREACH_KEYS);
  const row = await api.database.db.outreach.findUniqueOrThrow({ where: { id: wrapped.body.id } });
  assert.deepEqual(wrapped.body, { id: row.id, name: "Spring", unique_contacts: true, campaign_ids: [], created_at: row.createdAt.toISOString() });
  assert.deepEqual([row.accountId, row.name, row.uniqueContacts], [accountId, "Spring", true]);

  const top = await request(api.baseUrl, "POST", "/outreaches", { token, body: { name: "Summer" } });
  assert.equal(top.status, 201, top.text);
  assert.equal(top.body.unique_contacts, false, "unique_contacts defaults to false");
  assert.equal((await api.database.db.outreach.findUniqueOrThrow({ where: { id: top.body.id } })).uniqueContacts, false);
});

test("POST /outreaches validates its body with 422 validation_failed and writes nothing", async () => {
  const { token, accountId } = await signUp(api);
  const cases: Array<[unknown, RegExp]> = [
    [{}, /^name is required$/],
    [{ outreach: {} }, /^name is required$/],
    [{ outreach: { name: "   " } }, /^name is not allowed to be empty$/],
    [{ name: "n".repeat(201) }, /^name length must be less than or equal to 200 characters long$/],
    [{ name: "a\u0000b" }, /^name must not contain NUL characters$/],
    [{ name: 12 }, /^name must be a string$/],
    [{ name: "x", unique_contacts: "true" }, /^unique_contacts must be a boolean$/],
    [{ name: "x", unique_contacts: null }, /^unique_contacts must be a boolean$/],
    [{ name: "x", colour: "red" }, /^colour is not allowed$/],
    [{ outreach: { name: "x" }, name: "y" }, /^outreach is not allowed$/],
    [{ outreach: "x" }, /must be of type object/],
    [[{ name: "x" }], /must be of type object/],
  ];
  for (const [body, message] of cases) {
    assertError(await request(api.baseUrl, "POST", "/outreaches", { token, body }), api, 422, "validation_failed", message);
  }
  assert.equal(await api.database.db.outreach.count({ where: { accountId } }), 0);
});

test("POST /outreaches with an Idempotency-Key creates one outreach and replays the response", async () => {
  const { token, accountId } = await signUp(api);
  const body = { outreach: { name: "Once" } };
  const headers = { "idempotency-key": "outreach-1" };
  const first = await request(api.baseUrl, "POST", "/outreaches", { token, body, headers });
  assert.equal(first.status, 201);
  const replay = await request(api.baseUrl, "POST", "/outreaches", { token, body, headers });
  assert.equal(replay.status, 201);
  assert.equal(replay.headers.get("idempotent-replay"), "true");
  assert.equal(replay.text, first.text);
  assertError(await request(api.baseUrl, "POST", "/outreaches", { token, body: { name: "Twice" }, headers }), api, 409, "idempotency_conflict");
  assert.equal(await api.database.db.outreach.count({ where: { accountId } }), 1);
});

test("GET /outreaches/:id shows the outreach with its campaign ids", async () => {
  const { token, accountId } = await signUp(api);
  const outreach = await createOutreach(token);
  const c1 = await addCampaign(accountId, outreach.id, "one");
  const c2 = await addCampaign(accountId, outreach.id, "two");
  await addCampaign(accountId, null, "elsewhere");

  const res = await request(api.baseUrl, "GET", `/outreaches/${outreach.id}`, { token });
  assert.equal(res.status, 200);
  assert.deepEqual(res.body, { ...outreach, campaign_ids: [c1.id, c2.id] });
});

test("GET /outreaches lists the account's outreaches newest first with limit and starting_after", async () => {
  const { token, accountId } = await signUp(api);
  const other = await signUp(api);
  const theirs = await createOutreach(other.token, { name: "theirs" });
  const created = [];
  for (const name of ["a", "b", "c"]) created.push(await createOutreach(token, { name }));
  const campaign = await addCampaign(accountId, created[1].id, "in b");

  const list = await request(api.baseUrl, "GET", "/outreaches", { token });
  assert.equal(list.status, 200);
  assert.deepEqual(list.body, [created[2], { ...created[1], campaign_ids: [campaign.id] }, created[0]]);

  const page = await request(api.baseUrl, "GET", `/outreaches?limit=1&starting_after=${created[2].id}`, { token });
  assert.deepEqual(
    page.body.map((o: { name: string }) => o.name),
    ["b"],
  );
  assertError(await request(api.baseUrl, "GET", `/outreaches?starting_after=${theirs.id}`, { token }), api, 422, "validation_failed", /^starting_after must be the id of an outreach of this account$/);
  assertError(await request(api.baseUrl, "GET", "/outreaches?limit=-1", { token }), api, 422, "validation_failed");
});

test("PATCH /outreaches/:id changes name and unique_contacts", async () => {
  const { token, accountId } = await signUp(api);
  const outreach = await createOutreach(token);
  const campaign = await addCampaign(accountId, outreach.id, "linked");

  const renamed = await request(api.baseUrl, "PATCH", `/outreaches/${outreach.id}`, { token, body: { outreach: { name: " Renamed " } } });
  assert.equal(renamed.status, 200, renamed.text);
  assert.deepEqual(renamed.body, { ...outreach, name: "Renamed", campaign_ids: [campaign.id] });

  const toggled = await request(api.baseUrl, "PATCH", `/outreaches/${outreach.id}`, { token, body: { unique_contacts: true } });
  assert.equal(toggled.status, 200, toggled.text);
  assert.deepEqual([toggled.body.name, toggled.body.unique_contacts], ["Renamed", true]);
  const row = await api.database.db.outreach.findUniqueOrThrow({ where: { id: outreach.id } });
  assert.deepEqual([row.name, row.uniqueContacts], ["Renamed", true]);

  for (const [body, message] of [
    [{}, /^value must have at least 1 key$/],
    [{ name: "" }, /^name is not allowed to be empty$/],
    [{ unique_contacts: 1 }, /^unique_contacts must be a boolean$/],
    [{ created_at: "x" }, /^created_at is not allowed$/],
  ] as const) {
    assertError(await request(api.baseUrl, "PATCH", `/outreaches/${outreach.id}`, { token, body }), api, 422, "validation_failed", message);
  }
  const unchanged = await api.database.db.outreach.findUniqueOrThrow({ where: { id: outreach.id } });
  assert.deepEqual([unchanged.name, unchanged.uniqueContacts], ["Renamed", true]);
});

test("DELETE /outreaches/:id deletes the outreach; its campaigns stay with outreach_id null", async () => {
  const { token, accountId } = await signUp(api);
  const outreach = await createOutreach(token);
  const keep = await createOutreach(token, { name: "keep" });
  const c1 = await addCampaign(accountId, outreach.id, "one");
  const c2 = await addCampaign(accountId, keep.id, "two");

  const res = await request(api.baseUrl, "DELETE", `/outreaches/${outreach.id}`, { token });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body, { ...outreach, campaign_ids: [c1.id] });
  assert.equal(await api.database.db.outreach.findUnique({ where: { id: outreach.id } }), null);
  assert.equal((await api.database.db.campaign.findUniqueOrThrow({ where: { id: c1.id } })).outreachId, null);
  assert.equal((await api.database.db.campaign.findUniqueOrThrow({ where: { id: c2.id } })).outreachId, keep.id);

  assertError(await request(api.baseUrl, "DELETE", `/outreaches/${outreach.id}`, { token }), api, 404, "outreach_not_found");
  assertError(await request(api.baseUrl, "GET", `/outreaches/${outreach.id}`, { token }), api, 404, "outreach_not_found");
});

test("another account's, unknown and malformed outreach ids are 404 outreach_not_found and change nothing", async () => {
  const { token } = await signUp(api);
  const other = await signUp(api);
  const theirs = await createOutreach(other.token, { name: "theirs" });
  for (const id of [theirs.id, UNKNOWN_ID, "not-a-uuid", "1"]) {
    assertError(await request(api.baseUrl, "GET", `/outreaches/${id}`, { token }), api, 404, "outreach_not_found");
    assertError(await request(api.baseUrl, "PATCH", `/outreaches/${id}`, { token, body: { name: "stolen" } }), api, 404, "outreach_not_found");
    assertError(await request(api.baseUrl, "DELETE", `/outreaches/${id}`, { token }), api, 404, "outreach_not_found");
  }
  const row = await api.database.db.outreach.findUniqueOrThrow({ where: { id: theirs.id } });
  assert.equal(row.name, "theirs");
  assert.deepEqual((await request(api.baseUrl, "GET", "/outreaches", { token })).body, []);
});
