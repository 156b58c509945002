import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { openPgConnection, type PgConnection } from "@outreach/db/testing";
import { waitFor } from "@outreach/testing";
import { signUp, startTestApi, trackingPaths, type TestApi } from "./helpers.js";

// The tracking routes under load: the pixel of an enrollment already opened is a
// plain read (no row lock, no write), the first open is recorded once however many
// loads race, and every tracking route is rate limited per client IP.
// Per IP per minute: one more every 12 s once spent, so a spent budget stays spent for the test.
const LIMIT = 5;
/** 300 loads from 100 client IPs, 3 each: within every IP's budget */
const ipOf = (net: string, i: number) => `${net}.${i % 100}`;
let api: TestApi;
let accountId: string;
let campaignId: string;
let holder: PgConnection;
/** a connection of its own: inside the holder's transaction pg_stat_activity would be one frozen snapshot */
let observer: PgConnection;
let counter = 0;

before(async () => {
  // TRUST_PROXY 1: the test is the proxy, X-Forwarded-For chooses the client IP.
  // A long lock timeout, so that a pixel load waiting on a row lock would be seen waiting.
  api = await startTestApi({ TRACKING_RATE_LIMIT_PER_MINUTE: String(LIMIT), TRUST_PROXY: "1", DATABASE_LOCK_TIMEOUT_MS: "60000", DATABASE_POOL_SIZE: "20" });
  ({ accountId } = await signUp(api));
  campaignId = (await api.ctx.db.campaign.create({ data: { accountId, name: "Pixels" } })).id;
  holder = await openPgConnection(api.database.url);
  observer = await openPgConnection(api.database.url);
});

after(async () => {
  await holder?.end();
  await observer?.end();
  await api?.close();
});

async function sentEnrollment(openedAt: Date | null = null) {
  const contact = await api.ctx.db.contact.create({ data: { accountId, email: `pixel${++counter}@example.com` } });
  return api.ctx.db.enrollment.create({ data: { accountId, campaignId, contactId: contact.id, status: openedAt ? "opened" : "sent", sentAt: new Date(), openedAt } });
}

async function load(path: string, ip: string, method = "GET") {
  const res = await fetch(`${api.baseUrl}${path}`, { method, headers: { "x-forwarded-for": ip } });
  const bytes = Buffer.from(await res.arrayBuffer());
  return { status: res.status, type: res.headers.get("content-type"), retryAfter: res.headers.get("retry-after"), gif: bytes.subarray(0, 6).toString("latin1") === "GIF89a" };
}

const openedEvents = (enrollmentId: string) => api.ctx.db.event.count({ where: { accountId, type: "enrollment.opened", data: { path: ["enrollment_id"], equals: enrollmentId } } });

/** Backends of the test database waiting for a lock right now. */
async function lockWaiters(): Promise<number> {
  const { rows } = await observer.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'");
  return rows[0]!.n;
}

test("300 concurrent loads of a not-yet-opened pixel: all answered with the GIF, one enrollment.opened", async () => {
  const enrollment = await sentEnrollment();
  const { pixel } = trackingPaths(api, enrollment.id);
  const results = await Promise.all(Array.from({ length: 300 }, (_, i) => load(pixel, ipOf("198.51.100", i))));
  assert.deepEqual(new Set(results.map((r) => `${r.status} ${r.type} ${r.gif}`)), new Set(["200 image/gif true"]));
  assert.equal(await openedEvents(enrollment.id), 1);
  const row = await api.ctx.db.enrollment.findUniqueOrThrow({ where: { id: enrollment.id } });
  assert.equal(row.status, "opened");
  assert.ok(row.openedAt);
});

test("after the first open the pixel takes no row lock: 300 concurrent loads answer while another transaction holds the enrollment row", async () => {
  const openedAt = new Date("2026-03-02T08:00:00.000Z");
  const enrollment = await sentEnrollment(openedAt);
  const { pixel } = trackingPaths(api, enrollment.id);
  await holder.query("BEGIN");
  try {
    await holder.query("SELECT id FROM enrollments WHERE id = $1 FOR UPDATE", [enrollment.id]);
    let waiting = 0;
    let done = false;
    const watcher = (async () => {
      while (!done) waiting = Math.max(waiting, await lockWaiters());
    })();
    const results = await Promise.race([
      Promise.all(Array.from({ length: 300 }, (_, i) => load(pixel, ipOf("192.0.2", i)))),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error("the pixel did not answer while the row was locked")), 30_000).unref()),
    ]).finally(() => {
      done = true;
    });
    await watcher;
    assert.deepEqual(new Set(results.map((r) => `${r.status} ${r.type} ${r.gif}`)), new Set(["200 image/gif true"]));
    assert.equal(waiting, 0, "no pixel load waited for the row lock");
  } finally {
    await holder.query("ROLLBACK");
  }
  const row = await api.ctx.db.enrollment.findUniqueOrThrow({ where: { id: enrollment.id } });
  assert.equal(row.openedAt?.toISOString(), openedAt.toISOString(), "the first open stays");
  assert.equal(await openedEvents(enrollment.id), 0, "no event for a later open");
});

test("tracking routes are rate limited per client IP: unsubscribe answers 429 with Retry-After, the pixel stays a harmless GIF and records nothing", async () => {
  const enrollment = await sentEnrollment();
  const { pixel, unsubscribe } = trackingPaths(api, enrollment.id);
  const ip = "203.0.113.9";
  // spend the IP's whole budget on unsubscribe pages
  const pages = await Promise.all(Array.from({ length: LIMIT }, () => load(unsubscribe, ip)));
  assert.deepEqual(new Set(pages.map((r) => r.status)), new Set([200]));

  const limitedPage = await load(unsubscribe, ip);
  assert.equal(limitedPage.status, 429);
  assert.match(String(limitedPage.type), /text\/html/);
  assert.ok(Number(limitedPage.retryAfter) >= 1, `Retry-After ${limitedPage.retryAfter}`);
  const limitedPost = await load(unsubscribe, ip, "POST");
  assert.equal(limitedPost.status, 429);
  assert.equal((await api.ctx.db.contact.findUniqueOrThrow({ where: { id: enrollment.contactId } })).unsubscribedAt, null, "a limited POST unsubscribes nobody");

  const limitedPixel = await load(pixel, ip);
  assert.deepEqual([limitedPixel.status, limitedPixel.type, limitedPixel.gif], [200, "image/gif", true]);
  assert.equal((await api.ctx.db.enrollment.findUniqueOrThrow({ where: { id: enrollment.id } })).openedAt, null, "a limited load is not recorded");

  // another client IP has its own budget
  assert.equal((await load(unsubscribe, "203.0.113.10")).status, 200);
  assert.deepEqual((await load(pixel, "203.0.113.10")).status, 200);
  await waitFor(async () => (await openedEvents(enrollment.id)) === 1, { what: "the open from the other IP" });
});
