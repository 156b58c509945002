import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Db, EnrollmentStatus } from "@outreach/db";
import { createTestDatabase, type TestDatabase } from "@outreach/testing";
import { recordOpen } from "../src/tracking/record-open.js";

let database: TestDatabase;
let db: Db;
let accountId: string;
let campaignId: string;
let counter = 0;

before(async () => {
  database = await createTestDatabase();
  db = database.db;
  const plan = await db.plan.findFirstOrThrow({ where: { slug: "free" } });
  const account = await db.account.create({ data: { email: `opens-${Date.now()}@example.com`, planId: plan.id, currentPeriodEnd: new Date(Date.now() + 30 * 86_400_000) } });
  accountId = account.id;
  campaignId = (await db.campaign.create({ data: { accountId, name: "Opens" } })).id;
});

after(async () => {
  await database?.drop();
});

async function enrollment(status: EnrollmentStatus, extra: { repliedAt?: Date; bouncedAt?: Date; bounceReason?: string } = {}) {
  const contact = await db.contact.create({ data: { accountId, email: `contact${++counter}@example.com` } });
  const sentAt = status === "pending" ? null : new Date("2026-03-01T10:00:00.000Z");
  return db.enrollment.create({ data: { accountId, campaignId, contactId: contact.id, status, sentAt, ...extra }, include: { contact: true } });
}

const openedEvents = (enrollmentId: string) => db.event.findMany({ where: { type: "enrollment.opened", data: { path: ["enrollment_id"], equals: enrollmentId } }, orderBy: { createdAt: "asc" } });

test("the first open marks a sent enrollment opened and emits one event; later opens change nothing", async () => {
  const e = await enrollment("sent");
  const first = new Date("2026-03-02T08:00:00.000Z");
  assert.deepEqual(await recordOpen(db, e.id, first), { firstOpen: true });
  assert.deepEqual(await recordOpen(db, e.id, new Date("2026-03-02T09:00:00.000Z")), { firstOpen: false });
  assert.deepEqual(await recordOpen(db, e.id), { firstOpen: false });

  const row = await db.enrollment.findUniqueOrThrow({ where: { id: e.id } });
  assert.equal(row.status, "opened");
  assert.equal(row.openedAt?.toISOString(), first.toISOString(), "openedAt is the first open");
  const events = await openedEvents(e.id);
  assert.equal(events.length, 1);
  assert.equal(events[0]!.accountId, accountId);
  assert.deepEqual(events[0]!.data, {
    enrollment_id: e.id,
    contact_id: e.contactId,
    contact_email: e.contact.email,
    campaign_id: campaignId,
    status: "opened",
    sent_at: "2026-03-01T10:00:00.000Z",
    replied_at: null,
    bounce_reason: null,
    variant_id: null,
  });
});

test("concurrent opens of one enrollment emit exactly one event", async () => {
  const e = await enrollment("sent");
  const results = await Promise.all(Array.from({ length: 5 }, () => recordOpen(db, e.id)));
  assert.equal(results.filter((r) => r.firstOpen).length, 1);
  assert.equal((await openedEvents(e.id)).length, 1);
});

test("an open never downgrades a replied or bounced enrollment", async () => {
  const repliedAt = new Date("2026-03-03T12:00:00.000Z");
  const replied = await enrollment("replied", { repliedAt });
  const bounced = await enrollment("bounced", { bouncedAt: repliedAt, bounceReason: "550 no such user" });
  for (const e of [replied, bounced]) {
    assert.deepEqual(await recordOpen(db, e.id), { firstOpen: true });
    assert.deepEqual(await recordOpen(db, e.id), { firstOpen: false });
    const row = await db.enrollment.findUniqueOrThrow({ where: { id: e.id } });
    assert.equal(row.status, e.status, `${e.status} stays ${e.status}`);
    assert.ok(row.openedAt, "the open is still recorded");
    const events = await openedEvents(e.id);
    assert.equal(events.length, 1);
    assert.equal((events[0]!.data as { status: string }).status, e.status);
  }
  const [event] = await openedEvents(replied.id);
  assert.equal((event!.data as { replied_at: string }).replied_at, repliedAt.toISOString());
  const [bounceEvent] = await openedEvents(bounced.id);
  assert.equal((bounceEvent!.data as { bounce_reason: string }).bounce_reason, "550 no such user");
});

test("unsubscribed and pending enrollments keep their status", async () => {
  for (const status of ["unsubscribed", "pending"] as const) {
    const e = await enrollment(status);
    await recordOpen(db, e.id);
    assert.equal((await db.enrollment.findUniqueOrThrow({ where: { id: e.id } })).status, status);
  }
});

test("an unknown enrollment records nothing", async () => {
  const before = await db.event.count();
  assert.deepEqual(await recordOpen(db, "00000000-0000-4000-8000-000000000000"), { firstOpen: false });
  assert.equal(await db.event.count(), before);
});

test("inside a caller's transaction the open rolls back with it", async () => {
  const e = await enrollment("sent");
  await assert.rejects(
    db.$transaction(async (tx) => {
      assert.deepEqual(await recordOpen(tx, e.id), { firstOpen: true });
      throw new Error("rollback");
    }),
    /rollback/,
  );
  const row = await db.enrollment.findUniqueOrThrow({ where: { id: e.id } });
  assert.equal(row.status, "sent");
  assert.equal(row.openedAt, null);
  assert.equal((await openedEvents(e.id)).length, 0);
});
