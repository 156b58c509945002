import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { executor } from "@outreach/db";
import { ContactRowValidator } from "../src/services/parse-contact-rows.js";
import { fields } from "../src/validation.js";
import { assertError, request, signUp, startTestApi, type TestApi } from "./helpers.js";

let api: TestApi;
before(async () => {
  api = await startTestApi({ SIGNUP_LIMIT_PER_HOUR: "1000", RATE_LIMIT_PER_MINUTE: "100000" });
});
after(() => api?.close());

const IMPORT_KEYS = ["created_at", "disposable_count", "duplicate_count", "id", "imported_count", "invalid_count", "invalid_rows", "name", "role_count", "total_rows"];

function post(token: string, body: unknown, headers: Record<string, string> = {}) {
  return request(api.baseUrl, "POST", "/contact_imports", { token, body, headers });
}

async function contactsOf(accountId: string) {
  return api.database.db.contact.findMany({ where: { accountId }, orderBy: { email: "asc" } });
}

async function linkedEmails(importId: string) {
  const items = await api.database.db.contactImportItem.findMany({ where: { importId }, include: { contact: true } });
  return items.map((item) => item.contact.email).sort();
}

test("POST /contact_imports creates contacts, links them to the import and answers 201 with the counts", async () => {
  const { token, accountId } = await signUp(api);
  const res = await post(token, {
    contact_import: {
      name: "  March leads ",
      contacts: [
        { email: " Ada@Example.COM ", first_name: "Ada", last_name: "Lovelace", company: "Analytical" },
        { email: "grace@example.com", first_name: "Grace", last_name: null },
        { email: "linus@example.org" },
      ],
    },
  });
  assert.equal(res.status, 201, res.text);
  assert.deepEqual(Object.keys(res.body).sort(), IMPORT_KEYS);
  assert.equal(res.body.name, "March leads");
  assert.deepEqual(
    { total: res.body.total_rows, imported: res.body.imported_count, duplicate: res.body.duplicate_count, invalid: res.body.invalid_count, rows: res.body.invalid_rows },
    { total: 3, imported: 3, duplicate: 0, invalid: 0, rows: [] },
  );

  const contacts = await contactsOf(accountId);
  assert.deepEqual(
    contacts.map((c) => [c.email, c.firstName, c.lastName, c.company, c.unsubscribedAt]),
    [
      ["ada@example.com", "Ada", "Lovelace", "Analytical", null],
      ["grace@example.com", "Grace", null, null, null],
      ["linus@example.org", null, null, null, null],
    ],
  );
  const row = await api.database.db.contactImport.findUniqueOrThrow({ where: { id: res.body.id } });
  assert.equal(row.accountId, accountId);
  assert.deepEqual([row.name, row.totalRows, row.importedCount, row.duplicateCount, row.invalidCount, row.invalidRows], ["March leads", 3, 3, 0, 0, []]);
  assert.equal(res.body.created_at, row.createdAt.toISOString());
  assert.deepEqual(await linkedEmails(res.body.id), ["ada@example.com", "grace@example.com", "linus@example.org"]);

  const shown = await request(api.baseUrl, "GET", `/contact_imports/${res.body.id}`, { token });
  assert.equal(shown.status, 200);
  assert.deepEqual(shown.body, res.body);
});

test("the fields are also accepted at the top level, and an import without a name has name null", async () => {
  const { token, accountId } = await signUp(api);
  const res = await post(token, { contacts: [{ email: "top@example.com", company: "Top" }] });
  assert.equal(res.status, 201, res.text);
  assert.equal(res.body.name, null);
  assert.equal(res.body.imported_count, 1);
  assert.deepEqual(
    (await contactsOf(accountId)).map((c) => [c.email, c.company]),
    [["top@example.com", "Top"]],
  );
});

