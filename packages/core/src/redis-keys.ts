import type { AppName, Config } from "./config.js";
import type { QueueName } from "./queues.js";

/**
 * The one catalog of the Redis keys and pub/sub channels of our own. Every key
 * lives under QUEUE_PREFIX: `<prefix>:<family>:<parts...>`, parts joined by ":"
 * as they are given (ids, names, hashes; an IPv6 subject keeps its own colons).
 *
 * The strings are a contract with running deployments: replicas of the
 * previous release share these leases, slots and limits during a rollout, so
 * a key's bytes never change (packages/core/test/redis-keys.test.ts pins each
 * one). A new key is a new entry here; nothing outside this file builds a key
 * from QUEUE_PREFIX (the same test's source check fails naming the file).
 *
 * BullMQ's keys are BullMQ's: a queue of the catalog in queues.ts (QUEUE_NAMES,
 * e.g. "send-email") keeps its jobs under `<prefix>:<queue name>:<BullMQ's
 * suffix>` (`:meta`, `:wait`, `:id`, `:<job id>`, ...), and a per-process shard
 * of one (shardQueueName, e.g. a sender's own "send-email.<sender id>") under
 * `<prefix>:send-email.<sender id>:...`. We never write them ourselves; only
 * the operators' queue discovery reads their names (bullQueue, queueOfBullKey).
 *
 * On a Redis Cluster (REDIS_CLUSTER_NODES) the prefix is hash-tagged,
 * `{<QUEUE_PREFIX>}` (clusterQueuePrefix, applied by loadConfig to
 * config.queuePrefix), so every key of a deployment, ours and BullMQ's, hashes
 * to one slot. A cluster refuses (CROSSSLOT) a script or MULTI over keys of
 * several slots, and ioredis a pipeline over several nodes; these span keys:
 *   - BullMQ's Lua scripts: every key of a queue at once (add, move, retry);
 *   - InboxLeases: ACQUIRE over up to 500 inbox leases, and MGET of them;
 *   - InboxPool: MGET of inboxWanted keys, a pipeline of SETs of them;
 *   - RedisSemaphore.renewAll: a pipeline of the acquire script over many accounts' keys;
 *   - absentProcesses: a pipeline of EXISTS over many liveness keys;
 *   - one key each, so any slot would do: ReplicaRing's and takeClassifierCall's
 *     MULTI, SentJournal's pipeline, the GCRA, allowance, lease and registry scripts.
 * Pub/sub (apiKeyEventsChannel, smtpSessionWantedChannel) is cluster-wide.
 * The price: one deployment's keys live on one master; a cluster spreads
 * deployments (prefixes), not one deployment's load. Outside a cluster the
 * bytes are unchanged.
 *
 * Lines below: what it holds; its Redis type; who writes / reads it; its TTL.
 */

/** The key prefix on a Redis Cluster: QUEUE_PREFIX as a hash tag, so all of a deployment's keys share one slot. */
export const clusterQueuePrefix = (queuePrefix: string): string => `{${queuePrefix}}`;

/** What a key is built from: the deployment's QUEUE_PREFIX. */
export type RedisKeyConfig = Pick<Config, "queuePrefix">;

/** The queues shared by every account whose jobs each hold one SMTP session for as long as the server takes, and so a per-account slot (limits.ts). */
export type SlottedQueue = Extract<QueueName, "test-send" | "send-answer">;

const join = (config: RedisKeyConfig, ...parts: string[]): string => [config.queuePrefix, ...parts].join(":");

/** The UTC day of `at` as YYYY-MM-DD (the test-send allowance's period). */
const utcDay = (at: Date): string => at.toISOString().slice(0, 10);

