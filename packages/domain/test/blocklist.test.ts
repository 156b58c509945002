import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { blockedAddressCondition, blockingKindSql, executor, type Db, type StepSendState } from "@outreach/db";
import { createAccountOnPlan, createTestDatabase, type TestDatabase } from "@outreach/testing";
import { findBlockingEntry, recordBlockedSend } from "../src/audience/blocklist.js";
import { unsubscribeByEnrollment, unsubscribeContact, unsubscribeContactByEmail } from "../src/audience/unsubscribe-contact.js";

const isBlocked = async (db: Db, accountId: string, email: string) => (await findBlockingEntry(db, accountId, email)) !== null;

let database: TestDatabase;
let db: Db;
let counter = 0;

before(async () => {
  database = await createTestDatabase();
  db = database.db;
});

after(async () => {
  await database?.drop();
});

async function account() {
  const { id } = await createAccountOnPlan(db, "free", { email: `block-${++counter}-${Date.now()}@example.com`, currentPeriodEnd: new Date(Date.now() + 30 * 86_400_000) });
  return id;
}

const block = (accountId: string, kind: "email" | "domain", value: string) => db.blocklistEntry.create({ data: { accountId, kind, value } });

/** A sent enrollment with its step sends in these states. */
async function enrolled(accountId: string, email: string, steps: StepSendState[]) {
  const campaign = await db.campaign.create({ data: { accountId, name: `Campaign ${++counter}` } });
  const contact = await db.contact.create({ data: { accountId, email } });
  const enrollment = await db.enrollment.create({ data: { accountId, campaignId: campaign.id, contactId: contact.id, status: "sent", sentAt: new Date(), dispatchedAt: new Date() } });
  const sends = [];
  for (const [i, state] of steps.entries()) {
    sends.push(await db.stepSend.create({ data: { accountId, campaignId: campaign.id, enrollmentId: enrollment.id, stepPosition: i + 1, state, dueAt: new Date(Date.now() + i * 3600_000) } }));
  }
  return { campaignId: campaign.id, contactId: contact.id, enrollmentId: enrollment.id, sends };
}

test("an address is blocked by its own entry or its exact domain's, in its account only", async () => {
  const [a, b] = [await account(), await account()];
  await block(a, "email", "ann@one.example");
  await block(a, "domain", "two.example");
  await block(b, "email", "bob@one.example");

  assert.equal(await isBlocked(db, a, "Ann@One.Example"), true);
  assert.equal(await isBlocked(db, a, "bob@one.example"), false);
  assert.equal(await isBlocked(db, a, "anyone@TWO.example"), true);
  assert.equal(await isBlocked(db, a, "anyone@mail.two.example"), false, "a sub-domain is not blocked by its parent");
  assert.equal(await isBlocked(db, a, '"odd@name"@two.example'), true, "the domain is after the last @");
  assert.equal(await isBlocked(db, b, "ann@one.example"), false);
  assert.deepEqual(await findBlockingEntry(db, a, "x@two.example").then((e) => e && [e.kind, e.value]), ["domain", "two.example"]);

  // an address entry wins over a domain entry when both match
  await block(a, "email", "cat@two.example");
  assert.equal((await findBlockingEntry(db, a, "cat@two.example"))?.kind, "email");

  // the SQL forms give the same answers inside a raw query
  const rows = await executor(db).rows<{ email: string; blocked: boolean; kind: string | null }>(
    `SELECT t.email, ${blockedAddressCondition("$1::uuid", "t.email")} AS blocked, ${blockingKindSql("$1::uuid", "t.email")} AS kind
     FROM unnest($2::text[]) AS t(email) ORDER BY t.email`,
    [a, ["ANN@one.example", "bob@one.example", "cat@two.example", "dan@two.example", "eve@sub.two.example"]],
  );
  assert.deepEqual(
    rows.map((r) => [r.email, r.blocked, r.kind]),
    [
      ["ANN@one.example", true, "email"],
      ["bob@one.example", false, null],
      ["cat@two.example", true, "email"],
      ["dan@two.example", true, "domain"],
      ["eve@sub.two.example", false, null],
    ],
  );
});

