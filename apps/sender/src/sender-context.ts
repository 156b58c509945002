import type { Redis } from "ioredis";
import { type Config, type Keyring, type Logger, type TypedQueue } from "@outreach/core";
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
  sendQueue: TypedQueue<"send-email">;
  /** the connection the queue producers use */
  producer: Redis;
}
