import assert from "node:assert/strict";
import { test } from "node:test";
import { createClient } from "../src/index.js";
import { nextLinkTarget } from "../src/pagination.js";
import { startStandIn, type Received } from "./stand-in-server.js";

// The stand-in's paths are not the API's: these tests use the client's untyped calls.

const ITEMS = ["e", "d", "c", "b", "a"].map((id) => ({ id }));

/** Answers GET /items as the API pages a list: newest first, limit and starting_after, X-Has-More and Link. */
function pagedList(linkBase: (req: Received) => string) {
  return (req: Received) => {
    const url = new URL(req.url, "http://stand-in.invalid");
    const limit = Number(url.searchParams.get("limit") ?? 100);
    const after = url.searchParams.get("starting_after");
    const start = after ? ITEMS.findIndex((item) => item.id === after) + 1 : 0;
    const page = ITEMS.slice(start, start + limit);
    const hasMore = start + limit < ITEMS.length;
    const headers: Record<string, string> = { "x-has-more": String(hasMore) };
    if (hasMore) headers.link = `<${linkBase(req)}/items?limit=${limit}&starting_after=${page[page.length - 1]!.id}>; rel="next"`;
    return { status: 200, headers, json: page };
  };
}

test("paginate yields every item across pages, following Link while X-Has-More is true", async (t) => {
  const api = await startStandIn(
    t,
    pagedList((req) => `http://${req.headers.host}`),
  );
  const client = createClient({ baseUrl: api.baseUrl, apiKey: "ak_live_pages" });

  const seen = [];
  for await (const item of client.untyped.paginate("/items", { params: { query: { limit: 2 } } })) seen.push(item);

  assert.deepEqual(seen, ITEMS);
  assert.deepEqual(
    api.received.map((r) => r.url),
    ["/items?limit=2", "/items?limit=2&starting_after=d", "/items?limit=2&starting_after=b"],
  );
  assert.ok(
    api.received.every((r) => r.headers.authorization === "Bearer ak_live_pages"),
    "every page is fetched with the key",
  );
});

test("a relative Link is resolved against the page's URL", async (t) => {
  const api = await startStandIn(
    t,
    pagedList(() => ""),
  );
  const client = createClient({ baseUrl: api.baseUrl, apiKey: "k" });
  const seen = [];
  for await (const item of client.untyped.paginate("/items", { params: { query: { limit: 3 } } })) seen.push(item);
  assert.deepEqual(seen, ITEMS);
  assert.equal(api.received.length, 2);
});

test("one page is one request when X-Has-More is false", async (t) => {
  const api = await startStandIn(
    t,
    pagedList(() => ""),
  );
  const client = createClient({ baseUrl: api.baseUrl, apiKey: "k" });
  const seen = [];
  for await (const item of client.untyped.paginate("/items")) seen.push(item);
  assert.equal(seen.length, 5);
  assert.equal(api.received.length, 1);
});

test("stopping early fetches no further pages", async (t) => {
  const api = await startStandIn(
    t,
    pagedList((req) => `http://${req.headers.host}`),
  );
  const client = createClient({ baseUrl: api.baseUrl, apiKey: "k" });
  for await (const item of client.untyped.paginate("/items", { params: { query: { limit: 2 } } })) {
    if (item.id === "e") break;
  }
  assert.equal(api.received.length, 1);
});

test("a next page on another origin is refused, so the key goes nowhere else", async (t) => {
  const api = await startStandIn(
    t,
    pagedList(() => "http://elsewhere.example.com"),
  );
  const client = createClient({ baseUrl: api.baseUrl, apiKey: "k" });
  const seen = [];
  await assert.rejects(async () => {
    for await (const item of client.untyped.paginate("/items", { params: { query: { limit: 2 } } })) seen.push(item);
  }, /another origin: http:\/\/elsewhere\.example\.com/);
  assert.equal(seen.length, 2, "the first page was yielded");
  assert.equal(api.received.length, 1);
});

test("the rel=next target is read from a Link header with several entries", () => {
  assert.equal(nextLinkTarget('</items?page=1>; rel="prev", </items?page=3>; rel="next"'), "/items?page=3");
  assert.equal(nextLinkTarget("<https://api.example.com/x?a=1>; rel=next"), "https://api.example.com/x?a=1");
  assert.equal(nextLinkTarget('</a>; rel="prev"'), undefined);
  assert.equal(nextLinkTarget(null), undefined);
});