test("recordBlockedSend cancels the send, stops the enrollment and records one blocklisted skip", async () => {
  const accountId = await account();
  await block(accountId, "domain", "blocked.example");
  const e = await enrolled(accountId, "lee@blocked.example", ["sent", "sending", "scheduled", "queued"]);
  const input = { stepSendId: e.sends[1]!.id, enrollmentId: e.enrollmentId, accountId, campaignId: e.campaignId, contactId: e.contactId, email: "lee@blocked.example" };
  const now = new Date("2026-11-24T12:00:00.000Z");

  assert.deepEqual(await recordBlockedSend(db, input, now), { skipRecorded: true });
  const sends = await db.stepSend.findMany({ where: { enrollmentId: e.enrollmentId }, orderBy: { stepPosition: "asc" } });
  assert.deepEqual(
    sends.map((s) => s.state),
    ["sent", "cancelled", "cancelled", "cancelled"],
  );
  assert.match(sends[1]!.lastError ?? "", /blocklist/);
  const enrollment = await db.enrollment.findUniqueOrThrow({ where: { id: e.enrollmentId } });
  assert.deepEqual([enrollment.status, enrollment.stoppedAt?.toISOString(), enrollment.stoppedReason], ["sent", now.toISOString(), "blocklisted"]);
  const skips = await db.enrollmentSkip.findMany({ where: { enrollmentId: e.enrollmentId } });
  assert.deepEqual(
    skips.map((s) => [s.kind, s.reason, s.campaignId, s.contactId, s.accountId]),
    [["blocklisted", "blocked: domain blocked.example", e.campaignId, e.contactId, accountId]],
  );

  // a second blocked step of the same enrollment (a send claimed before the first was cancelled) records no second skip
  assert.deepEqual(await recordBlockedSend(db, { ...input, stepSendId: e.sends[2]!.id }), { skipRecorded: false });
  assert.equal(await db.enrollmentSkip.count({ where: { enrollmentId: e.enrollmentId } }), 1);
  assert.equal((await db.enrollment.findUniqueOrThrow({ where: { id: e.enrollmentId } })).stoppedAt?.toISOString(), now.toISOString());
});

test("recordBlockedSend inside the caller's transaction, for an address entry", async () => {
  const accountId = await account();
  await block(accountId, "email", "kim@fine.example");
  const e = await enrolled(accountId, "kim@fine.example", ["sending"]);
  const input = { stepSendId: e.sends[0]!.id, enrollmentId: e.enrollmentId, accountId, campaignId: e.campaignId, contactId: e.contactId, email: "Kim@Fine.example" };
  await db.$transaction((tx) => recordBlockedSend(tx, input));
  assert.equal((await db.stepSend.findUniqueOrThrow({ where: { id: e.sends[0]!.id } })).state, "cancelled");
  assert.deepEqual(
    (await db.enrollmentSkip.findMany({ where: { enrollmentId: e.enrollmentId } })).map((s) => s.reason),
    ["blocked: address"],
  );
});

test("unsubscribes and complaints block the address in the contact's account, keeping an existing entry", async () => {
  const [a, b] = [await account(), await account()];
  const link = await enrolled(a, "link@people.example", ["sent", "scheduled"]);
  await unsubscribeByEnrollment(db, link.enrollmentId);
  const mailto = await db.contact.create({ data: { accountId: a, email: "mailto@people.example" } });
  await unsubscribeContact(db, mailto.id);
  const complained = await db.contact.create({ data: { accountId: a, email: "spam@people.example" } });
  await unsubscribeContact(db, complained.id, new Date(), "complaint");
  await db.contact.create({ data: { accountId: b, email: "relay@people.example" } });
  await unsubscribeContactByEmail(db, b, "Relay@People.example");

  const entries = await db.blocklistEntry.findMany({ where: { accountId: { in: [a, b] } }, orderBy: { value: "asc" } });
  assert.deepEqual(
    entries.map((e) => [e.accountId === a ? "a" : "b", e.kind, e.value, e.source]),
    [
      ["a", "email", "link@people.example", "unsubscribe"],
      ["a", "email", "mailto@people.example", "unsubscribe"],
      ["b", "email", "relay@people.example", "complaint"],
      ["a", "email", "spam@people.example", "complaint"],
    ],
  );

  // already blocked through the API: the entry stays as it was, and a repeat adds nothing
  const kept = await db.blocklistEntry.create({ data: { accountId: b, kind: "email", value: "known@people.example", reason: "by hand", source: "api" } });
  const known = await db.contact.create({ data: { accountId: b, email: "known@people.example" } });
  await unsubscribeContact(db, known.id);
  await unsubscribeContact(db, known.id);
  const after = await db.blocklistEntry.findMany({ where: { accountId: b, value: "known@people.example" } });
  assert.deepEqual(
    after.map((e) => [e.id, e.source, e.reason]),
    [[kept.id, "api", "by hand"]],
  );
});
