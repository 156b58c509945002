// Contact imports in bounded memory: the api runs as its own process with its V8
// heap capped at 256 MB (half the api pod's memory limit in k8s/base/api-deployment.yaml),
// and must take two maximum-size imports (64 MiB bodies) at once, refuse a body
// that turns out malformed after 40 MB or that runs past the cap, and write nothing
// for a refused one. An api that holds whole bodies (raw bytes, the decoded text and
// the parsed tree) runs out of heap here.
import assert from "node:assert/strict";
import http from "node:http";
import { after, before, test } from "node:test";
import { executor } from "@outreach/db";
import { createTestDatabase, startAppProcess, uniqueQueuePrefix, type AppProcess, type TestDatabase } from "@outreach/testing";

const MB = 1024 * 1024;
const BODY_CAP = 64 * MB;

let database: TestDatabase;
let api: AppProcess;
before(async () => {
  database = await createTestDatabase();
  api = await startAppProcess("api", {
    env: { DATABASE_URL: database.url, QUEUE_PREFIX: uniqueQueuePrefix(), RATE_LIMIT_PER_MINUTE: "100000", SIGNUP_LIMIT_PER_HOUR: "1000", LOG_LEVEL: "error" },
    nodeArgs: ["--max-old-space-size=256"],
  });
});
after(async () => {
  await api?.stop();
  await database?.drop();
});

interface Answer {
  status: number;
  body: any;
}

/** POSTs a body (a Buffer with Content-Length, or pieces sent with Transfer-Encoding: chunked). */
function post(path: string, token: string | null, body: Buffer | (() => Iterable<Buffer>)): Promise<Answer> {
  const url = new URL(path, api.baseUrl);
  const headers: Record<string, string | number> = { "content-type": "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  if (Buffer.isBuffer(body)) headers["content-length"] = body.length;
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, path: url.pathname, method: "POST", headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined });
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    if (Buffer.isBuffer(body)) {
      req.end(body);
      return;
    }
    const pieces = body()[Symbol.iterator]();
    const pump = () => {
      for (let next = pieces.next(); !next.done; next = pieces.next()) if (!req.write(next.value)) return void req.once("drain", pump);
      req.end();
    };
    pump();
  });
}

async function signUp(name: string): Promise<{ token: string; accountId: string }> {
  const res = await post("/signup", null, Buffer.from(JSON.stringify({ email: `${name}-${Date.now()}@example.com` })));
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return { token: res.body.api_key.plaintext, accountId: res.body.account_id };
}

/** A long but valid row (about 700 bytes of JSON): every text field near its 200-character limit. */
function longRow(i: number): string {
  const words = "Northwind Traders International Logistics Holdings Group ".repeat(4);
  return JSON.stringify({
    email: `procurement.department.contact.${i}@subsidiary-${i % 4999}.northwind-traders-international.example.com`,
    first_name: `${words.slice(0, 180)} ${i}`,
    last_name: `${words.slice(7, 187)} ${i % 7919}`,
    company: `${words.slice(13, 193)} ${i % 1009}`,
  });
}

/** Rows of `longRow` filling a contact import body up to `bytes`, in pieces. */
function rowsUpTo(bytes: number): { pieces: string[]; rows: number } {
  const pieces: string[] = [];
  let size = 0;
  for (let i = 0; ; i++) {
    const row = longRow(i);
    if (size + row.length + 1 > bytes) return { pieces, rows: i };
    pieces.push(row);
    size += row.length + 1;
  }
}

async function stagedRows(): Promise<number> {
  const [row] = await executor(database.db).rows<{ n: number }>(`SELECT count(*)::int AS n FROM contact_import_staged_rows`);
  return row!.n;
}

test("two maximum-size imports (64 MiB each) at once both succeed in a heap of 256 MB, with the right counts", async () => {
  const { pieces, rows } = rowsUpTo(BODY_CAP - 1024);
  const body = Buffer.from(`{"contact_import":{"name":"max","contacts":[${pieces.join(",")}]}}`);
  assert.ok(body.length > BODY_CAP - 2048 && body.length <= BODY_CAP, `body of ${body.length} bytes`);
  const a = await signUp("max-a");
  const b = await signUp("max-b");

  const [first, second] = await Promise.all([post("/contact_imports", a.token, body), post("/contact_imports", b.token, body)]);
  for (const res of [first, second]) {
    assert.equal(res.status, 201, JSON.stringify(res.body).slice(0, 500));
    assert.deepEqual([res.body.total_rows, res.body.imported_count, res.body.duplicate_count, res.body.invalid_count], [rows, rows, 0, 0]);
  }
  for (const account of [a, b]) assert.equal(await database.db.contact.count({ where: { accountId: account.accountId } }), rows);
  const sample = await database.db.contact.findFirstOrThrow({
    where: { accountId: b.accountId, email: `procurement.department.contact.77@subsidiary-77.northwind-traders-international.example.com` },
  });
  assert.equal(sample.company, JSON.parse(longRow(77)).company);
  assert.equal(await stagedRows(), 0, "staged rows are deleted once merged");
});

test("a body that turns malformed after 40 MB is 400 bad_request and leaves nothing written", async () => {
  const { token, accountId } = await signUp("malformed");
  const { pieces } = rowsUpTo(40 * MB);
  const body = Buffer.from(`{"contacts":[${pieces.join(",")},{"email": "late@example.com",,}, ${longRow(1)}]}`);
  const res = await post("/contact_imports", token, body);
  assert.equal(res.status, 400, JSON.stringify(res.body));
  assert.equal(res.body.code, "bad_request");
  assert.match(res.body.message, /not valid JSON/);
  assert.equal(await database.db.contact.count({ where: { accountId } }), 0);
  assert.equal(await database.db.contactImport.count({ where: { accountId } }), 0);
  assert.equal(await stagedRows(), 0);
});

test("a chunked body (no Content-Length) that runs past 64 MB is 400 bad_request naming the limit, and writes nothing", async () => {
  const { token, accountId } = await signUp("over-cap");
  const rows = Buffer.from(`${longRow(0)},`.repeat(1400)); // about 1 MB of valid rows per piece
  const res = await post("/contact_imports", token, function* () {
    yield Buffer.from('{"contacts":[');
    for (let sent = 0; sent <= BODY_CAP + MB; sent += rows.length) yield rows;
    yield Buffer.from(`${longRow(1)}]}`);
  });
  assert.equal(res.status, 400, JSON.stringify(res.body));
  assert.equal(res.body.code, "bad_request");
  assert.match(res.body.message, /64mb/);
  assert.equal(await database.db.contact.count({ where: { accountId } }), 0);
  assert.equal(await database.db.contactImport.count({ where: { accountId } }), 0);
  assert.equal(await stagedRows(), 0);
});