test("duplicates merge per account: existing contacts keep their id, non-empty values update, unsubscribed stays unsubscribed", async () => {
  const { token, accountId } = await signUp(api);
  const first = await post(token, {
    contacts: [
      { email: "keep@example.com", first_name: "Keep", last_name: "Me", company: "Old Co" },
      { email: "gone@example.com", first_name: "Gone" },
      { email: "same@example.com", first_name: "Same" },
    ],
  });
  assert.equal(first.status, 201, first.text);
  const before = new Map((await contactsOf(accountId)).map((c) => [c.email, c]));
  const unsubscribedAt = new Date("2026-01-02T03:04:05.000Z");
  await api.database.db.contact.update({ where: { id: before.get("gone@example.com")!.id }, data: { unsubscribedAt } });
  const sameUpdatedAt = (await api.database.db.contact.findUniqueOrThrow({ where: { id: before.get("same@example.com")!.id } })).updatedAt;

  const second = await post(token, {
    contacts: [
      { email: "KEEP@example.com", first_name: "", last_name: null, company: "New Co" }, // existing: only company changes
      { email: "new@example.com", first_name: "Early" },
      { email: " New@Example.com ", first_name: "Late", last_name: "Comer" }, // same as the row above
      { email: "gone@example.com", first_name: "Back" }, // existing, unsubscribed
      { email: "same@example.com", first_name: "Same" }, // existing, nothing changes
      { email: "new@example.com", first_name: "  " }, // blank does not erase
    ],
  });
  assert.equal(second.status, 201, second.text);
  // 6 valid rows; 1 contact created (new@), so 5 rows were merged into an earlier row or an existing contact.
  assert.deepEqual([second.body.total_rows, second.body.imported_count, second.body.duplicate_count, second.body.invalid_count], [6, 4, 5, 0]);

  const afterImport = new Map((await contactsOf(accountId)).map((c) => [c.email, c]));
  assert.equal(afterImport.size, 4);
  for (const email of ["keep@example.com", "gone@example.com", "same@example.com"]) {
    assert.equal(afterImport.get(email)!.id, before.get(email)!.id, `${email} keeps its id`);
  }
  const keep = afterImport.get("keep@example.com")!;
  assert.deepEqual([keep.firstName, keep.lastName, keep.company], ["Keep", "Me", "New Co"]);
  const fresh = afterImport.get("new@example.com")!;
  assert.deepEqual([fresh.firstName, fresh.lastName, fresh.company], ["Late", "Comer", null]);
  const gone = afterImport.get("gone@example.com")!;
  assert.equal(gone.firstName, "Back");
  assert.deepEqual(gone.unsubscribedAt, unsubscribedAt);
  assert.deepEqual(afterImport.get("same@example.com")!.updatedAt, sameUpdatedAt, "an unchanged contact keeps its updatedAt");
  assert.ok(keep.updatedAt > before.get("keep@example.com")!.updatedAt, "a changed contact gets a new updatedAt");

  assert.deepEqual(await linkedEmails(second.body.id), ["gone@example.com", "keep@example.com", "new@example.com", "same@example.com"]);
  assert.deepEqual(await linkedEmails(first.body.id), ["gone@example.com", "keep@example.com", "same@example.com"]);
});

test("the same address in two accounts is two contacts", async () => {
  const a = await signUp(api);
  const b = await signUp(api);
  assert.equal((await post(a.token, { contacts: [{ email: "shared@example.com", first_name: "A" }] })).status, 201);
  assert.equal((await post(b.token, { contacts: [{ email: "shared@example.com", first_name: "B" }] })).status, 201);
  assert.deepEqual(
    (await contactsOf(a.accountId)).map((c) => c.firstName),
    ["A"],
  );
  assert.deepEqual(
    (await contactsOf(b.accountId)).map((c) => c.firstName),
    ["B"],
  );
});

