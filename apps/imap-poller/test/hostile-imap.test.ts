import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { after, before, test } from "node:test";
import { createRedis, Keyring, loadConfig, redisKeys, type Config, type RedisClient } from "@outreach/core";
import type { Db } from "@outreach/db";
import { startAppProcess, startTcpProxy, waitFor, type AppProcess, type ImapTestServer, type TestDatabase } from "@outreach/testing";
import { enrollmentStatus, replyTo, seedInbox, startPollerFixture, type PollerFixture, type SeededInbox, pollerEnv } from "./helpers.js";
import { ScriptedImapServer } from "./scripted-imap-server.js";

// A tenant's IMAP server that lies: it announces a message of 2 KB and then streams a literal of
// 600 MB (or declares one and stalls). The real poller, as a child process, must stay alive with
// bounded memory, pass over the message after three tries (counted in the database, so a
// restarted or killed poller does not load it again forever), and keep detecting another
// tenant's replies meanwhile.
// The poller runs from source here (tsx compiles in-process): about 270 MB before any mail. The
// attack may add at most RSS_GROWTH_MB to what it used while idle, and never pass RSS_LIMIT_MB.
const RSS_GROWTH_MB = 100;
const RSS_LIMIT_MB = 400;

let pollerFixture: PollerFixture | undefined;
let imap: ImapTestServer;
let database: TestDatabase;
let db: Db;
let keyring: Keyring;
const processes: AppProcess[] = [];
const servers: ScriptedImapServer[] = [];
const redises: RedisClient[] = [];

before(async () => {
  pollerFixture = await startPollerFixture();
  ({ imap, database, db } = pollerFixture);
});
after(() =>
  pollerFixture?.stop(async () => {
    for (const p of processes) await p.stop("SIGKILL", 5_000).catch(() => undefined);
    for (const server of servers) await server.close();
    for (const redis of redises) await redis.quit();
  }),
);

function pollerSetup(pollSeconds = 60): { env: Record<string, string>; config: Config } {
  const env = pollerEnv(database, { IMAP_POLL_INTERVAL_SECONDS: String(pollSeconds) });
  const config = loadConfig("imap-poller", env);
  keyring = Keyring.fromConfig(config);
  return { env, config };
}

async function startPoller(env: Record<string, string>): Promise<AppProcess> {
  const poller = await startAppProcess("imap-poller", { env });
  processes.push(poller);
  return poller;
}

/** The process's resident memory, sampled every 100 ms until stopped: the largest seen. */
function sampleRss(pid: number): { stop(): number } {
  let most = 0;
  const timer = setInterval(() => {
    void readFile(`/proc/${pid}/status`, "utf8")
      .then((status) => {
        const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
        most = Math.max(most, kb / 1024);
      })
      .catch(() => undefined);
  }, 100);
  return {
    stop() {
      clearInterval(timer);
      return most;
    },
  };
}

const rawReply = (s: SeededInbox) => Buffer.from(replyTo(s));

test("a server announcing 2 KB and streaming 600 MB: the poller stays alive and small, passes over the message after 3 tries, and another tenant's reply is detected meanwhile", async () => {
  // a short interval: the scripted server announces no new mail by itself
  const { env } = pollerSetup(2);
  const hostile = await ScriptedImapServer.start();
  servers.push(hostile);
  const victim = await seedInbox(db, keyring, imap, { imapHost: hostile.host, imapPort: hostile.port });
  const other = await seedInbox(db, keyring, imap);

  const poller = await startPoller(env);
  // idle first: both inboxes watched, nothing to read
  await waitFor(async () => (await db.smtpCredential.count({ where: { id: { in: [victim.credentialId, other.credentialId] }, imapCheckedAt: { not: null }, imapLastError: null } })) === 2, {
    what: "both inboxes checked",
    timeoutMs: 20_000,
  });
  const idle = sampleRss(poller.child.pid!);
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const idleMb = idle.stop();
  hostile.add({ uid: 1, size: 2048, body: "huge" });
  hostile.add({ uid: 2, size: 1500, body: rawReply(victim) });
  const rss = sampleRss(poller.child.pid!);
  const errorsSeen = new Set<string>();
  const errorSampler = setInterval(() => {
    void db.smtpCredential
      .findUniqueOrThrow({ where: { id: victim.credentialId }, select: { imapLastError: true } })
      .then((row) => row.imapLastError && errorsSeen.add(row.imapLastError))
      .catch(() => undefined);
  }, 100);
  try {
    await waitFor(() => (hostile.contentFetches.get(1) ?? 0) >= 1, { what: "the first fetch of the hostile message", timeoutMs: 20_000 });
    // the other tenant's reply arrives during the attack
    await imap.appendMessage(other.inbox, replyTo(other));
    await waitFor(async () => (await enrollmentStatus(db, other.enrollments[0]!.enrollmentId)) === "replied", { what: "the other tenant's reply", timeoutMs: 20_000 });

    // three tries (each reconnects after a backoff), then passed over: the message behind it is handled
    const skipped = await waitFor(() => db.inboundMessage.findFirst({ where: { credentialId: victim.credentialId, uid: 1n } }), { what: "the hostile message passed over", timeoutMs: 40_000 });
    assert.equal(skipped.kind, "skipped");
    assert.match(skipped.skipReason ?? "", /^failed on 3 tries: LiteralTooLarge: Literal size 629145600 exceeds/);
    await waitFor(async () => (await enrollmentStatus(db, victim.enrollments[0]!.enrollmentId)) === "replied", { what: "the reply behind the hostile message", timeoutMs: 20_000 });
    const credential = await db.smtpCredential.findUniqueOrThrow({ where: { id: victim.credentialId } });
    assert.ok(credential.imapLastUid! >= 2n, `cursor past the hostile message: ${credential.imapLastUid}`);
    assert.equal(hostile.contentFetches.get(1), 3, "tried three times, never again");
    assert.ok(
      [...errorsSeen].some((error) => /LiteralTooLarge/.test(error)),
      `the tenant saw the error on the credential: ${[...errorsSeen].join(" | ")}`,
    );
  } finally {
    clearInterval(errorSampler);
    const mostMb = rss.stop();
    console.log(`# poller RSS idle ${idleMb.toFixed(0)} MB, during the attack at most ${mostMb.toFixed(0)} MB; hostile bytes sent ${(hostile.hugeBytesSent / 1048576).toFixed(1)} MB`);
    assert.ok(
      mostMb > 0 && mostMb < Math.min(idleMb + RSS_GROWTH_MB, RSS_LIMIT_MB),
      `poller RSS ${mostMb.toFixed(0)} MB (idle ${idleMb.toFixed(0)} MB; limit +${RSS_GROWTH_MB} MB, ${RSS_LIMIT_MB} MB)`,
    );
  }
  assert.equal(poller.child.exitCode, null, `the poller is still running:\n${poller.output()}`);
  assert.equal(poller.child.signalCode, null);
  await poller.stop("SIGTERM", 10_000);
});

