import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { poolOf } from "@outreach/db";
import { countingQueries, request, startTestApi, type TestApi } from "./helpers.js";

// GET /plans and /readyz need no key: a flood of them must not load the database.
// The production defaults: /plans from memory for 30 s, /readyz's checks reused for 1 s.
let api: TestApi;
before(async () => {
  api = await startTestApi();
});
after(() => api?.close());

/**
 * Counts the database work `fn` causes: statements through the API's client
 * (an extension swapped in as ctx.db, read per request) and connections taken
 * from its pool (the pool's own acquire event).
 */
async function countingDatabase<T>(fn: () => Promise<T>): Promise<{ result: T; queries: number; checkouts: number }> {
  const pool = poolOf(api.ctx.db)!;
  let checkouts = 0;
  const onAcquire = () => checkouts++;
  pool.on("acquire", onAcquire);
  try {
    return await countingQueries(api, async (queries) => {
      const result = await fn();
      return { result, queries: queries(), checkouts };
    });
  } finally {
    pool.off("acquire", onAcquire);
  }
}

/** `count` GETs of `path`, 20 at a time; answers their statuses. */
async function hammer(path: string, count: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let sent = 0; sent < count; sent += 20) {
    const batch = await Promise.all(Array.from({ length: 20 }, () => request(api.baseUrl, "GET", path)));
    statuses.push(...batch.map((res) => res.status));
  }
  return statuses;
}

test("200 requests to GET /plans cost one query", async () => {
  const expected = (await request(api.baseUrl, "GET", "/plans")).body;
  // from a cold cache: the first requests wait for one query together
  const cold = await startTestApi();
  try {
    const pool = poolOf(cold.ctx.db)!;
    let checkouts = 0;
    pool.on("acquire", () => checkouts++);
    const first = await Promise.all(Array.from({ length: 50 }, () => request(cold.baseUrl, "GET", "/plans")));
    assert.ok(first.every((res) => res.status === 200));
    assert.equal(checkouts, 1);
  } finally {
    await cold.close();
  }
  const { result: statuses, queries, checkouts } = await countingDatabase(() => hammer("/plans", 200));
  assert.deepEqual(statuses, Array(200).fill(200));
  assert.ok(queries <= 1 && checkouts <= 1, `${queries} queries, ${checkouts} connections taken`);
  assert.deepEqual((await request(api.baseUrl, "GET", "/plans")).body, expected);
});

test("200 requests to /readyz cost at most one database check per second", async () => {
  const startedAt = Date.now();
  const { result: statuses, checkouts } = await countingDatabase(() => hammer("/readyz", 200));
  const seconds = Math.ceil((Date.now() - startedAt) / 1000);
  assert.deepEqual(statuses, Array(200).fill(200));
  assert.ok(checkouts <= seconds + 1, `${checkouts} connections taken in ${seconds} s`);
});
