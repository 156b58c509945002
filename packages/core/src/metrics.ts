import { errorFields, ignoreFailure } from "./logger.js";
import { randomUUID } from "node:crypto";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { AppName, Config } from "./config.js";
import type { Logger } from "./logger.js";
import { pingRedis, type RedisClient } from "./redis.js";
import { redisKeys } from "./redis-keys.js";

/**
 * An app's Prometheus metrics. `process` holds what this process counts
 * (requests, sends, messages, deliveries, and prom-client's default process
 * series); `database` holds gauges computed from PostgreSQL, which every
 * replica could compute alike, so only the replica holding the app's metrics
 * lease exports them (see MetricsLease): summed over replicas, nothing doubles.
 */
export class AppMetrics {
  readonly process = new Registry();
  readonly database = new Registry();
  /** set by the app: whether this replica exports the database gauges */
  exportsDatabase: () => boolean = () => true;

  constructor(readonly app: AppName) {
    collectDefaultMetrics({ register: this.process });
  }

  get contentType(): string {
    return this.process.contentType;
  }

  /**
   * The text exposition: this process's series, and the database gauges when
   * this replica exports them. A failed database read leaves the gauges out
   * (reported to `onDatabaseError`) rather than the whole answer: the process
   * series stay visible while PostgreSQL is away.
   */
  async render(onDatabaseError?: (err: Error) => void): Promise<string> {
    const own = await this.process.metrics();
    if (!this.exportsDatabase()) return own;
    try {
      return `${own}\n${await this.database.metrics()}`;
    } catch (err) {
      onDatabaseError?.(err as Error);
      return own;
    }
  }
}

/** Seconds, for request and job durations: 5 ms to 30 s. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** api: requests by route pattern (never a raw path with ids) and their durations. */
export function httpSeries(metrics: AppMetrics) {
  return {
    requests: new Counter({
      name: "outreach_http_requests_total",
      help: "HTTP requests answered, by method, route pattern and status.",
      labelNames: ["method", "route", "status"] as const,
      registers: [metrics.process],
    }),
    duration: new Histogram({
      name: "outreach_http_request_duration_seconds",
      help: "Time to answer an HTTP request, by method and route pattern.",
      labelNames: ["method", "route"] as const,
      buckets: DURATION_BUCKETS,
      registers: [metrics.process],
    }),
  };
}

export const SEND_OUTCOMES = ["sent", "bounced", "failed", "unknown"] as const;
export type SendOutcomeLabel = (typeof SEND_OUTCOMES)[number];

/** sender: what became of each send, and the SMTP sessions it holds open. */
export function senderSeries(metrics: AppMetrics, sessionsOpen: () => number) {
  const sends = new Counter({ name: "outreach_sends_total", help: "Step sends finished by this process, by outcome.", labelNames: ["outcome"] as const, registers: [metrics.process] });
  for (const outcome of SEND_OUTCOMES) sends.inc({ outcome }, 0);
  new Gauge({
    name: "outreach_smtp_sessions_open",
    help: "SMTP sessions this process holds open.",
    registers: [metrics.process],
    collect() {
      this.set(sessionsOpen());
    },
  });
  return { sends };
}

export const INBOUND_KINDS = ["reply", "auto_reply", "bounce", "unsubscribe", "other"] as const;
export type InboundKindLabel = (typeof INBOUND_KINDS)[number];

/** imap-poller: inboxes this process watches, and the messages it read by kind. */
export function pollerSeries(metrics: AppMetrics, watched: () => number) {
  const inbound = new Counter({ name: "outreach_inbound_messages_total", help: "Messages read from watched inboxes, by kind.", labelNames: ["kind"] as const, registers: [metrics.process] });
  for (const kind of INBOUND_KINDS) inbound.inc({ kind }, 0);
  new Gauge({
    name: "outreach_imap_inboxes_watched",
    help: "Inboxes with a live IMAP connection held by this process (sum over replicas: all watched inboxes).",
    registers: [metrics.process],
    collect() {
      this.set(watched());
    },
  });
  return { inbound };
}

