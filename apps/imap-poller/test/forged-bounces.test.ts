import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Keyring } from "@outreach/core";
import type { Db } from "@outreach/db";
import { UNVERIFIED_BOUNCE_PREFIX } from "@outreach/domain";
import { waitFor, type ImapTestServer } from "@outreach/testing";
import {
  bareBounce,
  enrollmentStatus,
  eventsOf,
  postfixUserUnknownDsn,
  seedInbox,
  startPollerFixture,
  waitUntilWatched,
  type PollerFixture,
  type SeededEnrollment,
  type SeededInbox,
} from "./helpers.js";

// Forged delivery notices in a watched inbox, through the real poller and a real IMAP server:
// a notice that cites no Message-ID of ours stops the enrollment it names but never moves the
// credential's bounce rate; one citing our Message-ID still counts.
let pollerFixture: PollerFixture | undefined;
let imap: ImapTestServer;
let db: Db;
let keyring: Keyring;

before(async () => {
  pollerFixture = await startPollerFixture({ startPoller: true });
  ({ imap, db, keyring } = pollerFixture);
});
after(() => pollerFixture?.stop());

/** What anyone can mail the inbox: a notice from "the mailer daemon" naming a colleague, with no copy of our message. */
function forgedBounce(s: SeededInbox, e: SeededEnrollment, n: number): string {
  return bareBounce(s, e, `Mail Delivery System <mailer-daemon@anything${n}.test>`);
}

const inboundCount = (s: SeededInbox) => db.inboundMessage.count({ where: { credentialId: s.credentialId } });
const credentialOf = (s: SeededInbox) => db.smtpCredential.findUniqueOrThrow({ where: { id: s.credentialId } });
const step1Of = (e: SeededEnrollment) => db.stepSend.findFirstOrThrow({ where: { enrollmentId: e.enrollmentId, stepPosition: 1 } });

test("three forged notices naming colleagues stop their enrollments but neither disable the inbox nor pause the campaign; notices citing our Message-ID still count", async () => {
  // 20 sends through the inbox, a 5% threshold: 3 counted bounces (15%) would disable it
  const s = await seedInbox(db, keyring, imap, { contacts: 20, bounceRateThreshold: 5 });
  await waitUntilWatched(db, s);
  const forged = s.enrollments.slice(0, 3);
  for (const [n, e] of forged.entries()) await imap.appendMessage(s.inbox, forgedBounce(s, e, n));
  await waitFor(async () => (await inboundCount(s)) === 3, { what: "the three notices", timeoutMs: 20_000 });

  const credential = await credentialOf(s);
  assert.equal(credential.disabledAt, null, "the inbox is not disabled");
  assert.equal((await eventsOf(db, s.accountId, "credential.disabled")).length, 0);
  assert.equal((await db.campaign.findUniqueOrThrow({ where: { id: s.campaignId } })).status, "active");
  assert.equal((await eventsOf(db, s.accountId, "campaign.paused")).length, 0);
  for (const e of forged) {
    const enrollment = await db.enrollment.findUniqueOrThrow({ where: { id: e.enrollmentId } });
    assert.equal(enrollment.status, "bounced");
    assert.ok(enrollment.bounceReason?.startsWith(UNVERIFIED_BOUNCE_PREFIX), `marked unverified: ${enrollment.bounceReason}`);
    const step = await step1Of(e);
    assert.deepEqual([step.state, step.bounceUnverified], ["bounced", true]);
    assert.equal((await db.stepSend.findFirstOrThrow({ where: { enrollmentId: e.enrollmentId, stepPosition: 2 } })).state, "cancelled");
  }
  assert.equal((await eventsOf(db, s.accountId, "enrollment.bounced")).length, 3);
  assert.equal(await enrollmentStatus(db, s.enrollments[3]!.enrollmentId), "sent", "nobody else bounced");

  // the genuine report for one of them confirms that bounce: 1 of 20 (5%) is not over the threshold
  const confirmed = forged[0]!;
  await imap.appendMessage(s.inbox, postfixUserUnknownDsn(s, confirmed));
  await waitFor(async () => !(await step1Of(confirmed)).bounceUnverified, { what: "the bounce to be confirmed", timeoutMs: 20_000 });
  const enrollment = await db.enrollment.findUniqueOrThrow({ where: { id: confirmed.enrollmentId } });
  assert.equal(enrollment.bounceReason, `5.1.1 550 5.1.1 <${confirmed.contactEmail}>: Recipient address rejected: User unknown in virtual mailbox table`);
  assert.equal((await eventsOf(db, s.accountId, "enrollment.bounced")).length, 3, "no second enrollment.bounced");
  assert.equal((await credentialOf(s)).disabledAt, null);

  // a second genuine one (2 of 20: 10%) is over it: the inbox is disabled and, its campaign's only one, the campaign paused
  await imap.appendMessage(s.inbox, postfixUserUnknownDsn(s, s.enrollments[3]!));
  const disabled = await waitFor(
    async () => {
      const row = await credentialOf(s);
      return row.disabledAt ? row : undefined;
    },
    { what: "the credential to be disabled", timeoutMs: 20_000 },
  );
  assert.match(disabled.disabledReason ?? "", /bounce rate 10% exceeded the campaign threshold of 5%/);
  const events = await eventsOf(db, s.accountId, "credential.disabled");
  assert.deepEqual(
    events.map((event) => event.data.bounce_rate),
    [10],
  );
  assert.equal((await db.campaign.findUniqueOrThrow({ where: { id: s.campaignId } })).pausedReason, "all_credentials_disabled");
});
