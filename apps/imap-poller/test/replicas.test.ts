import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { redisKeys, type Config, type RedisClient } from "@outreach/core";
import type { Db } from "@outreach/db";
import { dovecotUnavailableReason, imapServerKind, skipWithoutSystemServer, startAppProcess, waitFor, type AppProcess, type ImapTestServer } from "@outreach/testing";
import { preferredReplica } from "../src/replica-ring.js";
import { dovecotSessions, eventsOf, processOfConnection, replyTo, startConnectionMeter, startPollerFixture, type ConnectionMeter, type PollerFixture, type SeededInbox } from "./helpers.js";

// Two real poller processes against one Dovecot: every inbox has exactly one connection, the
// replicas share them, and when one is killed the other takes its inboxes over.
//
// Each inbox's credential points at its own connection meter (a relay in front of Dovecot), so
// every connection a poller opens to an inbox is observed as it opens and closes. Which process
// owns a connection is read from /proc. With 12 inboxes, rendezvous hashing leaves one replica
// without any with a probability of 2/4096.
const INBOXES = 12;
// The in-process stand-in server keeps a 30-minute timer for every IDLE a killed client never
// ended, which would keep this file from exiting; Dovecot is what this test is about anyway.
const skip = skipWithoutSystemServer("Dovecot", imapServerKind() === "dovecot" ? undefined : (dovecotUnavailableReason() ?? "IMAP_TEST_SERVER is not dovecot"));

let pollerFixture: PollerFixture | undefined;
let imap: ImapTestServer;
let db: Db;
let redis: RedisClient;
let config: Config;
let env: Record<string, string>;
const processes: AppProcess[] = [];
const inboxes: Array<{ s: SeededInbox; meter: ConnectionMeter }> = [];

before(async () => {
  if (skip) return;
  // a long poll interval: replies must be found through IDLE and the takeover, not the periodic check
  pollerFixture = await startPollerFixture({ env: { IMAP_POLL_INTERVAL_SECONDS: "60" }, redis: true });
  ({ imap, db, redis, config, env } = pollerFixture);
  for (let i = 0; i < INBOXES; i++) {
    const meter = await startConnectionMeter(imap);
    inboxes.push({ s: await pollerFixture.seed({ imapPort: meter.port }), meter });
  }
});
after(() =>
  pollerFixture?.stop(async () => {
    for (const p of processes) await p.stop("SIGTERM", 10_000).catch(() => undefined);
    for (const { meter } of inboxes) await meter.close();
  }),
);

const leaseKey = (s: SeededInbox) => redisKeys.inboxLease(config, s.credentialId);

async function liveReplicas(): Promise<string[]> {
  return redis.zrangebyscore(redisKeys.pollerReplicas(config), Date.now(), "+inf");
}

/** The process that owns each inbox's one open connection (undefined: not exactly one open, or not found). */
async function connectionOwners(pids: number[]): Promise<Array<number | undefined>> {
  return Promise.all(inboxes.map(async ({ meter }) => (meter.open() === 1 ? processOfConnection(meter.clientPorts()[0]!, meter.port, pids) : undefined)));
}

function assertNeverTwoConnections(): void {
  for (const { s, meter } of inboxes) assert.ok(meter.maxOpen() <= 1, `${s.inbox} had ${meter.maxOpen()} connections at once`);
}

/** Dovecot counts one logged-in session per inbox (a connection just opened may still be logging in). */
async function waitForOneDovecotSessionEach(): Promise<void> {
  let counts: number[] = [];
  await waitFor(
    async () => {
      const sessions = await dovecotSessions(imap);
      if (!sessions) return true; // not Dovecot: the meters are the only observation
      counts = inboxes.map(({ s }) => sessions.get(s.inbox) ?? 0);
      return counts.every((count) => count === 1);
    },
    { what: "one Dovecot session per inbox", timeoutMs: 10_000, intervalMs: 200 },
  ).catch((err: Error) => assert.fail(`${err.message}; sessions per inbox: ${counts.join(", ")}`));
}