export const REPLY_CLASSIFIER_OUTCOMES = ["categorized", "other", "unusable", "failed", "timeout", "over_budget"] as const;
export type ReplyClassifierOutcome = (typeof REPLY_CLASSIFIER_OUTCOMES)[number];

/** imap-poller: what became of each reply meant for the model (REPLY_CLASSIFIER_URL). */
export function replyClassifierSeries(metrics: AppMetrics) {
  const calls = new Counter({
    name: "outreach_reply_classifier_calls_total",
    help: "Replies the rules left as other, by what the model did: categorized (a label other than other), other, unusable (an answer outside the labels), failed (HTTP error, network, oversized), timeout, over_budget (no question asked: the account's daily budget was spent).",
    labelNames: ["outcome"] as const,
    registers: [metrics.process],
  });
  for (const outcome of REPLY_CLASSIFIER_OUTCOMES) calls.inc({ outcome }, 0);
  return { calls };
}

export const DELIVERY_OUTCOMES = ["delivered", "retried", "failed"] as const;
export type DeliveryOutcomeLabel = (typeof DELIVERY_OUTCOMES)[number];

/** webhook-deliverer: what became of each delivery attempt. */
export function delivererSeries(metrics: AppMetrics) {
  const deliveries = new Counter({
    name: "outreach_webhook_deliveries_total",
    help: "Webhook delivery attempts by outcome: delivered, retried (failed, another attempt planned), failed (no attempt left).",
    labelNames: ["outcome"] as const,
    registers: [metrics.process],
  });
  for (const outcome of DELIVERY_OUTCOMES) deliveries.inc({ outcome }, 0);
  return { deliveries };
}

/** A gauge of the database registry, set by `read` at each scrape of the replica that exports it. */
export function databaseGauge<L extends string>(
  metrics: AppMetrics,
  options: { name: string; help: string; labelNames?: readonly L[] },
  read: () => Promise<Array<{ labels?: Partial<Record<L, string>>; value: number }>>,
): Gauge<L> {
  return new Gauge<L>({
    name: options.name,
    help: options.help,
    labelNames: options.labelNames ?? [],
    registers: [metrics.database],
    async collect() {
      const values = await read();
      this.reset();
      for (const { labels, value } of values) {
        if (labels) this.set(labels as never, value);
        else this.set(value);
      }
    },
  });
}

const RENEW = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) and 1 or 0
`;

/**
 * Which replica of an app exports its database gauges: the one holding a
 * Redis lease, renewed every third of its time. A replica that dies lets it
 * expire, and another takes it within LEASE_MS. While Redis is away nobody
 * holds it (the gauges would not be fresh anyway).
 */
export class MetricsLease {
  private readonly id = randomUUID();
  private held = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly redis: RedisClient,
    private readonly config: Pick<Config, "queuePrefix">,
    private readonly app: AppName,
    private readonly logger: Logger,
    private readonly leaseMs = 15_000,
  ) {}

  isHeld(): boolean {
    return this.held;
  }

  async start(): Promise<void> {
    // a connection still being established would refuse the first renewal: wait for it (bounded)
    await pingRedis(this.redis, 3_000).catch(ignoreFailure(this.logger, "waiting for Redis before the first metrics lease", "the renewals that follow log their failures"));
    await this.renew();
    this.timer = setInterval(() => void this.renew(), Math.floor(this.leaseMs / 3));
    this.timer.unref();
  }

  private async renew(): Promise<void> {
    try {
      this.held = (await this.redis.eval(RENEW, 1, redisKeys.metricsLease(this.config, this.app), this.id, this.leaseMs)) === 1;
    } catch (err) {
      if (this.held) this.logger.warn("could not renew the metrics lease: this replica stops exporting database gauges", { ...errorFields(err) });
      this.held = false;
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    if (!this.held) return;
    this.held = false;
    await this.redis
      .eval(`if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`, 1, redisKeys.metricsLease(this.config, this.app), this.id)
      .catch(ignoreFailure(this.logger, "releasing the metrics lease", "it expires by itself"));
  }
}
