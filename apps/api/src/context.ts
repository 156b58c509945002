import { AppMetrics, createRedis, EgressGuard, httpSeries, Keyring, redisKeys, TypedQueue, type Config, type Logger, errorFields, ignoreFailure, type RedisClient } from "@outreach/core";
import { createDbClient, dbClientOptions, type Db } from "@outreach/db";
import { MxVerifier, WebhookHttpClient } from "@outreach/domain";
import { ApiKeyCache } from "./api-key-cache.js";
import { createPaymentProvider, type PaymentProvider } from "./payment-provider.js";
import { UsageRecorder } from "./usage-recorder.js";

/** Everything routes and services need, built once in main.ts (or by a test). */
export interface ApiContext {
  config: Config;
  /** ENCRYPTION_KEY and ENCRYPTION_PREVIOUS_KEYS: seals secrets, makes and checks tracking links. */
  keyring: Keyring;
  logger: Logger;
  db: Db;
  /** Plain commands: rate limits, locks, readiness. Fails fast while Redis is down. */
  redis: RedisClient;
  /** BullMQ producers; they queue commands briefly while Redis reconnects. */
  producer: RedisClient;
  queues: {
    campaignDispatch: TypedQueue<"campaign-dispatch">;
    testSend: TypedQueue<"test-send">;
    replanHeldSends: TypedQueue<"replan-held-sends">;
    sendAnswer: TypedQueue<"send-answer">;
  };
  /** Request log and api_keys.last_used_at, written in batches off the request path. */
  usage: UsageRecorder;
  /** Resolved API keys, so authentication skips the database; revocations are broadcast. */
  keyCache: ApiKeyCache;
  subscriber: RedisClient;
  /** null when no payment provider is configured (STRIPE_SECRET_KEY unset). */
  paymentProvider: PaymentProvider | null;
  /** The egress guard for tenant-chosen hosts: SMTP/IMAP (MAIL_ALLOW_PRIVATE_HOSTS) and webhook URLs (WEBHOOK_ALLOW_PRIVATE_URLS). */
  egress: { mail: EgressGuard; webhooks: EgressGuard };
  /** POSTs to receivers (test pings), through the webhooks' egress guard. */
  webhookHttp: WebhookHttpClient;
  /** MX look-ups (through DNS_SERVERS, cached) for address checks (POST /contacts/verify). */
  mx: MxVerifier;
  /** the api's Prometheus series, served on METRICS_PORT (main.ts) */
  metrics: AppMetrics;
  http: ReturnType<typeof httpSeries>;
}

export function createApiContext(config: Config, logger: Logger): ApiContext {
  const webhookEgress = new EgressGuard({ allowPrivate: config.webhookAllowPrivateUrls, dnsServers: config.dnsServers });
  const redis = createRedis(config, "command");
  const producer = createRedis(config, "producer");
  redis.on("error", (err) => logger.debug("redis error", { ...errorFields(err) }));
  producer.on("error", (err) => logger.debug("redis error", { ...errorFields(err) }));
  const subscriber = createRedis(config, "producer");
  subscriber.on("error", (err) => logger.debug("redis error", { ...errorFields(err) }));
  const db = createDbClient(config.databaseUrl, dbClientOptions(config));
  const usage = new UsageRecorder(db, logger);
  usage.start();
  const metrics = new AppMetrics("api");
  return {
    metrics,
    http: httpSeries(metrics),
    config,
    keyring: Keyring.fromConfig(config),
    logger,
    db,
    usage,
    subscriber,
    keyCache: new ApiKeyCache(redisKeys.apiKeyEventsChannel(config), producer, subscriber, logger),
    paymentProvider: createPaymentProvider(config),
    egress: {
      mail: new EgressGuard({ allowPrivate: config.mailAllowPrivateHosts, dnsServers: config.dnsServers }),
      webhooks: webhookEgress,
    },
    webhookHttp: new WebhookHttpClient(webhookEgress, config.webhookTimeoutMs),
    mx: new MxVerifier(config.dnsServers),
    redis,
    producer,
    queues: {
      campaignDispatch: new TypedQueue("campaign-dispatch", config, producer),
      testSend: new TypedQueue("test-send", config, producer),
      replanHeldSends: new TypedQueue("replan-held-sends", config, producer),
      sendAnswer: new TypedQueue("send-answer", config, producer),
    },
  };
}

export async function closeApiContext(ctx: ApiContext): Promise<void> {
  await ctx.usage.stop().catch(ignoreFailure(ctx.logger, "flushing API usage at shutdown", "the usage of the last seconds is lost, nothing else"));
  await Promise.allSettled(Object.values(ctx.queues).map((queue) => queue.close()));
  await Promise.allSettled([ctx.redis.quit(), ctx.producer.quit(), ctx.subscriber.quit(), ctx.webhookHttp.close()]);
  await ctx.db.$disconnect();
}