export const redisKeys = {
  // --- per-account semaphores (RedisSemaphore: zset of holders scored by lease expiry, key PEXPIRE 2x the lease) ---

  /** An account's campaign-dispatch slots (DISPATCH_CONCURRENCY_PER_ACCOUNT); zset of job ids; dispatcher writes/reads (dispatchBatch); lease 10 min renewed per chunk, key 20 min. */
  dispatchSlots: (config: RedisKeyConfig, accountId: string) => join(config, "sem", "dispatch", accountId),
  /** An account's SMTP sessions, open or idle (SEND_CONCURRENCY_PER_ACCOUNT); zset of session leases; sender writes/reads (SmtpPool); lease 15 s renewed every 5 s, key 30 s. */
  smtpSessions: (config: RedisKeyConfig, accountId: string) => join(config, "sem", "smtp", accountId),
  /** One mailbox's SMTP sessions (SMTP_SESSIONS_PER_MAILBOX; `mailbox`: a 22-char hash of host and username); zset of session leases; sender writes/reads (SmtpPool); lease 15 s, key 30 s. */
  mailboxSessions: (config: RedisKeyConfig, accountId: string, mailbox: string) => join(config, "sem", "smtp-mailbox", accountId, mailbox),
  /** An account's slots of a shared queue (TEST_SEND_/SEND_ANSWER_CONCURRENCY_PER_ACCOUNT); zset of job ids; sender writes/reads (AccountQueueSlots); lease 30 s renewed every 10 s, key 60 s. */
  accountSlot: (config: RedisKeyConfig, queue: SlottedQueue, accountId: string) => join(config, "sem", queue, accountId),

  // --- imap-poller ---

  /** The lease of an inbox's watcher; string (the holding replica's id); imap-poller writes (InboxLeases), imap-poller's unwatched gauge, GET /admin/schedule and `pnpm ops schedule` read (MGET); PX 10 s, renewed while watched. */
  inboxLease: (config: RedisKeyConfig, inboxId: string) => join(config, "imap", "lease", inboxId),
  /** An inbox's preferred replica asking its holder to hand it over; string (the asking replica's id); imap-poller writes and reads (InboxPool); PX 3 assignment rounds (9 s). */
  inboxWanted: (config: RedisKeyConfig, inboxId: string) => join(config, "imap", "want", inboxId),
  /** The live poller replicas (rendezvous hashing of inboxes); zset of replica ids scored by heartbeat expiry; imap-poller writes and reads (ReplicaRing); no TTL, members expire 6 s after their last heartbeat. */
  pollerReplicas: (config: RedisKeyConfig) => join(config, "imap", "replicas"),

  /** Questions asked of the reply classifier model for an account on the UTC day of `at` (REPLY_CLASSIFIER_DAILY_BUDGET); string counter (INCR); imap-poller writes/reads (categorize-reply jobs); EXPIRE 2 days. */
  replyClassifierBudget: (config: RedisKeyConfig, accountId: string, at: Date) => join(config, "reply-classifier-budget", accountId, utcDay(at)),

  // --- processes ---

  /** A process is alive (its claimed sends are not orphaned); string "1"; sender writes (LivenessBeacon), dispatcher reads (absentProcesses); PX 15 s, refreshed every 5 s. */
  liveness: (config: RedisKeyConfig, processId: string) => join(config, "alive", processId),
  /** The sender processes up, for routing an inbox's sends; zset of process ids scored by heartbeat expiry (Redis clock); sender writes (SenderRegistry heartbeat), sender and dispatcher read (SendRouter), dispatcher forgets expired ones (SenderTakeover), api's queue discovery lists them; no TTL, members expire 6 s after their last heartbeat. */
  senderRegistry: (config: RedisKeyConfig) => join(config, "senders"),
  /** Which replica of an app exports the database gauges; string (the holder's random id); every worker app's replicas write/read (MetricsLease); PX 15 s, renewed every 5 s. */
  metricsLease: (config: RedisKeyConfig, app: AppName) => join(config, "metrics-lease", app),

  // --- sender ---

  /** Sends SMTP accepted whose record is not in PostgreSQL yet; hash (step send id -> JSON entry); sender writes, replays and removes (SentJournal); no TTL, a field lives until recorded. */
  sentJournal: (config: RedisKeyConfig) => join(config, "sent-journal"),
  /** Pub/sub channel: a sender needs an SMTP session another one holds idle ("<origin> <account id> <mailbox lease key or empty>"); senders publish and subscribe (SessionWantedSignal); no TTL. */
  smtpSessionWantedChannel: (config: RedisKeyConfig) => join(config, "smtp-session-wanted"),

  // --- api ---

  /** Pub/sub channel: an API key's SHA-256 (hex) was revoked, or "account:<id>" changed access; api (revocation) and `pnpm ops` (suspension) publish, every api replica's ApiKeyCache subscribes; no TTL. */
  apiKeyEventsChannel: (config: RedisKeyConfig) => join(config, "api-key-revoked"),
  /** A rate-limit budget: `policy` key, account, signup, tracking or auth-failures, `subject` an API key id, account id or client address bucket; string (GCRA theoretical arrival time, ms); api writes/reads (checkRateLimit, RateLimiter); PX until the budget is full again (at most the window). */
  rateLimit: (config: RedisKeyConfig, policy: string, subject: string) => join(config, "rl", policy, subject),
  /** Test-send addresses used by an account on the UTC day of `at`; string counter (INCRBY); api writes/reads (queue-test-send); EXPIRE 2 days. */
  testSendAllowance: (config: RedisKeyConfig, accountId: string, at: Date) => join(config, "test-send-allowance", accountId, utcDay(at)),
  /** The nonce of an OAuth authorize `state` was used (each state connects one mailbox at most); string "1"; api writes (SET NX, the OAuth callback); PX until the state expires (10 min at most). */
  oauthStateNonce: (config: RedisKeyConfig, nonce: string) => join(config, "oauth-state", nonce),

  // --- dispatcher ---

  /** The retention purge of the current period is taken (one replica purges); string (ISO time taken); dispatcher writes (SET NX, RetentionLoop); PX one period (RETENTION_EVERY_MS, 60 s). */
  retentionPurge: (config: RedisKeyConfig) => join(config, "retention-purge"),
  /** The sender-domain health sweep of the current minute is taken (one replica checks); string (ISO time taken); dispatcher writes (SET NX, DomainHealthSweep); PX one period (DOMAIN_HEALTH_SWEEP_EVERY_MS, 60 s). */
  domainHealthSweep: (config: RedisKeyConfig) => join(config, "domain-health-sweep"),

  // --- BullMQ's (read only, see above) ---

  /** The root of BullMQ's keys of a queue or shard name (`<root>:meta`, ...); written by BullMQ only; api's queue discovery SCANs for `<root>*:meta`. */
  bullQueue: (config: RedisKeyConfig, queueName: string) => join(config, queueName),
} as const;

/** The queue (or shard) name in one of BullMQ's keys `<prefix>:<queue name>:<suffix>` (the inverse of redisKeys.bullQueue); undefined for a key of another prefix. */
export function queueOfBullKey(config: RedisKeyConfig, key: string, suffix: string): string | undefined {
  const head = join(config, "");
  const tail = `:${suffix}`;
  if (!key.startsWith(head) || !key.endsWith(tail) || key.length < head.length + tail.length) return undefined;
  return key.slice(head.length, key.length - tail.length);
}
