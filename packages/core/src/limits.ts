/**
 * Every concurrency and capacity limit the engine enforces, in one place: its
 * value, what it bounds, where it is enforced, and the environment variable
 * that overrides it (config.ts validates the override; without one, the value
 * here is the default). Call sites import these; a number repeated elsewhere
 * is a second source that will drift.
 *
 * SPEC "Limits": concurrency per account is send job 10, campaign dispatcher 3,
 * webhook delivery 10, all replicas together.
 *
 * Not here: request rates and quotas (RATE_LIMIT_*, AUTH_FAILURE_LIMIT_PER_MINUTE,
 * TRACKING_RATE_LIMIT_PER_MINUTE, SIGNUP_LIMIT_PER_HOUR in config.ts; the
 * test-send daily allowance, TEST_SEND_DAILY_LIMIT in the api; plans' monthly
 * sends and inboxes' daily_limit in PostgreSQL), the database pool
 * (DATABASE_POOL_SIZE), and sizes of reads, batches and payloads (beside the
 * code they bound).
 */

// --- per account, all replicas together ---

/** Sends queued or sending per account: released at most this many (releaseDueSends, SQL release_due_sends), and the sender's SMTP sessions per account, open or idle (RedisSemaphore on redisKeys.smtpSessions); KEDA's sender trigger caps each account at it (k8s sender-scaledobject.yaml, checked by test/k8s-manifests.test.ts). No override. */
export const SEND_CONCURRENCY_PER_ACCOUNT = 10;

/** campaign-dispatch jobs running per account, others wait delayed without spending an attempt: dispatcher, RedisSemaphore on redisKeys.dispatchSlots (dispatchBatch). No override. */
export const DISPATCH_CONCURRENCY_PER_ACCOUNT = 3;

/** test-send jobs running per account (of the TEST_SEND_WORKERS of each sender), so one account's slow SMTP server cannot hold them all: sender, AccountQueueSlots on redisKeys.accountSlot. No override. */
export const TEST_SEND_CONCURRENCY_PER_ACCOUNT = 2;

/** send-answer jobs running per account (of the SEND_ANSWER_WORKERS of each sender), likewise: sender, AccountQueueSlots on redisKeys.accountSlot. No override. */
export const SEND_ANSWER_CONCURRENCY_PER_ACCOUNT = 2;

/** Webhook requests in flight per account: webhook-deliverer's AccountRunner, while its process holds the account's lease (PostgreSQL), so no other process adds to them. No override. */
export const WEBHOOK_CONCURRENCY_PER_ACCOUNT = 10;

/** SMTP sessions open at once per mailbox (host and username, whichever campaigns share it), within the account's SEND_CONCURRENCY_PER_ACCOUNT: sender, RedisSemaphore on redisKeys.mailboxSessions (SmtpPool). Override: SMTP_SESSIONS_PER_MAILBOX (1 to SEND_CONCURRENCY_PER_ACCOUNT). */
export const SMTP_SESSIONS_PER_MAILBOX_DEFAULT = 2;

// --- per process ---

/** send-email jobs one sender works on at once from its own queue (the sends of the inboxes whose sessions it holds): the sender's BullMQ worker. No override. */
export const SEND_EMAIL_WORKERS_OWN_QUEUE = 50;

/** send-email jobs one sender works on at once from the shared queue (sends released while no sender was registered): the sender's BullMQ worker. No override. */
export const SEND_EMAIL_WORKERS_SHARED_QUEUE = 20;

/** test-send jobs one sender works on at once, FIFO across accounts (each account at most TEST_SEND_CONCURRENCY_PER_ACCOUNT of them): the sender's BullMQ worker. No override. */
export const TEST_SEND_WORKERS = 5;

/** send-answer jobs one sender works on at once (each account at most SEND_ANSWER_CONCURRENCY_PER_ACCOUNT of them): the sender's BullMQ worker. No override. */
export const SEND_ANSWER_WORKERS = 5;

/** campaign-dispatch jobs one dispatcher works on at once (each account at most DISPATCH_CONCURRENCY_PER_ACCOUNT of them): the dispatcher's BullMQ worker. No override. */
export const CAMPAIGN_DISPATCH_WORKERS = 5;

/** replan-held-sends jobs one dispatcher works on at once: the dispatcher's BullMQ worker. No override. */
export const REPLAN_HELD_SENDS_WORKERS = 2;

/** MX look-ups in flight per planning chunk: the dispatcher's MxVerifier.verifyAll. No override. */
export const MX_LOOKUPS_IN_FLIGHT = 16;

/** Accounts one webhook-deliverer delivers for at once (each up to WEBHOOK_CONCURRENCY_PER_ACCOUNT requests): DeliveryFeeder. No override. */
export const WEBHOOK_ACCOUNTS_PER_PROCESS = 100;

/** IMAP connections (watched inboxes) one imap-poller replica holds: InboxPool. Override: IMAP_MAX_CONNECTIONS. */
export const IMAP_CONNECTIONS_PER_REPLICA_DEFAULT = 1000;

/** Inboxes of one account one imap-poller replica watches, 0 for no fixed cap (only a fair share when inboxes wait): InboxPool (fairShare). Override: IMAP_MAX_INBOXES_PER_ACCOUNT. */
export const IMAP_INBOXES_PER_ACCOUNT_DEFAULT = 0;

/** IMAP connections being opened at once by one imap-poller replica, in all: ConnectGate. No override. */
export const IMAP_CONNECTS_IN_FLIGHT = 50;

/** IMAP connections being opened at once by one imap-poller replica to one host (providers throttle bursts): ConnectGate. No override. */
export const IMAP_CONNECTS_IN_FLIGHT_PER_HOST = 10;

/** IMAP connections being opened at once by one imap-poller replica for one account (turns taken round-robin between accounts): ConnectGate. No override. */
export const IMAP_CONNECTS_IN_FLIGHT_PER_ACCOUNT = 10;
