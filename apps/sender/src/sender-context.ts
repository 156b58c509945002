import type { RedisClient } from "@outreach/core";
import type { Batcher, Config, Keyring, Logger } from "@outreach/core";
import type { SendContext, SentInput } from "@outreach/domain";
import type { AccountQueueSlots } from "./account-queue-slots.js";
import type { AccountReleases } from "./account-releases.js";
import type { Db } from "@outreach/db";
import type { MailboxTokenSource } from "./mailbox-login.js";
import type { SentJournal } from "./sent-journal.js";
import type { SmtpEndpoint, SmtpPool } from "./smtp-pool.js";

export interface SenderContext {
  config: Config;
  /** opens the SMTP passwords and makes the tracking links */
  keyring: Keyring;
  logger: Logger;
  db: Db;
  pool: SmtpPool;
  /** delivered sends until their record is in PostgreSQL */
  journal: SentJournal;
  /** this process's id in the sends it claims (see LivenessBeacon) */
  processId: string;
  /** the connection the queue producers use */
  producer: RedisClient;
  /** claims a queued send and reads it (null: not claimable), concurrent claims in one statement */
  claims: Batcher<string, SendContext | null>;
  /** records a delivered send (false: it was not "sending"), concurrent records in one statement */
  records: Batcher<SentInput, boolean>;
  /** the account's next sends, released after a send ends (one release at a time per account) */
  releases: AccountReleases;
  /** an account's share of the test-send and send-answer workers (TEST_SEND_/SEND_ANSWER_CONCURRENCY_PER_ACCOUNT) */
  queueSlots: AccountQueueSlots;
  /** access tokens of OAuth2 mailboxes (XOAUTH2 logins), one MailboxTokens per process */
  mailboxTokens: MailboxTokenSource;
  /** inboxes' SMTP endpoints as last read (`source`: the stored fields they were decrypted from), to take a routed send's session before its claim (checked after it) */
  endpoints: Map<string, { accountId: string; source: string; endpoint: SmtpEndpoint }>;
}