test("invalid rows are reported with index, email and reason, and the valid rows are still imported", async () => {
  const { token, accountId } = await signUp(api);
  const rows: unknown[] = [
    { email: "ok@example.com", first_name: "Ok" },
    { email: "not-an-email" },
    { first_name: "No Email" },
    { email: "typed@example.com", first_name: 42 },
    { email: "extra@example.com", phone: "123" },
    null,
    "string@example.com",
    { email: "long@example.com", company: "x".repeat(201) },
    { email: "nul@example.com", last_name: "a\u0000b" },
    { email: 7 },
    { email: "x\u0000@example.com" },
    { email: "\ud800lone@example.com" },
    { email: "ok2@example.com", company: "y".repeat(200) },
  ];
  const res = await post(token, { contacts: rows });
  assert.equal(res.status, 201, res.text);
  assert.deepEqual([res.body.total_rows, res.body.imported_count, res.body.duplicate_count, res.body.invalid_count], [13, 2, 0, 11]);
  assert.deepEqual(res.body.invalid_rows, [
    { index: 1, email: "not-an-email", reason: "email must be a valid email" },
    { index: 2, email: null, reason: "email is required" },
    { index: 3, email: "typed@example.com", reason: "first_name must be a string" },
    { index: 4, email: "extra@example.com", reason: "phone is not allowed" },
    { index: 5, email: null, reason: "row must be of type object" },
    { index: 6, email: null, reason: "row must be of type object" },
    { index: 7, email: "long@example.com", reason: "company length must be less than or equal to 200 characters long" },
    { index: 8, email: "nul@example.com", reason: "last_name must not contain NUL characters" },
    { index: 9, email: null, reason: "email must be a string" },
    { index: 10, email: "x\ufffd@example.com", reason: "email must be a valid email" },
    { index: 11, email: "\ufffdlone@example.com", reason: "email must be a valid email" },
  ]);
  assert.deepEqual(
    (await contactsOf(accountId)).map((c) => c.email),
    ["ok2@example.com", "ok@example.com"],
  );
  const row = await api.database.db.contactImport.findUniqueOrThrow({ where: { id: res.body.id } });
  assert.equal(row.invalidCount, 11);
  assert.deepEqual(row.invalidRows, res.body.invalid_rows);
  assert.deepEqual((await request(api.baseUrl, "GET", `/contact_imports/${res.body.id}`, { token })).body.invalid_rows, res.body.invalid_rows);
});

test("row validation accepts exactly the addresses the email schema accepts, normalised the same way", () => {
  // Most rows skip joi through a fast check; it must never accept what the schema refuses.
  const emails = [
    "a@b.co",
    " A@B.CO ",
    "a..b@c.de",
    ".a@b.cd",
    "a.@b.cd",
    "a@b",
    "a@-b.cd",
    "a@b-.cd",
    "a@b.c-d",
    "a@b.1cd",
    "a@1.2",
    "a@b.c",
    "a_b@c.de",
    "a@b_c.de",
    "a@xn--zz.com",
    "a@xn--bcher-kva.com",
    "a@b..cd",
    "a@@b.cd",
    "a@b.cd.",
    `${"x".repeat(64)}@b.cd`,
    `${"x".repeat(65)}@b.cd`,
    `a@${"b".repeat(63)}.cd`,
    `a@${"b".repeat(64)}.cd`,
    `${"x".repeat(60)}@${"d".repeat(60)}.${"e".repeat(60)}.${"f".repeat(60)}.com`,
    "\u212A@b.cd",
    "a@b.CD",
    "a b@c.de",
    "a@b.c0",
    "a@b.0c",
    "a@b.co-",
    "a@b.c--o",
    "\u00e4@b.cd",
    "a@b\u00fc.cd",
    "a\u0000@b.cd",
    "\t a@b.cd\n",
    "a+tag@b.cd",
    "a/b@c.de",
    "a{b}@c.de",
    "a@localhost",
    "a@123.com",
    "a@b.123",
    "'q'@b.cd",
    "a@0x1.com",
    "a@b.0x1",
    "",
    " ",
    "@b.cd",
    "a@",
  ];
  const schema = fields.email.required();
  for (const email of emails) {
    const parsed = new ContactRowValidator().check({ email });
    const joi = schema.validate(email);
    assert.equal(parsed !== null, !joi.error, `accepts ${JSON.stringify(email)}`);
    if (!joi.error) assert.equal(parsed!.email, joi.value, `normalises ${JSON.stringify(email)}`);
  }
});

