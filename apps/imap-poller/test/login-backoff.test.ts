import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { redisKeys, type RedisClient } from "@outreach/core";
import type { Db } from "@outreach/db";
import { startAppProcess, waitFor, type AppProcess, type ImapTestServer } from "@outreach/testing";
import { reenableCredential } from "../../api/src/services/reenable-credential.js";
import { seedInbox, startPollerFixture, type PollerFixture } from "./helpers.js";
import { ScriptedImapServer } from "./scripted-imap-server.js";

// An inbox whose server refuses every login: the poller waits longer after each refusal (the
// wait is in the database, so any replica or a restart keeps it), stops after five in a row
// with an error saying how to try again, and tries again once the credential is re-enabled.
let pollerFixture: PollerFixture | undefined;
let imap: ImapTestServer;
let refusing: ScriptedImapServer;
let db: Db;
let redis: RedisClient;
let poller: AppProcess | undefined;

before(async () => {
  pollerFixture = await startPollerFixture({ env: { IMAP_LOGIN_RETRY_SECONDS: "1" }, redis: true });
  ({ imap, db, redis } = pollerFixture);
  refusing = await ScriptedImapServer.start({ refuseLogins: true });
});
after(() =>
  pollerFixture?.stop(async () => {
    await poller?.stop("SIGTERM", 10_000);
    await refusing?.close();
  }),
);

test("refused logins back off (1 s, 2 s, 4 s, 8 s), stop after 5 in a row, and re-enabling tries again", async () => {
  const { env, config, keyring } = pollerFixture!;
  const s = await seedInbox(db, keyring, imap, { imapHost: refusing.host, imapPort: refusing.port });
  poller = await startAppProcess("imap-poller", { env });

  const seen: Array<{ failures: number; retryAt: Date | null; login: number; at: number }> = [];
  const credential = () => db.smtpCredential.findUniqueOrThrow({ where: { id: s.credentialId } });
  const stopped = await waitFor(
    async () => {
      const row = await credential();
      const last = seen.at(-1);
      if (!last || last.failures !== row.imapLoginFailures) seen.push({ failures: row.imapLoginFailures, retryAt: row.imapRetryAt, login: refusing.logins, at: Date.now() });
      return row.imapStoppedAt ? row : null;
    },
    { what: "the inbox stopped after refused logins", timeoutMs: 50_000, intervalMs: 50 },
  );
  assert.equal(stopped.imapLoginFailures, 5);
  assert.equal(refusing.logins, 5, "one login per try");
  assert.match(
    stopped.imapLastError ?? "",
    /^login refused: Authentication failed\. \(5 times in a row\); no longer trying: correct the IMAP settings, then POST \/campaigns\/\{campaign_id\}\/smtp_credentials\/\{credential_id\}\/reenable$/,
  );
  // the count grew one refusal at a time, each with a retry time further away
  assert.deepEqual(
    seen.map((entry) => entry.failures),
    [0, 1, 2, 3, 4, 5],
  );
  const waits = seen.slice(1, 5).map((entry) => entry.retryAt!.getTime() - entry.at);
  waits.forEach((wait, i) => assert.ok(wait > 2 ** i * 1000 - 400 && wait <= 2 ** i * 1000, `wait after refusal ${i + 1}: ${wait} ms`));

  // no more logins: three more assignment rounds of the poller (its heartbeat) pass without one
  const replicas = redisKeys.pollerReplicas(config);
  let beats = 0;
  let previous = "";
  await waitFor(
    async () => {
      const score = JSON.stringify(await redis.zrange(replicas, 0, -1, "WITHSCORES"));
      if (score !== previous) beats += 1;
      previous = score;
      return beats > 3;
    },
    { what: "three more rounds", timeoutMs: 20_000, intervalMs: 100 },
  );
  assert.equal(refusing.logins, 5, "no login after stopping");

  // the tenant corrects the password (here: the server accepts it again) and re-enables
  refusing.refuseLogins = false;
  await reenableCredential(db, s.accountId, s.campaignId, s.credentialId);
  const cleared = await credential();
  assert.deepEqual([cleared.imapLoginFailures, cleared.imapRetryAt, cleared.imapStoppedAt], [0, null, null]);
  await waitFor(async () => (await credential()).imapLastError === null && refusing.logins === 6, { what: "a login after re-enabling", timeoutMs: 20_000 });
  assert.equal((await credential()).imapLoginFailures, 0);
});
