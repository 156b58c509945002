import type { Redis } from "ioredis";
import { type Config, type Keyring, type Logger } from "@outreach/core";
import type { EnqueueSends } from "@outreach/domain";
import type { Db } from "@outreach/db";
import type { SentJournal } from "./sent-journal.js";
import type { SmtpPool } from "./smtp-pool.js";

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
  /** enqueues released sends, each to the sender holding its inbox (SendRouter) */
  enqueueSends: EnqueueSends;
  /** the connection the queue producers use */
  producer: Redis;
}