test("a message whose every try dies with its process is passed over by the fourth poller, never loaded again", async () => {
  const { env, config } = pollerSetup();
  const redis = createRedis(config, "producer");
  redises.push(redis);
  const stalling = await ScriptedImapServer.start();
  servers.push(stalling);
  const s = await seedInbox(db, keyring, imap, { imapHost: stalling.host, imapPort: stalling.port });
  stalling.add({ uid: 1, size: 2048, body: "stall" });
  stalling.add({ uid: 2, size: 1500, body: rawReply(s) });

  for (let round = 1; round <= 3; round++) {
    const poller = await startPoller(env);
    await waitFor(() => (stalling.contentFetches.get(1) ?? 0) >= round, { what: `try ${round} of the message`, timeoutMs: 20_000 }).catch((err: Error) =>
      assert.fail(`${err.message} (connections ${stalling.connections}, logins ${stalling.logins})\n${poller.output()}`),
    );
    // mid-message, as an out-of-memory kill would: nothing is cleaned up
    await poller.stop("SIGKILL");
    // the dead process's lease would expire in 10 s: let it go at once
    await redis.del(redisKeys.inboxLease(config, s.credentialId));
  }
  const row = await db.smtpCredential.findUniqueOrThrow({ where: { id: s.credentialId } });
  assert.deepEqual([row.imapPendingUid, row.imapPendingTries], [1n, 3], "three tries recorded before each fetch");

  const last = await startPoller(env);
  const skipped = await waitFor(() => db.inboundMessage.findFirst({ where: { credentialId: s.credentialId, uid: 1n } }), { what: "the message passed over", timeoutMs: 20_000 });
  assert.equal(skipped.kind, "skipped");
  assert.equal(skipped.skipReason, "failed on 3 tries: the poller stopped while reading it");
  await waitFor(async () => (await enrollmentStatus(db, s.enrollments[0]!.enrollmentId)) === "replied", { what: "the reply behind it", timeoutMs: 20_000 });
  assert.equal(stalling.contentFetches.get(1), 3, "not loaded a fourth time");
  assert.equal(last.child.exitCode, null);
});

test("tries that fail because PostgreSQL is unreachable are not the message's: the try after the outage reads the reply, nothing passed over", async () => {
  const proxy = await startTcpProxy(new URL(database.url).hostname, Number(new URL(database.url).port || 5432));
  const viaProxy = new URL(database.url);
  viaProxy.host = `127.0.0.1:${proxy.port}`;
  const { env } = pollerSetup();
  const server = await ScriptedImapServer.start();
  servers.push(server);
  const s = await seedInbox(db, keyring, imap, { imapHost: server.host, imapPort: server.port });
  server.add({ uid: 1, size: 1500, body: rawReply(s) });
  // the database goes away while each of the first three tries fetches the message, and is back within a second
  let outages = 0;
  server.beforeContent = () => {
    if (outages >= 3) return;
    outages += 1;
    proxy.cut();
    setTimeout(() => proxy.resume(), 1_000);
  };
  const poller = await startPoller({ ...env, DATABASE_URL: viaProxy.toString() });
  try {
    await waitFor(async () => (await enrollmentStatus(db, s.enrollments[0]!.enrollmentId)) === "replied", { what: "the reply read after three outages", timeoutMs: 60_000 }).catch((err: Error) =>
      assert.fail(`${err.message} (content fetches ${server.contentFetches.get(1)})\n${poller.output()}`),
    );
    assert.equal(server.contentFetches.get(1), 4, "three tries failed on the database, the fourth read it");
    const rows = await db.inboundMessage.findMany({ where: { credentialId: s.credentialId } });
    assert.deepEqual(
      rows.map((row) => row.kind),
      ["reply"],
    );
    const credential = await db.smtpCredential.findUniqueOrThrow({ where: { id: s.credentialId } });
    assert.deepEqual([credential.imapPendingUid, credential.imapPendingTries], [1n, 1], "each try after an outage took the place of the failed one");
    assert.equal(poller.child.exitCode, null);
  } finally {
    await proxy.close();
  }
});
