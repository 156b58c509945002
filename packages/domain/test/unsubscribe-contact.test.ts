import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Db, EnrollmentStatus, StepSendState } from "@outreach/db";
import { createAccountOnPlan, createTestDatabase, type TestDatabase } from "@outreach/testing";
import { unsubscribeByEnrollment, unsubscribeContact, unsubscribeContactByEmail } from "../src/audience/unsubscribe-contact.js";

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
  const { id } = await createAccountOnPlan(db, "free", { email: `unsub-${++counter}-${Date.now()}@example.com`, currentPeriodEnd: new Date(Date.now() + 30 * 86_400_000) });
  return id;
}

const campaign = async (accountId: string) => (await db.campaign.create({ data: { accountId, name: `Campaign ${++counter}` } })).id;
const contact = (accountId: string, email = `person${++counter}@example.com`) => db.contact.create({ data: { accountId, email } });

async function enroll(accountId: string, campaignId: string, contactId: string, status: EnrollmentStatus, steps: StepSendState[] = []) {
  const enrollment = await db.enrollment.create({ data: { accountId, campaignId, contactId, status, sentAt: status === "pending" ? null : new Date() } });
  for (const [i, state] of steps.entries()) {
    await db.stepSend.create({ data: { accountId, campaignId, enrollmentId: enrollment.id, stepPosition: i + 1, state, dueAt: new Date(Date.now() + i * 3600_000) } });
  }
  return enrollment;
}

const stepStates = async (enrollmentId: string) => (await db.stepSend.findMany({ where: { enrollmentId }, orderBy: { stepPosition: "asc" } })).map((s) => s.state);
const unsubscribeEvents = (accountId: string) => db.event.findMany({ where: { accountId, type: "enrollment.unsubscribed" } });

test("unsubscribing a contact stops its active enrollments in every campaign of the account, once", async () => {
  const accountId = await account();
  const [c1, c2, c3] = [await campaign(accountId), await campaign(accountId), await campaign(accountId)];
  const person = await contact(accountId);
  const bystander = await contact(accountId);
  const sent = await enroll(accountId, c1, person.id, "sent", ["sent", "scheduled", "scheduled"]);
  const opened = await enroll(accountId, c2, person.id, "opened", ["sent", "queued", "scheduled"]);
  const replied = await enroll(accountId, c3, person.id, "replied", ["sent", "cancelled"]);
  const other = await enroll(accountId, c1, bystander.id, "sent", ["sent", "scheduled"]);
  const now = new Date("2026-03-05T10:00:00.000Z");

  const result = await unsubscribeContact(db, person.id, now);
  assert.ok(result);
  assert.equal(result.contactUnsubscribed, true);
  assert.deepEqual([...result.enrollmentIds].sort(), [sent.id, opened.id].sort());
  assert.equal(result.email, person.email);
  assert.equal(result.accountId, accountId);

  assert.equal((await db.contact.findUniqueOrThrow({ where: { id: person.id } })).unsubscribedAt?.toISOString(), now.toISOString());
  for (const e of [sent, opened]) {
    const row = await db.enrollment.findUniqueOrThrow({ where: { id: e.id } });
    assert.equal(row.status, "unsubscribed");
    assert.equal(row.unsubscribedAt?.toISOString(), now.toISOString());
  }
  assert.deepEqual(await stepStates(sent.id), ["sent", "cancelled", "cancelled"]);
  assert.deepEqual(await stepStates(opened.id), ["sent", "cancelled", "cancelled"]);

  const untouched = await db.enrollment.findUniqueOrThrow({ where: { id: replied.id } });
  assert.equal(untouched.status, "replied");
  assert.equal(untouched.unsubscribedAt, null);
  assert.equal((await db.enrollment.findUniqueOrThrow({ where: { id: other.id } })).status, "sent", "another contact is not touched");
  assert.deepEqual(await stepStates(other.id), ["sent", "scheduled"]);
  assert.equal((await db.contact.findUniqueOrThrow({ where: { id: bystander.id } })).unsubscribedAt, null);

  const events = await unsubscribeEvents(accountId);
  assert.equal(events.length, 2);
  const byEnrollment = new Map(events.map((e) => [(e.data as { enrollment_id: string }).enrollment_id, e.data]));
  assert.deepEqual(byEnrollment.get(sent.id), { enrollment_id: sent.id, contact_id: person.id, contact_email: person.email, campaign_id: c1, unsubscribed_at: now.toISOString() });
  assert.deepEqual(byEnrollment.get(opened.id), { enrollment_id: opened.id, contact_id: person.id, contact_email: person.email, campaign_id: c2, unsubscribed_at: now.toISOString() });

  const repeat = await unsubscribeContact(db, person.id, new Date("2026-03-06T10:00:00.000Z"));
  assert.deepEqual(repeat && { contactUnsubscribed: repeat.contactUnsubscribed, enrollmentIds: repeat.enrollmentIds }, { contactUnsubscribed: false, enrollmentIds: [] });
  assert.equal((await unsubscribeEvents(accountId)).length, 2, "a repeat emits nothing");
  assert.equal((await db.contact.findUniqueOrThrow({ where: { id: person.id } })).unsubscribedAt?.toISOString(), now.toISOString(), "the first time is kept");
  assert.equal((await db.enrollment.findUniqueOrThrow({ where: { id: sent.id } })).unsubscribedAt?.toISOString(), now.toISOString());
});

