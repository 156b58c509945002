import {
  createRedis,
  databaseGauge,
  EgressGuard,
  InboxLeases,
  Keyring,
  pollerSeries,
  redisKeys,
  errorFields,
  ignoreFailure,
  replyClassifierSeries,
  TypedQueue,
  type ReplyClassifierConfig,
  type RedisClient,
} from "@outreach/core";
import { MailboxTokens, oauthClientsFromConfig } from "@outreach/domain";
import type { QueueProcessor, WorkerDefinition } from "@outreach/runtime";
import { categorizeReplyByModel } from "./categorize-reply-by-model.js";
import { ConnectGate } from "./connect-gate.js";
import { InboxPool } from "./inbox-pool.js";
import { countUnwatchedInboxes, handleInboxMessage, inboxStoreDeps, listWatchedInboxes } from "./inbox-store.js";
import { InboxWatcher } from "./inbox-watcher.js";
import { queueModelCategory } from "./queue-model-category.js";
import { ReplicaRing } from "./replica-ring.js";

interface PollerResources {
  redis: RedisClient;
  pool: InboxPool;
  /** the model's part, when REPLY_CLASSIFIER_URL is set */
  modelCategories: { classifier: ReplyClassifierConfig; queue: TypedQueue<"categorize-reply">; calls: ReturnType<typeof replyClassifierSeries>["calls"] } | undefined;
}

/** Replies the model works on at once per replica: each is one HTTP request, bounded by REPLY_CLASSIFIER_TIMEOUT_MS. */
const MODEL_CATEGORY_CONCURRENCY = 4;

/**
 * Watches every inbox of an active campaign that has IMAP settings, one
 * connection per inbox across all replicas (see InboxPool), for replies,
 * auto-replies, DSN bounces and mailto unsubscribes; with REPLY_CLASSIFIER_URL
 * set, also asks the model about the replies the rules left as other
 * (categorize-reply jobs).
 */
export const imapPollerWorker: WorkerDefinition<PollerResources> = {
  app: "imap-poller",
  setup: (ctx) => {
    const { config, db, logger } = ctx;
    const redis = createRedis(config, "producer");
    redis.on("error", (err) => logger.debug("redis error", { ...errorFields(err) }));
    const keyring = Keyring.fromConfig(config);
    const guard = new EgressGuard({ allowPrivate: config.mailAllowPrivateHosts, dnsServers: config.dnsServers });
    const ring = new ReplicaRing(redis, redisKeys.pollerReplicas(config), undefined, logger);
    const leases = new InboxLeases(redis, (id) => redisKeys.inboxLease(config, id), ring.replicaId);
    const gate = new ConnectGate();
    // OAuth2 mailboxes log in with an access token (XOAUTH2), refreshed once per connection for all of this process's logins
    const mailboxTokens = new MailboxTokens({ db, keys: keyring, clients: oauthClientsFromConfig(config), logger });
    // made below; the gauge reads it at scrape time
    let pool: InboxPool | undefined;
    const { inbound } = pollerSeries(ctx.metrics, () => pool?.watching().length ?? 0);
    databaseGauge(
      ctx.metrics,
      {
        name: "outreach_imap_inboxes_unwatched",
        help: "Inboxes of active campaigns with IMAP settings that no replica watches (backing off after refused logins, stopped, or past IMAP_MAX_CONNECTIONS).",
      },
      async () => [{ value: await countUnwatchedInboxes(db, leases) }],
    );
    const classifier = config.replyClassifier;
    const modelCategories = classifier ? { classifier, queue: new TypedQueue("categorize-reply", config, redis), calls: replyClassifierSeries(ctx.metrics).calls } : undefined;
    const loginBackoff = { retryBaseMs: config.imapLoginRetrySeconds * 1000, maxFailures: config.imapLoginMaxFailures };
    pool = new InboxPool(redis, ring, leases, logger, {
      maxConnections: config.imapMaxConnections,
      maxPerAccount: config.imapMaxInboxesPerAccount,
      wantKey: (id) => redisKeys.inboxWanted(config, id),
      listInboxes: () => listWatchedInboxes(db, keyring),
      createWatcher: (endpoint) =>
        new InboxWatcher(endpoint, {
          guard,
          gate,
          requireTls: config.mailRequireTls,
          pollIntervalMs: config.imapPollIntervalSeconds * 1000,
          logger,
          ...inboxStoreDeps(db, loginBackoff),
          accessTokenFor: (connectionId, options) => mailboxTokens.accessTokenFor(connectionId, options),
          handleMessage: async (id, uidValidity, uid, raw) => {
            const outcome = await handleInboxMessage(db, id, uidValidity, uid, raw);
            if (outcome !== "duplicate") inbound.inc({ kind: outcome === "unmatched" ? "other" : outcome });
            if (outcome !== "duplicate" && outcome !== "unmatched") logger.info("inbound message", { credentialId: id, uid: String(uid), outcome });
            // the message is recorded: a failure to queue it for the model only leaves the rules' category
            if (modelCategories) {
              await queueModelCategory(db, modelCategories.queue, { credentialId: id, uidValidity, uid }, outcome).catch((err) =>
                logger.warn("a reply was not queued for the reply classifier: its category stays the rules' one", { credentialId: id, uid: String(uid), ...errorFields(err) }),
              );
            }
          },
        }),
    });
    return { redis, pool: pool!, modelCategories };
  },
  processors: ({ db, config, logger }, { redis, modelCategories }): QueueProcessor<"categorize-reply">[] =>
    modelCategories
      ? [
          {
            queue: "categorize-reply",
            concurrency: MODEL_CATEGORY_CONCURRENCY,
            handler: (payload, job) => categorizeReplyByModel({ db, redis, config, logger, classifier: modelCategories.classifier, calls: modelCategories.calls }, payload, job),
          },
        ]
      : [],
  start: async (_ctx, resources) => resources.pool.start(),
  stop: async (_ctx, resources) => {
    await resources.pool.stop();
    await resources.modelCategories?.queue.close().catch(ignoreFailure(_ctx.logger, "closing the categorize-reply queue at shutdown", "the process exits"));
    await resources.redis.quit().catch(ignoreFailure(_ctx.logger, "closing the Redis connection at shutdown", "the process exits"));
  },
};
