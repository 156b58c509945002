import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { redisKeys, type Config, type Keyring, type RedisClient } from "@outreach/core";
import type { Db } from "@outreach/db";
import { waitFor, type ImapTestServer } from "@outreach/testing";
import {
  enrollmentStatus,
  eventsOf,
  replyTo,
  seedInbox,
  startConnectionMeter,
  startPollerFixture,
  waitForLeaseRenewals,
  type ConnectionMeter,
  type PollerFixture,
  type SeededInbox,
} from "./helpers.js";

// Which inboxes are watched follows the database while the poller runs: campaigns paused,
// resumed or deleted, credentials added or changed.
let pollerFixture: PollerFixture | undefined;
let imap: ImapTestServer;
let db: Db;
let redis: RedisClient;
let config: Config;
let keyring: Keyring;
const meters: ConnectionMeter[] = [];

before(async () => {
  pollerFixture = await startPollerFixture({ redis: true, startPoller: true });
  ({ imap, db, redis, config, keyring } = pollerFixture);
});
after(() =>
  pollerFixture?.stop(async () => {
    for (const meter of meters) await meter.close();
  }),
);

/** An inbox behind its own connection meter, watched by the running poller. */
async function watchedInbox(): Promise<{ s: SeededInbox; meter: ConnectionMeter; watchedAfterMs: number }> {
  const meter = await startConnectionMeter(imap);
  meters.push(meter);
  const s = await seedInbox(db, keyring, imap, { imapPort: meter.port });
  const createdAt = Date.now();
  await waitFor(async () => meter.open() === 1 && (await db.smtpCredential.findUniqueOrThrow({ where: { id: s.credentialId } })).imapUidValidity !== null, {
    what: "the new inbox to be watched",
    timeoutMs: 20_000,
  });
  return { s, meter, watchedAfterMs: Date.now() - createdAt };
}

const inboundCount = (s: SeededInbox) => db.inboundMessage.count({ where: { credentialId: s.credentialId } });

test("a credential added while the poller runs is watched without a restart", async () => {
  const { s, meter, watchedAfterMs } = await watchedInbox();
  console.log(`# new credential watched ${watchedAfterMs} ms after it was created`);
  await imap.appendMessage(s.inbox, replyTo(s));
  await waitFor(async () => (await enrollmentStatus(db, s.enrollments[0]!.enrollmentId)) === "replied", { what: "the reply", timeoutMs: 20_000 });
  assert.equal(meter.opened(), 1);
});

test("a paused campaign's inbox stops being watched; its mail is processed exactly once when the campaign is active again", async () => {
  const { s, meter } = await watchedInbox();
  const control = await watchedInbox();
  await db.campaign.update({ where: { id: s.campaignId }, data: { status: "paused", pausedReason: "manual" } });
  const pausedAt = Date.now();
  await waitFor(() => meter.open() === 0, { what: "the paused campaign's connection to close", timeoutMs: 15_000 });
  console.log(`# paused campaign's connection closed ${Date.now() - pausedAt} ms after the pause`);

  await imap.appendMessage(s.inbox, replyTo(s));
  await imap.appendMessage(control.s.inbox, replyTo(control.s));
  await waitFor(async () => (await enrollmentStatus(db, control.s.enrollments[0]!.enrollmentId)) === "replied", { what: "the active campaign's reply", timeoutMs: 20_000 });
  // two more assignment rounds: the paused inbox is still not connected to, its reply not read
  await waitForLeaseRenewals(redis, redisKeys.inboxLease(config, control.s.credentialId), 2);
  assert.equal(meter.opened(), 1);
  assert.equal(meter.open(), 0);
  assert.equal(await inboundCount(s), 0);
  assert.equal(await enrollmentStatus(db, s.enrollments[0]!.enrollmentId), "sent");

  await db.campaign.update({ where: { id: s.campaignId }, data: { status: "active", pausedReason: null } });
  await waitFor(async () => (await enrollmentStatus(db, s.enrollments[0]!.enrollmentId)) === "replied", { what: "the reply after the resume", timeoutMs: 20_000 });
  assert.equal(await inboundCount(s), 1);
  assert.equal((await eventsOf(db, s.accountId, "enrollment.replied")).length, 1);
  assert.equal(meter.open(), 1);
  assert.equal(meter.opened(), 2);
  assert.equal(meter.maxOpen(), 1);
});

test("a deleted campaign's inbox stops being watched", async () => {
  const { s, meter } = await watchedInbox();
  await db.campaign.delete({ where: { id: s.campaignId } });
  await waitFor(() => meter.open() === 0, { what: "the deleted campaign's connection to close", timeoutMs: 15_000 });
  assert.equal(meter.opened(), 1);
});

test("changed IMAP settings replace the connection", async () => {
  const { s, meter } = await watchedInbox();
  const moved = await startConnectionMeter(imap);
  meters.push(moved);
  await db.smtpCredential.update({ where: { id: s.credentialId }, data: { imapPort: moved.port } });
  await waitFor(() => meter.open() === 0 && moved.open() === 1, { what: "the connection to move to the new port", timeoutMs: 15_000 });
  await imap.appendMessage(s.inbox, replyTo(s));
  await waitFor(async () => (await enrollmentStatus(db, s.enrollments[0]!.enrollmentId)) === "replied", { what: "the reply", timeoutMs: 20_000 });
  assert.equal(meter.opened(), 1);
  assert.equal(moved.opened(), 1);
});