test("an import whose rows are all invalid is still recorded, with nothing imported", async () => {
  const { token, accountId } = await signUp(api);
  const res = await post(token, { contacts: [{ email: "bad" }, {}] });
  assert.equal(res.status, 201, res.text);
  assert.deepEqual([res.body.total_rows, res.body.imported_count, res.body.duplicate_count, res.body.invalid_count], [2, 0, 0, 2]);
  assert.equal((await contactsOf(accountId)).length, 0);
  assert.equal(await api.database.db.contactImportItem.count({ where: { importId: res.body.id } }), 0);
});

test("invalid rows are all counted but only the first 1000 are reported", async () => {
  const { token } = await signUp(api);
  const rows = [...Array.from({ length: 1500 }, (_, i) => ({ email: `bad-${i}` })), { email: "good@example.com" }];
  const res = await post(token, { contacts: rows });
  assert.equal(res.status, 201, res.text);
  assert.equal(res.body.invalid_count, 1500);
  assert.equal(res.body.imported_count, 1);
  assert.equal(res.body.invalid_rows.length, 1000);
  assert.deepEqual(
    res.body.invalid_rows.map((r: { index: number }) => r.index),
    Array.from({ length: 1000 }, (_, i) => i),
  );
  assert.deepEqual(res.body.invalid_rows[999], { index: 999, email: "bad-999", reason: "email must be a valid email" });
});

test("no contacts gives 422 no_contacts_provided and writes nothing", async () => {
  const { token, accountId } = await signUp(api);
  const bodies: unknown[] = [
    {},
    { contacts: [] },
    { contacts: null },
    { contacts: "a@example.com" },
    { contacts: { email: "a@example.com" } },
    { contact_import: {} },
    { contact_import: { name: "empty", contacts: [] } },
    { name: "no rows" },
  ];
  for (const body of bodies) {
    assertError(await post(token, body), api, 422, "no_contacts_provided");
  }
  assertError(await request(api.baseUrl, "POST", "/contact_imports", { token }), api, 422, "no_contacts_provided");
  assert.equal(await api.database.db.contactImport.count({ where: { accountId } }), 0);
});

test("a malformed import envelope gives 422 validation_failed and writes nothing", async () => {
  const { token, accountId } = await signUp(api);
  const contacts = [{ email: "a@example.com" }];
  assertError(await post(token, { contacts, list: "x" }), api, 422, "validation_failed", /^list is not allowed$/);
  assertError(await post(token, { contact_import: { contacts }, contacts }), api, 422, "validation_failed", /^contact_import is not allowed$/);
  assertError(await post(token, { contacts, name: "n".repeat(201) }), api, 422, "validation_failed", /^name length must be less than or equal to 200 characters long$/);
  assertError(await post(token, { contacts, name: "a\u0000b" }), api, 422, "validation_failed", /^name must not contain NUL characters$/);
  assertError(await post(token, { contacts, name: 5 }), api, 422, "validation_failed", /^name must be a string$/);
  assertError(await post(token, [{ email: "a@example.com" }]), api, 422, "validation_failed", /must be of type object/);
  assertError(await post(token, { contact_import: "a@example.com" }), api, 422, "validation_failed", /must be of type object/);
  assert.equal(await api.database.db.contactImport.count({ where: { accountId } }), 0);
  assert.equal(await api.database.db.contact.count({ where: { accountId } }), 0);
});

test("an import is limited to 250,000 rows and its body to 64mb", async () => {
  const { token, accountId } = await signUp(api);
  const tooMany = await post(token, { contacts: new Array(250_001).fill(0) });
  assertError(tooMany, api, 422, "validation_failed", /^contacts must contain less than or equal to 250000 items$/);

  const rawBody = JSON.stringify({ name: "x".repeat(64 * 1024 * 1024), contacts: [{ email: "a@example.com" }] });
  const tooLarge = await request(api.baseUrl, "POST", "/contact_imports", { token, rawBody, headers: { "content-type": "application/json" } });
  assertError(tooLarge, api, 400, "bad_request", /64mb/);
  assert.equal(await api.database.db.contactImport.count({ where: { accountId } }), 0);
});

