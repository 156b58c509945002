import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, test } from "node:test";
import type { EventDataByType } from "@outreach/core";
import type { Db } from "@outreach/db";
import { liftQuotas, request, signUp, startTestApi, type TestApi } from "./helpers.js";

// Every list that can grow, walked a page at a time by following its
// Link rel="next" until X-Has-More is false: every row once, newest first.

let api: TestApi;
let db: Db;

before(async () => {
  api = await startTestApi({ SIGNUP_LIMIT_PER_HOUR: "100000", RATE_LIMIT_PER_MINUTE: "10000000" });
  db = api.database.db;
});
after(() => api?.close());

/** Rows each list gets: pairs share a created_at, so the id must break the tie. */
const ROWS = 6;
const base = Date.now() - 3_600_000;
const at = (i: number) => new Date(base + Math.floor(i / 2) * 1000);

interface Row {
  id: string;
  at: Date;
}

/** Ids newest first: the time descending, then the id descending. */
function newestFirst(rows: Row[]): string[] {
  return [...rows].sort((x, y) => y.at.getTime() - x.at.getTime() || (x.id < y.id ? 1 : x.id > y.id ? -1 : 0)).map((r) => r.id);
}

interface Seeded {
  /** the list's path, with any filter it is walked with */
  path: string;
  /** what the list holds, in any order */
  rows: Row[];
}

interface ListCase {
  name: string;
  /** writes the account's rows; `token` is the account's key */
  seed(accountId: string, token: string): Promise<Seeded>;
  /** the id starting_after takes, from a row of the answer */
  idOf?: (row: any) => string;
}

async function campaign(accountId: string): Promise<string> {
  return (await db.campaign.create({ data: { accountId, name: `Paged ${randomUUID().slice(0, 8)}` } })).id;
}

async function contacts(accountId: string, n: number) {
  const run = randomUUID().slice(0, 8);
  const rows = [];
  for (let i = 0; i < n; i++) rows.push(await db.contact.create({ data: { accountId, email: `p-${run}-${i}@example.com`, createdAt: at(i) } }));
  return rows;
}

async function webhook(accountId: string): Promise<string> {
  return (await db.webhook.create({ data: { accountId, url: "https://hooks.example.com/in", secretEnc: "x", eventFilters: ["*"] } })).id;
}

async function credential(accountId: string, campaignId: string): Promise<string> {
  const row = await db.smtpCredential.create({
    data: {
      accountId,
      campaignId,
      label: "Inbox",
      fromEmail: "inbox@sender.test",
      smtpHost: "smtp.sender.test",
      smtpPort: 587,
      smtpUsername: "inbox@sender.test",
      smtpPasswordEnc: "x",
      dailyLimit: 50,
    },
  });
  return row.id;
}

const asRow = (r: { id: string; createdAt: Date }): Row => ({ id: r.id, at: r.createdAt });
const times = <T>(n: number, make: (i: number) => Promise<T>) => Promise.all(Array.from({ length: n }, (_, i) => make(i)));

/** The data of an enrollment.sent event as the sender records it. */
const sentEventData = (i: number): EventDataByType["enrollment.sent"] => ({
  enrollment_id: randomUUID(),
  contact_id: randomUUID(),
  contact_email: `sent-${i}@example.com`,
  campaign_id: randomUUID(),
  status: "sent",
  sent_at: at(i).toISOString(),
  replied_at: null,
  bounce_reason: null,
  variant_id: null,
});

