import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Keyring } from "@outreach/core";
import type { Db } from "@outreach/db";
import { waitFor, type ImapTestServer } from "@outreach/testing";
import { enrollmentStatus, eventsOf, mail, seedInbox, startPollerFixture, waitUntilWatched, type PollerFixture, type SeededEnrollment, type SeededInbox } from "./helpers.js";

// Replies put into a watched inbox get a category by the rules, and each category does what the
// campaign says: through the real poller and a real IMAP server.
let pollerFixture: PollerFixture | undefined;
let imap: ImapTestServer;
let db: Db;
let keyring: Keyring;

before(async () => {
  pollerFixture = await startPollerFixture({ startPoller: true });
  ({ imap, db, keyring } = pollerFixture);
});
after(() => pollerFixture?.stop());

/** A threaded answer to step 1 from the contact; `headers` add to or replace the defaults. */
function answer(s: SeededInbox, e: SeededEnrollment, body: string, headers: Record<string, string> = {}): string {
  return mail({ From: `Reader <${e.contactEmail}>`, To: s.inbox, Subject: "Re: Hello", "In-Reply-To": e.messageId, References: e.messageId, ...headers }, body);
}

const replyOf = async (e: SeededEnrollment) => db.inboundMessage.findFirst({ where: { enrollmentId: e.enrollmentId } });

async function categoryOf(e: SeededEnrollment): Promise<string> {
  const row = await waitFor(async () => (await replyOf(e)) ?? undefined, { what: "the reply recorded", timeoutMs: 20_000 });
  return row.category ?? "none";
}

const step2 = (e: SeededEnrollment) => db.stepSend.findFirstOrThrow({ where: { enrollmentId: e.enrollmentId, stepPosition: 2 } });

test("each category is reached from a reply put into the inbox, and does what its campaign says", async () => {
  const s = await seedInbox(db, keyring, imap, { contacts: 6 });
  const [interested, notInterested, away, unsubscribe, wrongPerson, other] = s.enrollments as SeededEnrollment[] as [
    SeededEnrollment,
    SeededEnrollment,
    SeededEnrollment,
    SeededEnrollment,
    SeededEnrollment,
    SeededEnrollment,
  ];
  await waitUntilWatched(db, s);
  await imap.appendMessage(s.inbox, answer(s, interested, "Hi,\r\n\r\nThis sounds interesting. Can we schedule a call next week?\r\n\r\nBest,\r\nAda"));
  await imap.appendMessage(s.inbox, answer(s, notInterested, "Thanks, but we are not interested at the moment.\r\n\r\nRegards"));
  await imap.appendMessage(
    s.inbox,
    answer(s, away, "I am out of the office with limited access to email. I will respond to your message when I return.", { Subject: "Out of Office: Hello", "Auto-Submitted": "auto-replied" }),
  );
  await imap.appendMessage(s.inbox, answer(s, unsubscribe, "Please stop emailing me and remove my address from your mailing list. We will never need this."));
  await imap.appendMessage(s.inbox, answer(s, wrongPerson, "Hi, I'm not the right person for this. You should talk to our purchasing team instead.\r\n\r\nThanks"));
  await imap.appendMessage(s.inbox, answer(s, other, "Received."));

  assert.equal(await categoryOf(interested), "interested");
  assert.equal(await categoryOf(notInterested), "not_interested");
  assert.equal(await categoryOf(away), "out_of_office");
  assert.equal(await categoryOf(unsubscribe), "unsubscribe_request");
  assert.equal(await categoryOf(wrongPerson), "wrong_person");
  assert.equal(await categoryOf(other), "other");
  for (const e of s.enrollments) assert.equal((await replyOf(e))!.categorySource, "rules");

  // a reply stops the sequence: replied, step 2 cancelled
  for (const e of [interested, notInterested, wrongPerson, other]) {
    assert.equal(await enrollmentStatus(db, e.enrollmentId), "replied");
    assert.equal((await step2(e)).state, "cancelled");
  }
  // an unsubscribe request unsubscribes, as the link does: the contact, the blocklist, enrollment.unsubscribed
  assert.equal(await enrollmentStatus(db, unsubscribe.enrollmentId), "unsubscribed");
  assert.notEqual((await db.contact.findUniqueOrThrow({ where: { id: unsubscribe.contactId } })).unsubscribedAt, null);
  assert.equal(await db.blocklistEntry.count({ where: { accountId: s.accountId, value: unsubscribe.contactEmail } }), 1);
  assert.deepEqual(
    (await eventsOf(db, s.accountId, "enrollment.unsubscribed")).map((event) => event.data.enrollment_id),
    [unsubscribe.enrollmentId],
  );
  // an out-of-office does not stop the sequence: step 2 waits for the return (no date: the default delay, 3 days)
  assert.equal(await enrollmentStatus(db, away.enrollmentId), "sent");
  const moved = await step2(away);
  assert.equal(moved.state, "scheduled");
  const resumeAt = (await db.enrollment.findUniqueOrThrow({ where: { id: away.enrollmentId } })).resumeAt;
  assert.ok(resumeAt && moved.dueAt.getTime() === resumeAt.getTime(), "the enrollment shows when it resumes");
  assert.ok(moved.dueAt.getTime() > Date.now() + 2.9 * 86_400_000, `step 2 moved about 3 days out (${moved.dueAt.toISOString()})`);

  const categorized = await eventsOf(db, s.accountId, "reply.categorized");
  assert.equal(categorized.length, 6);
  const interestedEvent = categorized.find((event) => event.data.enrollment_id === interested.enrollmentId)!;
  assert.equal(interestedEvent.data.category, "interested");
  assert.equal(interestedEvent.data.category_source, "rules");
  assert.equal(interestedEvent.data.previous_category, null);
  assert.equal(interestedEvent.data.contact_email, interested.contactEmail);
});