test("an Idempotency-Key replays the first import verbatim instead of importing again", async () => {
  const { token, accountId } = await signUp(api);
  const body = { contact_import: { name: "once", contacts: [{ email: "idem@example.com" }, { email: "bad" }] } };
  const first = await post(token, body, { "idempotency-key": "import-1" });
  assert.equal(first.status, 201, first.text);
  assert.equal(first.headers.get("idempotent-replay"), null);
  const replay = await post(token, body, { "idempotency-key": "import-1" });
  assert.equal(replay.status, 201);
  assert.equal(replay.headers.get("idempotent-replay"), "true");
  assert.equal(replay.text, first.text);
  assert.equal(await api.database.db.contactImport.count({ where: { accountId } }), 1);

  const conflict = await post(token, { contacts: [{ email: "other@example.com" }] }, { "idempotency-key": "import-1" });
  assertError(conflict, api, 409, "idempotency_conflict");
  assert.equal(await api.database.db.contactImport.count({ where: { accountId } }), 1);
  assert.deepEqual(
    (await contactsOf(accountId)).map((c) => c.email),
    ["idem@example.com"],
  );
});

test("concurrent imports sharing addresses in opposite orders both succeed (no deadlock)", async () => {
  const { token, accountId } = await signUp(api);
  const rows = Array.from({ length: 20_000 }, (_, i) => ({ email: `both-${i}@example.com`, first_name: `N${i}` }));
  const [a, b] = await Promise.all([post(token, { contacts: rows }), post(token, { contacts: [...rows].reverse() })]);
  assert.equal(a.status, 201, a.text);
  assert.equal(b.status, 201, b.text);
  assert.equal(await api.database.db.contact.count({ where: { accountId } }), 20_000);
  // Whichever committed second merged every row into the contacts the first created.
  assert.deepEqual([a.body.duplicate_count + b.body.duplicate_count, a.body.imported_count, b.body.imported_count], [20_000, 20_000, 20_000]);
});

test("GET /contact_imports lists the account's imports newest first, without invalid_rows, with limit and starting_after", async () => {
  const { token } = await signUp(api);
  const other = await signUp(api);
  await post(other.token, { contacts: [{ email: "other@example.com" }] });
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) {
    const res = await post(token, { name: `import ${i}`, contacts: [{ email: `l${i}@example.com` }, { email: "bad" }] });
    ids.push(res.body.id);
  }
  const list = await request(api.baseUrl, "GET", "/contact_imports", { token });
  assert.equal(list.status, 200);
  assert.deepEqual(
    list.body.map((i: { id: string }) => i.id),
    [...ids].reverse(),
  );
  assert.deepEqual(list.body[0], {
    id: ids[2],
    name: "import 2",
    total_rows: 2,
    imported_count: 1,
    duplicate_count: 0,
    invalid_count: 1,
    disposable_count: 0,
    role_count: 0,
    created_at: list.body[0].created_at,
  });

  const page1 = await request(api.baseUrl, "GET", "/contact_imports?limit=2", { token });
  assert.deepEqual(
    page1.body.map((i: { id: string }) => i.id),
    [ids[2], ids[1]],
  );
  const page2 = await request(api.baseUrl, "GET", `/contact_imports?limit=2&starting_after=${ids[1]}`, { token });
  assert.deepEqual(
    page2.body.map((i: { id: string }) => i.id),
    [ids[0]],
  );

  const otherImport = (await request(api.baseUrl, "GET", "/contact_imports", { token: other.token })).body[0].id;
  for (const cursor of [otherImport, "00000000-0000-4000-8000-000000000000", "nope"]) {
    assertError(
      await request(api.baseUrl, "GET", `/contact_imports?starting_after=${cursor}`, { token }),
      api,
      422,
      "validation_failed",
      /^starting_after must be the id of a contact import of this account$/,
    );
  }
  assertError(await request(api.baseUrl, "GET", "/contact_imports?limit=0", { token }), api, 422, "validation_failed", /limit must be greater than or equal to 1/);
  assertError(await request(api.baseUrl, "GET", "/contact_imports?limit=1001", { token }), api, 422, "validation_failed", /limit must be less than or equal to 1000/);
});

