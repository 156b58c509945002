import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createRawPool, executor, inRawTransaction, type RawPool } from "@outreach/db";
import { createBulkCampaign, createTestDatabase, type TestDatabase } from "@outreach/testing";
import { rescheduleHeldSends, scheduleEnrollments, type HeldSendsOptions, type PlanCarry } from "../src/sending/schedule-enrollments.js";

// The same plan whether its statements go through a Prisma transaction or a pg
// connection (the dispatcher's path): no jitter, so both plans are determined by
// the window, the contacts' zones, the ramp and the daily limits alone.

let database: TestDatabase;
let pool: RawPool;

before(async () => {
  database = await createTestDatabase();
  pool = createRawPool(database.url);
});
after(async () => {
  await pool?.end();
  await database?.drop();
});

const ENROLLMENTS = 90;
const NOW = new Date("2026-03-27T22:30:00Z"); // a Friday evening in Europe, before the clocks change on Sunday
const ZONES = ["Europe/Berlin", "America/New_York", "Asia/Tokyo", null, "Not/AZone"];

async function campaignWithWindow(label: string, contactZones = true): Promise<{ campaignId: string; credentialIds: string[]; enrollmentIds: string[] }> {
  const { campaignId, credentialIds } = await createBulkCampaign(database.db, { enrollments: ENROLLMENTS, steps: 3, credentials: 2, dailyLimit: 9, label });
  const db = database.db;
  await executor(db).execute(`UPDATE campaigns SET schedule = $2::jsonb WHERE id = $1::uuid`, [
    campaignId,
    JSON.stringify({ timezone: "Europe/Paris", days: ["mon", "tue", "wed", "thu", "fri"], start_time: "09:00", end_time: "17:30", use_contact_timezone: contactZones }),
  ]);
  // the first inbox ramps up: 2 on the ramp's first day, 3 more each day after
  await executor(db).execute(`UPDATE smtp_credentials SET "rampStartPerDay" = 2, "rampIncreasePerDay" = 3, "rampStartedAt" = $2::timestamptz WHERE id = $1::uuid`, [
    credentialIds[0],
    "2026-03-26T08:00:00Z",
  ]);
  const enrollments = await executor(db).rows<{ id: string; contactId: string }>(
    `SELECT id::text AS id, "contactId"::text AS "contactId" FROM enrollments WHERE "campaignId" = $1::uuid ORDER BY "createdAt", id`,
    [campaignId],
  );
  for (const [i, e] of enrollments.entries()) {
    await executor(db).execute(`UPDATE contacts SET timezone = $2 WHERE id = $1::uuid`, [e.contactId, ZONES[i % ZONES.length]]);
  }
  await executor(db).execute(`UPDATE campaigns SET "minWaitSeconds" = 0, "maxWaitSeconds" = 0 WHERE id = $1::uuid`, [campaignId]);
  return { campaignId, credentialIds, enrollmentIds: enrollments.map((e) => e.id) };
}

/** The plan as comparable rows: enrollment and credential by their index, not their id. */
async function planOf(campaignId: string, credentialIds: string[], enrollmentIds: string[] | null): Promise<string[]> {
  const rows = await executor(database.db).rows<{ enrollmentId: string; credentialId: string; stepPosition: number; dueAt: Date; limitDay: string | null }>(
    `SELECT "enrollmentId"::text AS "enrollmentId", "credentialId"::text AS "credentialId", "stepPosition", "dueAt", "limitDay"::text AS "limitDay"
     FROM step_sends WHERE "campaignId" = $1::uuid`,
    [campaignId],
  );
  return rows.map((r) => `${enrollmentIds ? enrollmentIds.indexOf(r.enrollmentId) : "-"} ${r.stepPosition} ${credentialIds.indexOf(r.credentialId)} ${r.dueAt.toISOString()} ${r.limitDay}`).sort();
}

