import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { assertError, request, signUp, startTestApi, type TestApi } from "./helpers.js";

let api: TestApi;
before(async () => {
  api = await startTestApi({ SIGNUP_LIMIT_PER_HOUR: "1000", RATE_LIMIT_PER_MINUTE: "100000" });
});
after(() => api?.close());

const CONTACT_KEYS = ["company", "created_at", "custom_fields", "email", "first_name", "id", "last_name", "timezone", "unsubscribed_at", "updated_at"];

async function importContacts(token: string, contacts: unknown[]) {
  const res = await request(api.baseUrl, "POST", "/contact_imports", { token, body: { contacts } });
  assert.equal(res.status, 201, res.text);
  return res.body;
}

function ids(body: Array<{ id: string }>) {
  return body.map((c) => c.id);
}

test("GET /contacts/:id shows one contact with all its fields", async () => {
  const { token, accountId } = await signUp(api);
  await importContacts(token, [{ email: "Ada@Example.com", first_name: "Ada", last_name: "Lovelace", company: "Analytical", custom_fields: { plan: "pro", seats: 3, trial: false } }]);
  const row = await api.database.db.contact.findFirstOrThrow({ where: { accountId } });
  const unsubscribedAt = new Date("2026-02-03T04:05:06.789Z");
  await api.database.db.contact.update({ where: { id: row.id }, data: { unsubscribedAt } });
  const stored = await api.database.db.contact.findUniqueOrThrow({ where: { id: row.id } });

  const res = await request(api.baseUrl, "GET", `/contacts/${row.id}`, { token });
  assert.equal(res.status, 200);
  assert.deepEqual(res.body, {
    id: row.id,
    email: "ada@example.com",
    first_name: "Ada",
    last_name: "Lovelace",
    company: "Analytical",
    timezone: null,
    custom_fields: { plan: "pro", seats: 3, trial: false },
    unsubscribed_at: "2026-02-03T04:05:06.789Z",
    created_at: stored.createdAt.toISOString(),
    updated_at: stored.updatedAt.toISOString(),
  });
});

test("GET /contacts/:id is 404 contact_not_found for unknown, malformed and other accounts' ids", async () => {
  const { token } = await signUp(api);
  const other = await signUp(api);
  await importContacts(other.token, [{ email: "theirs@example.com" }]);
  const theirs = await api.database.db.contact.findFirstOrThrow({ where: { accountId: other.accountId } });
  for (const id of [theirs.id, "00000000-0000-4000-8000-000000000000", "not-a-uuid", "1", theirs.id.toUpperCase().slice(0, 35)]) {
    assertError(await request(api.baseUrl, "GET", `/contacts/${id}`, { token }), api, 404, "contact_not_found");
  }
  assert.equal((await request(api.baseUrl, "GET", `/contacts/${theirs.id}`, { token: other.token })).status, 200);
});

test("GET /contacts lists the account's contacts newest first and pages through ties without gaps or repeats", async () => {
  const { token, accountId } = await signUp(api);
  const other = await signUp(api);
  await importContacts(other.token, [{ email: "not-mine@example.com" }]);
  await importContacts(
    token,
    Array.from({ length: 5 }, (_, i) => ({ email: `early-${i}@example.com` })),
  );
  // One import writes all its contacts in one transaction, so they share created_at: the id orders them.
  await importContacts(
    token,
    Array.from({ length: 20 }, (_, i) => ({ email: `late-${i}@example.com` })),
  );

  const expected = await api.database.db.contact.findMany({ where: { accountId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
  assert.equal(expected.length, 25);
  assert.ok(
    expected.slice(0, 20).every((c) => c.email.startsWith("late-")),
    "the later import comes first",
  );

  const all = await request(api.baseUrl, "GET", "/contacts", { token });
  assert.equal(all.status, 200);
  assert.deepEqual(ids(all.body), ids(expected));
  assert.deepEqual(Object.keys(all.body[0]).sort(), CONTACT_KEYS);

  const walked: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 10; page++) {
    const res = await request(api.baseUrl, "GET", `/contacts?limit=7${cursor ? `&starting_after=${cursor}` : ""}`, { token });
    assert.equal(res.status, 200);
    if (res.body.length === 0) break;
    assert.ok(res.body.length <= 7);
    walked.push(...ids(res.body));
    cursor = res.body.at(-1).id;
  }
  assert.deepEqual(walked, ids(expected));
});

test("GET /contacts?email= finds the exact (normalised) address of the account only", async () => {
  const { token } = await signUp(api);
  const other = await signUp(api);
  await importContacts(token, [{ email: "find.me@example.com", first_name: "Found" }, { email: "find.me.not@example.com" }]);
  await importContacts(other.token, [{ email: "theirs@example.com" }]);

  const found = await request(api.baseUrl, "GET", `/contacts?email=${encodeURIComponent(" Find.Me@Example.COM ")}`, { token });
  assert.equal(found.status, 200);
  assert.deepEqual(
    found.body.map((c: { email: string; first_name: string }) => [c.email, c.first_name]),
    [["find.me@example.com", "Found"]],
  );
  for (const email of ["find.me", "theirs@example.com", "nobody@example.com"]) {
    const res = await request(api.baseUrl, "GET", `/contacts?email=${encodeURIComponent(email)}`, { token });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, [], email);
  }
});

test("GET /contacts rejects bad query parameters with 422 validation_failed", async () => {
  const { token } = await signUp(api);
  const other = await signUp(api);
  await importContacts(other.token, [{ email: "theirs@example.com" }]);
  const theirs = await api.database.db.contact.findFirstOrThrow({ where: { accountId: other.accountId } });
  const cases: Array<[string, RegExp]> = [
    ["limit=0", /^limit must be greater than or equal to 1$/],
    ["limit=1001", /^limit must be less than or equal to 1000$/],
    ["limit=ten", /^limit must be a number$/],
    ["email=a%00b", /^email must not contain NUL characters$/],
    ["colour=red", /^colour is not allowed$/],
    [`starting_after=${theirs.id}`, /^starting_after must be the id of a contact of this account$/],
    ["starting_after=00000000-0000-4000-8000-000000000000", /^starting_after must be the id of a contact of this account$/],
    ["starting_after=abc", /^starting_after must be the id of a contact of this account$/],
  ];
  for (const [query, message] of cases) {
    assertError(await request(api.baseUrl, "GET", `/contacts?${query}`, { token }), api, 422, "validation_failed", message);
  }
});

test("contacts require an API key", async () => {
  assertError(await request(api.baseUrl, "GET", "/contacts"), api, 401, "unauthorized");
  assertError(await request(api.baseUrl, "GET", "/contacts/00000000-0000-4000-8000-000000000000"), api, 401, "unauthorized");
  assertError(await request(api.baseUrl, "POST", "/contact_imports", { body: { contacts: [{ email: "a@example.com" }] } }), api, 401, "unauthorized");
});
