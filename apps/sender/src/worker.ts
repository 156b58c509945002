import {
  Batcher,
  createRedis,
  EgressGuard,
  Keyring,
  LivenessBeacon,
  RedisSemaphore,
  redisKeys,
  SEND_ANSWER_CONCURRENCY_PER_ACCOUNT,
  SEND_ANSWER_WORKERS,
  SEND_CONCURRENCY_PER_ACCOUNT,
  SEND_EMAIL_WORKERS_OWN_QUEUE,
  SEND_EMAIL_WORKERS_SHARED_QUEUE,
  SenderRegistry,
  senderSeries,
  TEST_SEND_CONCURRENCY_PER_ACCOUNT,
  TEST_SEND_WORKERS,
  type SendOutcomeLabel,
  errorFields,
  ignoreFailure,
} from "@outreach/core";
import { claimAndLoadSends, MailboxTokens, oauthClientsFromConfig, recordSentBatch, SendRouter, type SendContext, type SentInput } from "@outreach/domain";
import { AccountQueueSlots } from "./account-queue-slots.js";
import { AccountReleases } from "./account-releases.js";
import type { WorkerDefinition } from "@outreach/runtime";
import { sendAnswer } from "./send-answer.js";
import { sendStep } from "./send-step.js";
import { sendTest } from "./send-test.js";
import type { SenderContext } from "./sender-context.js";
import { SentJournal } from "./sent-journal.js";
import { RedisSessionWantedSignal } from "./session-wanted-signal.js";
import { SmtpPool } from "./smtp-pool.js";
import { holdWhileSuspended } from "./suspended-accounts.js";

const SESSION_LEASE_MS = 15_000;

/** outreach_sends_total's outcome for what sendStep answered; null for a send that did not end here (held, retried, not claimable, ...). */
export function sendOutcomeLabel(result: string): SendOutcomeLabel | null {
  if (result === "sent" || result === "sent, record pending") return "sent";
  if (result.startsWith("sent, outcome unknown")) return "unknown";
  if (result === "bounced") return "bounced";
  if (result === "failed" || result === "credential error, failed") return "failed";
  return null;
}

type SenderResources = SenderContext & { beacon: LivenessBeacon; wanted: RedisSessionWantedSignal; router: SendRouter; sendStepCounted: (payload: Parameters<typeof sendStep>[1]) => Promise<string> };