const LISTS: ListCase[] = [
  {
    name: "GET /campaigns",
    async seed(accountId) {
      await times(ROWS, (i) => db.campaign.create({ data: { accountId, name: `C${i}`, createdAt: at(i) } }));
      return { path: "/campaigns", rows: (await db.campaign.findMany({ where: { accountId } })).map(asRow) };
    },
  },
  {
    name: "GET /contacts",
    async seed(accountId) {
      return { path: "/contacts", rows: (await contacts(accountId, ROWS)).map(asRow) };
    },
  },
  {
    name: "GET /contact_imports",
    async seed(accountId) {
      const rows = await times(ROWS, (i) => db.contactImport.create({ data: { accountId, name: `I${i}`, createdAt: at(i) } }));
      return { path: "/contact_imports", rows: rows.map(asRow) };
    },
  },
  {
    name: "GET /outreaches",
    async seed(accountId) {
      const rows = await times(ROWS, (i) => db.outreach.create({ data: { accountId, name: `O${i}`, createdAt: at(i) } }));
      return { path: "/outreaches", rows: rows.map(asRow) };
    },
  },
  {
    name: "GET /webhooks",
    async seed(accountId) {
      await times(ROWS, (i) => db.webhook.create({ data: { accountId, url: `https://hooks.example.com/${i}`, secretEnc: "x", eventFilters: ["*"], createdAt: at(i) } }));
      return { path: "/webhooks", rows: (await db.webhook.findMany({ where: { accountId } })).map(asRow) };
    },
  },
  {
    name: "GET /webhooks/:id/deliveries",
    async seed(accountId) {
      const webhookId = await webhook(accountId);
      const rows = await times(ROWS, (i) => db.webhookDelivery.create({ data: { accountId, webhookId, eventType: "enrollment.sent", state: i % 2 ? "pending" : "failed", createdAt: at(i) } }));
      return { path: `/webhooks/${webhookId}/deliveries`, rows: rows.map(asRow) };
    },
  },
  {
    name: "GET /events",
    async seed(accountId) {
      await times(ROWS, (i) => db.event.create({ data: { accountId, type: "enrollment.sent", data: sentEventData(i) as object, createdAt: at(i), dispatchedAt: new Date() } }));
      return { path: "/events", rows: (await db.event.findMany({ where: { accountId } })).map(asRow) };
    },
  },
  {
    name: "GET /api_keys",
    async seed(accountId, token) {
      for (let i = 0; i < ROWS - 1; i++) assert.equal((await request(api.baseUrl, "POST", "/api_keys", { token, body: { label: `K${i}` } })).status, 201);
      const keys = await db.apiKey.findMany({ where: { accountId } });
      // keys made in the same millisecond tie on created_at
      await db.apiKey.updateMany({ where: { id: { in: keys.slice(0, 2).map((k) => k.id) } }, data: { createdAt: keys[0]!.createdAt } });
      // a revoked key is not listed
      const revoked = await request(api.baseUrl, "POST", "/api_keys", { token, body: { label: "revoked" } });
      assert.equal((await request(api.baseUrl, "DELETE", `/api_keys/${revoked.body.id}`, { token })).status, 200);
      return { path: "/api_keys", rows: (await db.apiKey.findMany({ where: { accountId, revokedAt: null } })).map(asRow) };
    },
  },
  {
    name: "GET /blocklist",
    async seed(accountId) {
      const rows = await times(ROWS, (i) => db.blocklistEntry.create({ data: { accountId, kind: "email", value: `b${i}-${randomUUID().slice(0, 6)}@example.com`, createdAt: at(i) } }));
      return { path: "/blocklist", rows: rows.map(asRow) };
    },
  },
  {
    name: "GET /campaigns/:id/skips (filtered by kind)",
    async seed(accountId) {
      const campaignId = await campaign(accountId);
      const [c] = await contacts(accountId, 1);
      const make = (i: number, kind: "mx_invalid" | "blocklisted") => db.enrollmentSkip.create({ data: { accountId, campaignId, contactId: c!.id, kind, reason: `r${i}`, createdAt: at(i) } });
      const rows = await times(ROWS, (i) => make(i, "mx_invalid"));
      // of another kind: not in the filtered list
      await times(2, (i) => make(i, "blocklisted"));
      return { path: `/campaigns/${campaignId}/skips?kind=mx_invalid`, rows: rows.map(asRow) };
    },
  },
  {
    name: "GET /campaigns/:id/replies",
    idOf: (row) => row.enrollment_id,
    async seed(accountId) {
      const campaignId = await campaign(accountId);
      const people = await contacts(accountId, ROWS + 1);
      const rows = await times(ROWS, (i) => db.enrollment.create({ data: { accountId, campaignId, contactId: people[i]!.id, status: "replied", repliedAt: at(i) } }));
      // not replied: not listed
      await db.enrollment.create({ data: { accountId, campaignId, contactId: people[ROWS]!.id, status: "sent" } });
      return { path: `/campaigns/${campaignId}/replies`, rows: rows.map((e) => ({ id: e.id, at: e.repliedAt! })) };
    },
  },
  {
    name: "GET /replies",
    async seed(accountId) {
      const campaignId = await campaign(accountId);
      const credentialId = await credential(accountId, campaignId);
      const people = await contacts(accountId, ROWS);
      const rows = await times(ROWS, async (i) => {
        const enrollment = await db.enrollment.create({ data: { accountId, campaignId, contactId: people[i]!.id, status: "replied" } });
        return db.inboundMessage.create({
          data: {
            accountId,
            campaignId,
            credentialId,
            enrollmentId: enrollment.id,
            uidValidity: 1n,
            uid: BigInt(i + 1),
            kind: i === 3 ? "auto_reply" : "reply",
            fromEmail: people[i]!.email,
            receivedAt: at(i),
          },
        });
      });
      return { path: "/replies", rows: rows.map((m) => ({ id: m.id, at: m.receivedAt })) };
    },
  },
];

const NEXT = /^<([^>]+)>; rel="next"$/;

