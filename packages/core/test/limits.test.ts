import assert from "node:assert/strict";
import { test } from "node:test";
import { loadConfig } from "../src/config.js";
import * as limits from "../src/limits.js";

test("the engine's limits keep their values (SPEC Limits: send job 10, campaign dispatcher 3, webhook delivery 10 per account)", () => {
  assert.deepEqual(
    { ...limits },
    {
      SEND_CONCURRENCY_PER_ACCOUNT: 10,
      DISPATCH_CONCURRENCY_PER_ACCOUNT: 3,
      TEST_SEND_CONCURRENCY_PER_ACCOUNT: 2,
      SEND_ANSWER_CONCURRENCY_PER_ACCOUNT: 2,
      WEBHOOK_CONCURRENCY_PER_ACCOUNT: 10,
      SMTP_SESSIONS_PER_MAILBOX_DEFAULT: 2,
      SEND_EMAIL_WORKERS_OWN_QUEUE: 50,
      SEND_EMAIL_WORKERS_SHARED_QUEUE: 20,
      TEST_SEND_WORKERS: 5,
      SEND_ANSWER_WORKERS: 5,
      CAMPAIGN_DISPATCH_WORKERS: 5,
      REPLAN_HELD_SENDS_WORKERS: 2,
      MX_LOOKUPS_IN_FLIGHT: 16,
      WEBHOOK_ACCOUNTS_PER_PROCESS: 100,
      IMAP_CONNECTIONS_PER_REPLICA_DEFAULT: 1000,
      IMAP_INBOXES_PER_ACCOUNT_DEFAULT: 0,
      IMAP_CONNECTS_IN_FLIGHT: 50,
      IMAP_CONNECTS_IN_FLIGHT_PER_HOST: 10,
      IMAP_CONNECTS_IN_FLIGHT_PER_ACCOUNT: 10,
    },
  );
});

test("a limit with an override is the config's default, and the per-mailbox sessions stay within the account's", () => {
  const config = loadConfig("sender", {});
  assert.equal(config.smtpSessionsPerMailbox, limits.SMTP_SESSIONS_PER_MAILBOX_DEFAULT);
  assert.equal(config.imapMaxConnections, limits.IMAP_CONNECTIONS_PER_REPLICA_DEFAULT);
  assert.equal(config.imapMaxInboxesPerAccount, limits.IMAP_INBOXES_PER_ACCOUNT_DEFAULT);
  assert.equal(loadConfig("sender", { SMTP_SESSIONS_PER_MAILBOX: String(limits.SEND_CONCURRENCY_PER_ACCOUNT) }).smtpSessionsPerMailbox, limits.SEND_CONCURRENCY_PER_ACCOUNT);
  assert.throws(() => loadConfig("sender", { SMTP_SESSIONS_PER_MAILBOX: String(limits.SEND_CONCURRENCY_PER_ACCOUNT + 1) }));
});
