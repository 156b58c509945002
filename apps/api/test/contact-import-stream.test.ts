// POST /contact_imports streams its body (rows validated and staged chunk by chunk,
// merged once the whole body is known to be good): the API contract is that of a
// parsed body, and a refused or abandoned body leaves nothing behind, staged rows included.
import assert from "node:assert/strict";
import http from "node:http";
import { after, before, test } from "node:test";
import { executor } from "@outreach/db";
import { waitFor } from "@outreach/testing";
import { assertError, request, signUp, startTestApi, type TestApi } from "./helpers.js";

let api: TestApi;
before(async () => {
  api = await startTestApi({ SIGNUP_LIMIT_PER_HOUR: "1000", RATE_LIMIT_PER_MINUTE: "100000" });
});
after(() => api?.close());

function postRaw(token: string, rawBody: string, headers: Record<string, string> = {}) {
  return request(api.baseUrl, "POST", "/contact_imports", { token, rawBody, headers: { "content-type": "application/json", ...headers } });
}

async function stagedRows(): Promise<number> {
  const [row] = await executor(api.database.db).rows<{ n: number }>(`SELECT count(*)::int AS n FROM contact_import_staged_rows`);
  return row!.n;
}

async function contactsOf(accountId: string) {
  return api.database.db.contact.findMany({ where: { accountId }, orderBy: { email: "asc" } });
}

test("an import of 250,000 rows (the row cap) succeeds, with merged duplicates and invalid rows counted", async () => {
  const { token, accountId } = await signUp(api);
  const rows: string[] = [];
  for (let i = 0; i < 249_000; i++) rows.push(JSON.stringify({ email: `p${i}@ex${i % 97}.com`, first_name: `F${i}` }));
  for (let i = 0; i < 900; i++) rows.push(JSON.stringify({ email: `P${i}@EX${i % 97}.COM`, company: `Again ${i}` })); // repeats, upper-cased
  for (let i = 0; i < 100; i++) rows.push(JSON.stringify({ email: `broken-${i}` }));
  const res = await postRaw(token, `{"contact_import":{"name":"cap","contacts":[${rows.join(",")}]}}`);
  assert.equal(res.status, 201, res.text.slice(0, 500));
  assert.deepEqual([res.body.total_rows, res.body.imported_count, res.body.duplicate_count, res.body.invalid_count], [250_000, 249_000, 900, 100]);
  assert.deepEqual(res.body.invalid_rows[99], { index: 249_999, email: "broken-99", reason: "email must be a valid email" });
  assert.equal(await api.database.db.contact.count({ where: { accountId } }), 249_000);
  assert.equal(await api.database.db.contactImportItem.count({ where: { importId: res.body.id } }), 249_000);
  const merged = await api.database.db.contact.findFirstOrThrow({ where: { accountId, email: "p5@ex5.com" } });
  assert.deepEqual([merged.firstName, merged.company], ["F5", "Again 5"]);
  assert.equal(await stagedRows(), 0);
});

test("a field after the contacts that the schema refuses is 422, and the rows already streamed are not kept", async () => {
  const { token, accountId } = await signUp(api);
  const rows = Array.from({ length: 12_000 }, (_, i) => JSON.stringify({ email: `late-${i}@example.com` })).join(",");
  assertError(await postRaw(token, `{"contacts":[${rows}],"list":"x"}`), api, 422, "validation_failed", /^list is not allowed$/);
  assertError(await postRaw(token, `{"contacts":[${rows}],"name":"${"n".repeat(201)}"}`), api, 422, "validation_failed", /^name length must be less than or equal to 200/);
  assertError(await postRaw(token, `{"contact_import":{"contacts":[${rows}]},"contacts":[${rows}]}`), api, 422, "validation_failed", /^contact_import is not allowed$/);
  assertError(await postRaw(token, `{"contacts":[${rows}]} trailing`), api, 400, "bad_request", /not valid JSON/);
  assert.equal(await api.database.db.contact.count({ where: { accountId } }), 0);
  assert.equal(await api.database.db.contactImport.count({ where: { accountId } }), 0);
  assert.equal(await stagedRows(), 0);
});

test("as with JSON.parse, the last of repeated keys wins and nested values keep their type", async () => {
  const { token, accountId } = await signUp(api);
  const res = await postRaw(
    token,
    `{"contacts":[{"email":"first@example.com"}],"name":"a","name":"b","contacts":[{"email":"second@example.com","email":"second@example.org"},{"email":"deep@example.com","company":[[[{"x":[1]}]]]},[{"email":"in-array@example.com"}]]}`,
  );
  assert.equal(res.status, 201, res.text);
  assert.equal(res.body.name, "b");
  assert.deepEqual([res.body.total_rows, res.body.imported_count, res.body.invalid_count], [3, 1, 2]);
  assert.deepEqual(res.body.invalid_rows, [
    { index: 1, email: "deep@example.com", reason: "company must be a string" },
    { index: 2, email: null, reason: "row must be of type object" },
  ]);
  assert.deepEqual(
    (await contactsOf(accountId)).map((c) => c.email),
    ["second@example.org"],
  );
});

test("an Idempotency-Key replay matches the body as JSON (whitespace aside) and leaves no staged rows", async () => {
  const { token, accountId } = await signUp(api);
  const rows = Array.from({ length: 7_000 }, (_, i) => ({ email: `idem-${i}@example.com` }));
  const first = await postRaw(token, JSON.stringify({ contacts: rows }), { "idempotency-key": "stream-1" });
  assert.equal(first.status, 201, first.text);
  const replay = await postRaw(token, JSON.stringify({ contacts: rows }, null, 2), { "idempotency-key": "stream-1" });
  assert.equal(replay.status, 201);
  assert.equal(replay.headers.get("idempotent-replay"), "true");
  assert.equal(replay.text, first.text);
  assertError(await postRaw(token, JSON.stringify({ contacts: rows.slice(1) }), { "idempotency-key": "stream-1" }), api, 409, "idempotency_conflict");
  assert.equal(await api.database.db.contactImport.count({ where: { accountId } }), 1);
  assert.equal(await stagedRows(), 0);
});

test("a client that goes away in the middle of its upload leaves no staged rows and no contacts", async () => {
  const { token, accountId } = await signUp(api);
  const url = new URL("/contact_imports", api.baseUrl);
  const req = http.request({
    host: url.hostname,
    port: url.port,
    path: url.pathname,
    method: "POST",
    headers: { "content-type": "application/json", "transfer-encoding": "chunked", authorization: `Bearer ${token}` },
  });
  req.on("error", () => undefined);
  req.write(`{"contacts":[${Array.from({ length: 20_000 }, (_, i) => JSON.stringify({ email: `gone-${i}@example.com` })).join(",")},`);
  await waitFor(async () => (await stagedRows()) > 0, { what: "rows staged from the upload" });
  req.destroy();
  await waitFor(async () => (await stagedRows()) === 0, { what: "the staged rows discarded" });
  assert.equal(await api.database.db.contact.count({ where: { accountId } }), 0);
  assert.equal(await api.database.db.contactImport.count({ where: { accountId } }), 0);
});