test("two poller processes watch every inbox exactly once; when one is killed the other takes over and misses nothing", { skip }, async () => {
  const first = await startAppProcess("imap-poller", { env });
  processes.push(first);
  await waitFor(async () => (await connectionOwners([first.child.pid!])).every((pid) => pid === first.child.pid), { what: "the first replica to watch every inbox", timeoutMs: 60_000 });

  // a second replica joins: the inboxes it is preferred for are handed over to it
  const second = await startAppProcess("imap-poller", { env });
  processes.push(second);
  const pids = [first.child.pid!, second.child.pid!];
  const joinedAt = Date.now();
  await waitFor(
    async () => {
      assertNeverTwoConnections(); // the reason given if the deadline passes
      const replicas = await liveReplicas();
      if (replicas.length !== 2 || !inboxes.every(({ meter }) => meter.open() === 1)) return false;
      const holders = await Promise.all(inboxes.map(({ s }) => redis.get(leaseKey(s))));
      return inboxes.every(({ s }, i) => holders[i] === preferredReplica(s.credentialId, replicas));
    },
    { what: "the inboxes to be shared by both replicas", timeoutMs: 60_000, intervalMs: 200 },
  );
  console.log(`# rebalanced ${Date.now() - joinedAt} ms after the second replica started`);
  const owners = await connectionOwners(pids);
  const counts = pids.map((pid) => owners.filter((owner) => owner === pid).length);
  console.log(`# inboxes per replica: ${counts.join(" + ")}`);
  assert.ok(
    owners.every((owner) => owner !== undefined),
    `every inbox has one connection from a poller: ${owners}`,
  );
  assert.ok(
    counts.every((count) => count > 0),
    `both replicas watch some inboxes: ${counts}`,
  );
  // the lease holder and the connection agree: one replica id per process
  const holders = await Promise.all(inboxes.map(({ s }) => redis.get(leaseKey(s))));
  const replicaOf = new Map<number, string>();
  owners.forEach((pid, i) => {
    const known = replicaOf.get(pid!);
    assert.ok(known === undefined || known === holders[i], "one lease holder per process");
    replicaOf.set(pid!, holders[i]!);
  });
  assert.equal(new Set(replicaOf.values()).size, 2);
  await waitForOneDovecotSessionEach();
  assertNeverTwoConnections();

  // kill the first replica: nothing is closed gracefully, its leases simply expire
  const victimInboxes = inboxes.filter((_, i) => owners[i] === first.child.pid);
  await first.stop("SIGKILL");
  const killedAt = Date.now();
  const appended = [];
  for (const { s } of inboxes) appended.push(await imap.appendMessage(s.inbox, replyTo(s)));
  await waitFor(
    async () => {
      const replied = await db.enrollment.count({ where: { id: { in: inboxes.map(({ s }) => s.enrollments[0]!.enrollmentId) }, status: "replied" } });
      return replied === INBOXES;
    },
    { what: "every reply, the killed replica's inboxes included", timeoutMs: 45_000, intervalMs: 200 },
  );
  console.log(`# all ${INBOXES} replies found ${Date.now() - killedAt} ms after SIGKILL (${victimInboxes.length} inboxes taken over)`);

  await waitFor(async () => (await connectionOwners([second.child.pid!])).every((pid) => pid === second.child.pid), { what: "the survivor to hold every connection", timeoutMs: 20_000 });
  assert.deepEqual(await liveReplicas(), [replicaOf.get(second.child.pid!)]);
  assertNeverTwoConnections();
  await waitForOneDovecotSessionEach();
  for (const [i, { s }] of inboxes.entries()) {
    const rows = await db.inboundMessage.findMany({ where: { credentialId: s.credentialId } });
    assert.deepEqual(
      rows.map((row) => [row.uid, row.kind]),
      [[BigInt(appended[i]!.uid), "reply"]],
      `inbound messages of ${s.inbox}`,
    );
    assert.equal((await eventsOf(db, s.accountId, "enrollment.replied")).length, 1, `enrollment.replied of ${s.inbox}`);
  }
  assert.equal(second.child.exitCode, null, "the survivor is still running");
});