test("a pending enrollment is unsubscribed too; a contact with no enrollments is only marked", async () => {
  const accountId = await account();
  const c1 = await campaign(accountId);
  const pendingContact = await contact(accountId);
  const pending = await enroll(accountId, c1, pendingContact.id, "pending", ["scheduled"]);
  const result = await unsubscribeContact(db, pendingContact.id);
  assert.deepEqual(result?.enrollmentIds, [pending.id]);
  assert.equal((await db.enrollment.findUniqueOrThrow({ where: { id: pending.id } })).status, "unsubscribed");
  assert.deepEqual(await stepStates(pending.id), ["cancelled"]);

  const lonely = await contact(accountId);
  const lonelyResult = await unsubscribeContact(db, lonely.id);
  assert.equal(lonelyResult?.contactUnsubscribed, true);
  assert.deepEqual(lonelyResult?.enrollmentIds, []);
  assert.ok((await db.contact.findUniqueOrThrow({ where: { id: lonely.id } })).unsubscribedAt);
  assert.equal((await unsubscribeEvents(accountId)).length, 1);
});

test("concurrent unsubscribes of one contact emit one event per enrollment", async () => {
  const accountId = await account();
  const person = await contact(accountId);
  await enroll(accountId, await campaign(accountId), person.id, "sent", ["sent", "scheduled"]);
  await enroll(accountId, await campaign(accountId), person.id, "opened", ["sent", "scheduled"]);
  const results = await Promise.all(Array.from({ length: 4 }, () => unsubscribeContact(db, person.id)));
  assert.equal(results.filter((r) => r?.contactUnsubscribed).length, 1);
  assert.equal(results.flatMap((r) => r?.enrollmentIds ?? []).length, 2);
  assert.equal((await unsubscribeEvents(accountId)).length, 2);
});

test("unsubscribeByEnrollment unsubscribes the enrollment's contact everywhere", async () => {
  const accountId = await account();
  const person = await contact(accountId);
  const link = await enroll(accountId, await campaign(accountId), person.id, "opened", ["sent", "scheduled"]);
  const elsewhere = await enroll(accountId, await campaign(accountId), person.id, "pending", ["scheduled"]);
  const result = await unsubscribeByEnrollment(db, link.id);
  assert.equal(result?.contactId, person.id);
  assert.deepEqual([...result!.enrollmentIds].sort(), [link.id, elsewhere.id].sort());
  assert.equal((await db.enrollment.findUniqueOrThrow({ where: { id: elsewhere.id } })).status, "unsubscribed");
  assert.equal(await unsubscribeByEnrollment(db, "00000000-0000-4000-8000-000000000000"), null);
  assert.equal(await unsubscribeContact(db, "00000000-0000-4000-8000-000000000000"), null);
});

test("unsubscribeContactByEmail handles every account with that contact, or only the one given", async () => {
  const [a1, a2, a3] = [await account(), await account(), await account()];
  const email = `complainer${++counter}@example.com`;
  const people = await Promise.all([a1, a2, a3].map((a) => contact(a, email)));
  const enrollments = await Promise.all([a1, a2, a3].map(async (a, i) => enroll(a, await campaign(a), people[i]!.id, "sent", ["sent", "scheduled"])));

  const only = await unsubscribeContactByEmail(db, a3, email.toUpperCase());
  assert.deepEqual(
    only.map((r) => r.contactId),
    [people[2]!.id],
  );
  assert.equal((await db.enrollment.findUniqueOrThrow({ where: { id: enrollments[0]!.id } })).status, "sent", "other accounts untouched");

  const all = await unsubscribeContactByEmail(db, null, ` ${email} `);
  assert.deepEqual(all.map((r) => r.accountId).sort(), [a1, a2, a3].sort());
  assert.deepEqual(all.find((r) => r.accountId === a3)?.enrollmentIds, [], "already done in a3");
  for (const [i, a] of [a1, a2, a3].entries()) {
    assert.equal((await db.enrollment.findUniqueOrThrow({ where: { id: enrollments[i]!.id } })).status, "unsubscribed");
    assert.deepEqual(await stepStates(enrollments[i]!.id), ["sent", "cancelled"]);
    assert.equal((await unsubscribeEvents(a)).length, 1, "one event per account's enrollment");
  }
  assert.deepEqual(await unsubscribeContactByEmail(db, undefined, "nobody@example.com"), []);
  assert.deepEqual(await unsubscribeContactByEmail(db, null, "  "), []);
});