test("with unsubscribe_on_request and stop_on_wrong_person off, those replies only answer (or leave the sequence going)", async () => {
  const s = await seedInbox(db, keyring, imap, { contacts: 2 });
  await db.campaign.update({ where: { id: s.campaignId }, data: { unsubscribeOnRequest: false, stopOnWrongPerson: false } });
  const [unsubscribe, wrongPerson] = s.enrollments as [SeededEnrollment, SeededEnrollment];
  await waitUntilWatched(db, s);
  await imap.appendMessage(s.inbox, answer(s, unsubscribe, "Please stop emailing me and remove my address from your mailing list. We will never need this."));
  await imap.appendMessage(s.inbox, answer(s, wrongPerson, "Hi, I'm not the right person for this. You should talk to our purchasing team instead.\r\n\r\nThanks"));
  assert.equal(await categoryOf(unsubscribe), "unsubscribe_request");
  assert.equal(await categoryOf(wrongPerson), "wrong_person");
  assert.equal(await enrollmentStatus(db, unsubscribe.enrollmentId), "replied");
  assert.equal((await db.contact.findUniqueOrThrow({ where: { id: unsubscribe.contactId } })).unsubscribedAt, null);
  assert.equal(await db.blocklistEntry.count({ where: { accountId: s.accountId } }), 0);
  // the wrong person's enrollment goes on: step 2 still scheduled
  assert.equal(await enrollmentStatus(db, wrongPerson.enrollmentId), "sent");
  assert.equal((await step2(wrongPerson)).state, "scheduled");
});

test("an out-of-office with a German return date moves step 2 to the day after that date", async () => {
  const s = await seedInbox(db, keyring, imap, { contacts: 1 });
  const [away] = s.enrollments as [SeededEnrollment];
  await waitUntilWatched(db, s);
  const day = (offsetDays: number) => new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + offsetDays));
  const [lastAway, returning, resuming] = [day(9), day(10), day(11)];
  const two = (n: number) => String(n).padStart(2, "0");
  const body = `Vielen Dank für Ihre Nachricht. Ich bin bis einschließlich ${two(lastAway.getUTCDate())}.${two(lastAway.getUTCMonth() + 1)}. nicht im Büro und ab dem ${returning.getUTCDate()}.${returning.getUTCMonth() + 1}.${returning.getUTCFullYear()} wieder erreichbar.\r\nIn dringenden Fällen wenden Sie sich bitte an office@example.com.`;
  await imap.appendMessage(s.inbox, answer(s, away, body, { Subject: "Abwesenheitsnotiz: Hello", "Auto-Submitted": "auto-replied", "Content-Type": "text/plain; charset=utf-8" }));
  assert.equal(await categoryOf(away), "out_of_office");
  const moved = await waitFor(
    async () => {
      const row = await step2(away);
      return row.dueAt.getTime() > Date.now() + 5 * 86_400_000 ? row : undefined;
    },
    { what: "step 2 moved", timeoutMs: 10_000 },
  );
  // the campaign has no sending window: midnight UTC of the return date plus one day (the default days after return)
  assert.equal(moved.dueAt.toISOString(), resuming.toISOString());
  assert.equal((await db.enrollment.findUniqueOrThrow({ where: { id: away.enrollmentId } })).resumeAt?.toISOString(), moved.dueAt.toISOString());
  assert.equal(await enrollmentStatus(db, away.enrollmentId), "sent");
});