export const senderWorker: WorkerDefinition<SenderResources> = {
  app: "sender",
  // an SMTP send ends within SMTP_TRANSACTION_TIMEOUT_MS (2 minutes by default); the pod's grace period is 90 s.
  // One still running after this is failed by the dispatcher as interrupted (never resent).
  closeTimeoutMs: 75_000,
  setup: async (ctx) => {
    const producer = createRedis(ctx.config, "producer");
    producer.on("error", (err) => ctx.logger.debug("redis error", { ...errorFields(err) }));
    // An account's SMTP sessions, open or idle, across all senders: as many as its sends in flight.
    // Leases are short and renewed, so the sessions of a sender that died come back within seconds.
    const sessions = new RedisSemaphore(producer, SEND_CONCURRENCY_PER_ACCOUNT, SESSION_LEASE_MS);
    // and per mailbox (an inbox's host and username, whichever campaigns share it): providers refuse more
    const mailboxSessions = new RedisSemaphore(producer, ctx.config.smtpSessionsPerMailbox, SESSION_LEASE_MS);
    const subscriber = createRedis(ctx.config, "worker");
    subscriber.on("error", (err) => ctx.logger.debug("redis error", { ...errorFields(err) }));
    const wanted = new RedisSessionWantedSignal(producer, subscriber, redisKeys.smtpSessionWantedChannel(ctx.config));
    const pool = new SmtpPool(sessions, {
      leaseKey: (accountId) => redisKeys.smtpSessions(ctx.config, accountId),
      mailbox: { semaphore: mailboxSessions, leaseKey: (accountId, mailbox) => redisKeys.mailboxSessions(ctx.config, accountId, mailbox) },
      renewEveryMs: SESSION_LEASE_MS / 3,
      logger: ctx.logger,
      wanted,
      egress: new EgressGuard({ allowPrivate: ctx.config.mailAllowPrivateHosts, dnsServers: ctx.config.dnsServers }),
      requireTls: ctx.config.mailRequireTls,
      timeouts: { connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: ctx.config.smtpSocketTimeoutMs },
      transactionTimeoutMs: ctx.config.smtpTransactionTimeoutMs,
    });
    // replayed at start too: what a sender that died (or lost PostgreSQL) left unrecorded
    const journal = new SentJournal(producer, redisKeys.sentJournal(ctx.config), ctx.db, ctx.logger);
    journal.start();
    // the sends this process claims carry its id; once its beacon expires the dispatcher fails them
    const beacon = new LivenessBeacon(producer, ctx.config, undefined, ctx.logger);
    beacon.start();
    // this sender's own send queue gets the sends of the inboxes it holds (SendRouter)
    const router = new SendRouter(producer, ctx.config, new SenderRegistry(producer, ctx.config, undefined, ctx.logger));
    await router.registry.start(beacon.processId);
    // claims and records of concurrent sends share statements (group commit)
    const claims = new Batcher<string, SendContext | null>(async (ids) => {
      const claimed = await claimAndLoadSends(ctx.db, ids, beacon.processId);
      return ids.map((id) => claimed.get(id) ?? null);
    }, 50);
    const records = new Batcher<SentInput, boolean>(async (inputs) => (await recordSentBatch(ctx.db, inputs)).map((r) => r.eventId !== null), 50);
    const { sends } = senderSeries(ctx.metrics, () => pool.openSessions());
    const keyring = Keyring.fromConfig(ctx.config);
    const resources: SenderResources = {
      ...ctx,
      keyring,
      mailboxTokens: new MailboxTokens({ db: ctx.db, keys: keyring, clients: oauthClientsFromConfig(ctx.config), logger: ctx.logger }),
      producer,
      pool,
      journal,
      beacon,
      wanted,
      router,
      processId: beacon.processId,
      claims,
      records,
      releases: new AccountReleases(ctx.db, router.enqueueContinuation, ctx.logger),
      queueSlots: new AccountQueueSlots(producer, ctx.config, { "test-send": TEST_SEND_CONCURRENCY_PER_ACCOUNT, "send-answer": SEND_ANSWER_CONCURRENCY_PER_ACCOUNT }, ctx.logger),
      endpoints: new Map(),
      async sendStepCounted(payload) {
        const result = await sendStep(resources, payload);
        const outcome = sendOutcomeLabel(result);
        if (outcome) sends.inc({ outcome });
        return result;
      },
    };
    return resources;
  },
  processors: (_ctx, sender) => [
    // Sends in flight are bounded per account when they are released (SEND_CONCURRENCY_PER_ACCOUNT,
    // all replicas together); this is how many jobs one process works on at once. A short
    // lock gives a dead sender's jobs to another sender within ~20 s; a job taken twice is
    // harmless (the claim admits one). Its own queue has the sends of the inboxes it holds;
    // the shared one those released while no sender was registered. Both have more workers
    // than one account's sends in flight: an account whose server stalls every send (each
    // up to SMTP_TRANSACTION_TIMEOUT_MS) holds at most a fifth, or half, of them.
    {
      queue: "send-email",
      shard: sender.processId,
      handler: (payload) => sender.sendStepCounted(payload),
      concurrency: SEND_EMAIL_WORKERS_OWN_QUEUE,
      options: { lockDuration: 15_000, stalledInterval: 5_000 },
    },
    { queue: "send-email", handler: (payload) => sender.sendStepCounted(payload), concurrency: SEND_EMAIL_WORKERS_SHARED_QUEUE, options: { lockDuration: 15_000, stalledInterval: 5_000 } },
    // Shared by every account, in order: each job holds its account's slot of the queue (2 of these 5
    // workers, all replicas together, see TEST_SEND_/SEND_ANSWER_CONCURRENCY_PER_ACCOUNT), so one account's slow SMTP server
    // cannot hold them all while other accounts' test sends and answers wait behind it.
    // A suspended account's jobs wait (delayed, no attempt spent) until it is unsuspended.
    {
      queue: "test-send",
      handler: async (payload, job, token) => {
        await holdWhileSuspended(sender.db, payload.accountId, job, token);
        return sender.queueSlots.run("test-send", payload.accountId, job, token, () => sendTest(sender, payload));
      },
      concurrency: TEST_SEND_WORKERS,
    },
    {
      queue: "send-answer",
      handler: async (payload, job, token) => {
        await holdWhileSuspended(sender.db, payload.accountId, job, token);
        return sender.queueSlots.run("send-answer", payload.accountId, job, token, () => sendAnswer(sender, payload, job));
      },
      concurrency: SEND_ANSWER_WORKERS,
    },
  ],
  // new sends go to the other senders from now on
  leave: async (_ctx, sender) => {
    await sender.router.registry.stop(sender.processId);
  },
  stop: async (ctx, sender) => {
    // what was routed here and not started goes back to the schedule, for the other senders
    await sender.router.handBack(ctx.db, sender.processId).catch((err) => ctx.logger.warn("could not hand back queued sends", { ...errorFields(err) }));
    await sender.pool.close();
    await sender.journal.stop();
    await sender.beacon.stop();
    await sender.wanted.close();
    await sender.router.close();
    await sender.producer.quit().catch(ignoreFailure(ctx.logger, "closing the Redis connection at shutdown", "the process exits"));
  },
};