/** Follows the list from its first page of `limit` to the last; answers every page's ids and the last page's headers. */
async function walk(path: string, limit: number, token: string, idOf: (row: any) => string) {
  let url = `${api.baseUrl}${path}${path.includes("?") ? "&" : "?"}limit=${limit}`;
  const pages: string[][] = [];
  for (;;) {
    assert.ok(url.startsWith(`${api.baseUrl}/`), `the next page is on the API's own base: ${url}`);
    const res = await request(api.baseUrl, "GET", url.slice(api.baseUrl.length), { token });
    assert.equal(res.status, 200, res.text);
    assert.ok(Array.isArray(res.body), "a bare array");
    assert.ok(res.body.length <= limit);
    pages.push(res.body.map(idOf));
    assert.ok(pages.length <= 20, "the walk ends");
    const hasMore = res.headers.get("x-has-more");
    const link = res.headers.get("link");
    if (hasMore === "false") {
      assert.equal(link, null, "the last page has no Link");
      return pages;
    }
    assert.equal(hasMore, "true");
    assert.equal(res.body.length, limit, "a page that is not the last is full");
    const next = NEXT.exec(link ?? "");
    assert.ok(next, `Link rel="next": ${link}`);
    const target = new URL(next[1]!);
    // same path and filters, the page size kept, continuing after the last row
    assert.equal(target.pathname, new URL(path, api.baseUrl).pathname);
    for (const [key, value] of new URL(path, api.baseUrl).searchParams) assert.equal(target.searchParams.get(key), value);
    assert.equal(target.searchParams.get("limit"), String(limit));
    assert.equal(target.searchParams.get("starting_after"), pages.at(-1)!.at(-1));
    url = next[1]!;
  }
}

/** An account of its own per list, so every row in it is the list's. */
async function account() {
  const { accountId, token } = await signUp(api);
  await liftQuotas(api, accountId);
  return { accountId, token };
}

for (const list of LISTS) {
  describe(list.name, () => {
    const idOf = list.idOf ?? ((row: any) => row.id);
    let mine: { token: string; seeded: Seeded };
    let theirs: Seeded;

    before(async () => {
      const a = await account();
      mine = { token: a.token, seeded: await list.seed(a.accountId, a.token) };
      const b = await account();
      theirs = await list.seed(b.accountId, b.token);
    });

    test("pages follow Link rel=next until X-Has-More is false: every row once, newest first", async () => {
      const expected = newestFirst(mine.seeded.rows);
      assert.ok(expected.length >= ROWS);
      // 3 divides the rows: the second page is the last, with nothing after it
      for (const limit of [3, 4, 2]) {
        const pages = await walk(mine.seeded.path, limit, mine.token, idOf);
        assert.deepEqual(pages.flat(), expected, `limit ${limit}`);
        assert.equal(pages.length, Math.ceil(expected.length / limit), `limit ${limit}`);
      }
    });

    test("a page that holds the whole list says X-Has-More: false, without a Link", async () => {
      const all = mine.seeded.rows.length;
      const res = await request(api.baseUrl, "GET", `${mine.seeded.path}${mine.seeded.path.includes("?") ? "&" : "?"}limit=${all}`, { token: mine.token });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.length, all);
      assert.equal(res.headers.get("x-has-more"), "false");
      assert.equal(res.headers.get("link"), null);
    });

    test("starting_after that is another account's, unknown or malformed is 422 validation_failed naming it", async () => {
      const separator = mine.seeded.path.includes("?") ? "&" : "?";
      for (const cursor of [theirs.rows[0]!.id, randomUUID(), "not-an-id"]) {
        const res = await request(api.baseUrl, "GET", `${mine.seeded.path}${separator}starting_after=${cursor}`, { token: mine.token });
        assert.equal(res.status, 422, res.text);
        assert.equal(res.body.code, "validation_failed");
        assert.match(res.body.message, /^starting_after must be the id of /);
        assert.deepEqual(
          res.body.details.errors.map((e: any) => e.field),
          ["starting_after"],
        );
      }
    });
  });
}

test("the Link is on the base the client called, with the scheme and host a trusted proxy forwarded", async () => {
  const proxied = await startTestApi({ SIGNUP_LIMIT_PER_HOUR: "100000", TRUST_PROXY: "true" });
  try {
    const { accountId, token } = await signUp(proxied);
    await proxied.database.db.outreach.createMany({
      data: [
        { accountId, name: "one" },
        { accountId, name: "two" },
      ],
    });
    const headers = { "x-forwarded-proto": "https", "x-forwarded-host": "api.example.com" };
    const res = await request(proxied.baseUrl, "GET", "/outreaches?limit=1", { token, headers });
    assert.equal(res.headers.get("x-has-more"), "true");
    assert.equal(res.headers.get("link"), `<https://api.example.com/outreaches?limit=1&starting_after=${res.body[0].id}>; rel="next"`);
  } finally {
    await proxied.close();
  }
});

test("a forwarded host from an untrusted peer is not echoed into the Link", async () => {
  const { accountId, token } = await account();
  await db.outreach.createMany({
    data: [
      { accountId, name: "one" },
      { accountId, name: "two" },
    ],
  });
  const res = await request(api.baseUrl, "GET", "/outreaches?limit=1", { token, headers: { "x-forwarded-proto": "https", "x-forwarded-host": "evil.example" } });
  assert.equal(res.headers.get("link"), `<${api.baseUrl}/outreaches?limit=1&starting_after=${res.body[0].id}>; rel="next"`);
});