test("GET /contact_imports/:id is 404 contact_import_not_found for unknown, malformed and other accounts' ids", async () => {
  const { token } = await signUp(api);
  const other = await signUp(api);
  const theirs = await post(other.token, { contacts: [{ email: "theirs@example.com" }] });
  for (const id of [theirs.body.id, "00000000-0000-4000-8000-000000000000", "not-a-uuid", "1"]) {
    assertError(await request(api.baseUrl, "GET", `/contact_imports/${id}`, { token }), api, 404, "contact_import_not_found");
  }
  assert.equal((await request(api.baseUrl, "GET", `/contact_imports/${theirs.body.id}`, { token: other.token })).status, 200);
});

test("100,000 contacts import in one request: counts, contacts and links are all right", async (t) => {
  const { token, accountId } = await signUp(api);
  // 500 contacts exist beforehand; the request re-sends them (upper-cased) among 99,000 new
  // addresses, repeats 400 of the new ones and has 100 invalid rows: 100,000 rows in all.
  const existing = Array.from({ length: 500 }, (_, i) => ({ email: `old-${i}@example.com`, first_name: "Old" }));
  assert.equal((await post(token, { contacts: existing })).status, 201);

  const rows: unknown[] = [];
  for (let i = 0; i < 99_000; i++) rows.push({ email: `person-${i}@example${i % 50}.com`, first_name: `First${i}`, last_name: "Last", company: `Company ${i % 1000}` });
  for (let i = 0; i < 500; i++) rows.push({ email: `OLD-${i}@EXAMPLE.COM`, last_name: `Again${i}` });
  for (let i = 0; i < 400; i++) rows.push({ email: `person-${i}@example${i % 50}.com`, company: "Repeat Co" });
  for (let i = 0; i < 100; i++) rows.push({ email: `broken-${i}` });
  assert.equal(rows.length, 100_000);

  const started = performance.now();
  const res = await post(token, { contact_import: { name: "big", contacts: rows } });
  const ms = performance.now() - started;
  t.diagnostic(`100,000-row import took ${Math.round(ms)} ms`);
  assert.equal(res.status, 201, res.text.slice(0, 500));
  assert.deepEqual([res.body.total_rows, res.body.imported_count, res.body.duplicate_count, res.body.invalid_count, res.body.invalid_rows.length], [100_000, 99_500, 900, 100, 100]);
  assert.deepEqual(res.body.invalid_rows[0], { index: 99_900, email: "broken-0", reason: "email must be a valid email" });

  const db = api.database.db;
  assert.equal(await db.contact.count({ where: { accountId } }), 99_500);
  assert.equal(await db.contactImportItem.count({ where: { importId: res.body.id } }), 99_500);
  const [unlinked] = await executor(db).rows<{ n: number }>(
    `SELECT count(*)::int AS n FROM contacts c WHERE c."accountId" = $1::uuid
       AND NOT EXISTS (SELECT 1 FROM contact_import_items i WHERE i."importId" = $2::uuid AND i."contactId" = c.id)`,
    [accountId, res.body.id],
  );
  assert.equal(unlinked!.n, 0);
  const sample = await db.contact.findMany({ where: { accountId, email: { in: ["person-7@example7.com", "person-98999@example49.com", "old-3@example.com"] } }, orderBy: { email: "asc" } });
  assert.deepEqual(
    sample.map((c) => [c.email, c.firstName, c.lastName, c.company]),
    [
      ["old-3@example.com", "Old", "Again3", null],
      ["person-7@example7.com", "First7", "Last", "Repeat Co"],
      ["person-98999@example49.com", "First98999", "Last", "Company 999"],
    ],
  );
});