test("a plan made through a pg connection equals the one made through a Prisma transaction, chunk by chunk", async () => {
  const viaPrisma = await campaignWithWindow("viaprisma");
  const viaPg = await campaignWithWindow("viapg");
  const chunks = [0, 25, 50, ENROLLMENTS];
  let prismaCarry: PlanCarry | null = null;
  let pgCarry: PlanCarry | null = null;
  for (let i = 0; i + 1 < chunks.length; i++) {
    // the middle chunk starts without a carry: the streams are read back from step_sends
    const fresh = i === 1;
    const prismaIds = viaPrisma.enrollmentIds.slice(chunks[i], chunks[i + 1]);
    const pgIds = viaPg.enrollmentIds.slice(chunks[i], chunks[i + 1]);
    const a = await database.db.$transaction((tx) => scheduleEnrollments(tx, viaPrisma.campaignId, prismaIds, NOW, fresh ? null : prismaCarry));
    const b = await inRawTransaction(pool, (client) => scheduleEnrollments(client, viaPg.campaignId, pgIds, NOW, fresh ? null : pgCarry));
    assert.equal(b.scheduled, a.scheduled);
    assert.equal(b.firstDueAt?.toISOString(), a.firstDueAt?.toISOString());
    assert.equal(b.lastStep1DueAt?.toISOString(), a.lastStep1DueAt?.toISOString());
    prismaCarry = a.carry;
    pgCarry = b.carry;
  }
  const expected = await planOf(viaPrisma.campaignId, viaPrisma.credentialIds, viaPrisma.enrollmentIds);
  assert.equal(expected.length, ENROLLMENTS * 3);
  assert.deepEqual(await planOf(viaPg.campaignId, viaPg.credentialIds, viaPg.enrollmentIds), expected);

  // both plans kept the ramp: 2 step-1 sends on the first inbox on its ramp's first working day in Paris time at most
  const [dispatched] = await executor(database.db).rows<{ n: number }>(
    `SELECT count(*)::int AS n FROM enrollments WHERE "campaignId" = $1::uuid AND "dispatchedAt" IS NOT NULL AND "credentialId" IS NOT NULL`,
    [viaPg.campaignId],
  );
  assert.equal(dispatched!.n, ENROLLMENTS);
});

test("bookings read back through a pg connection count the days the Prisma path counts", async () => {
  const viaPg = await campaignWithWindow("bookings");
  await inRawTransaction(pool, (client) => scheduleEnrollments(client, viaPg.campaignId, viaPg.enrollmentIds.slice(0, 40), NOW, null));
  // a second chunk without a carry must not book a mailbox day over its limit (the bookings read back as days)
  await inRawTransaction(pool, (client) => scheduleEnrollments(client, viaPg.campaignId, viaPg.enrollmentIds.slice(40), NOW, null));
  const over = await executor(database.db).rows<{ credentialId: string; day: string; n: number }>(
    `SELECT "credentialId"::text AS "credentialId", "limitDay"::text AS day, count(*)::int AS n FROM step_sends
     WHERE "campaignId" = $1::uuid AND "stepPosition" = 1 GROUP BY 1, 2 HAVING count(*) > 9`,
    [viaPg.campaignId],
  );
  assert.deepEqual(over, []);
});

test("held sends planned again chunk by chunk (keyset, created before) give the same plan through a pg connection", async () => {
  // one zone: which enrollment takes which slot follows the held sends' order, whose ties are broken by random ids
  const viaPrisma = await campaignWithWindow("heldprisma", false);
  const viaPg = await campaignWithWindow("heldpg", false);
  await database.db.$transaction((tx) => scheduleEnrollments(tx, viaPrisma.campaignId, viaPrisma.enrollmentIds, NOW, null));
  await inRawTransaction(pool, (client) => scheduleEnrollments(client, viaPg.campaignId, viaPg.enrollmentIds, NOW, null));
  const later = new Date(NOW.getTime() + 3 * 86_400_000);
  // the sends planned again are created after this, so no chunk takes them again
  await new Promise((resolve) => setTimeout(resolve, 20));
  const createdBefore = new Date();
  await new Promise((resolve) => setTimeout(resolve, 20));
  let a: HeldSendsOptions = { limit: 35, now: later, createdBefore };
  let b: HeldSendsOptions = { ...a };
  let rounds = 0;
  for (;;) {
    const prismaChunk = await database.db.$transaction((tx) => rescheduleHeldSends(tx, viaPrisma.campaignId, a));
    const pgChunk = await inRawTransaction(pool, (client) => rescheduleHeldSends(client, viaPg.campaignId, b));
    assert.equal(pgChunk.held, prismaChunk.held);
    if (prismaChunk.held === 0) break;
    rounds++;
    a = { ...a, after: prismaChunk.last, carry: prismaChunk.carry };
    b = { ...b, after: pgChunk.last, carry: pgChunk.carry };
  }
  assert.equal(rounds, 3, "90 held sends in chunks of 35");
  const expected = await planOf(viaPrisma.campaignId, viaPrisma.credentialIds, null);
  assert.equal(expected.length, ENROLLMENTS * 3);
  assert.ok(
    expected.every((row) => row.split(" ")[3]! >= later.toISOString()),
    "every send planned again from the later time",
  );
  assert.deepEqual(await planOf(viaPg.campaignId, viaPg.credentialIds, null), expected);
});
