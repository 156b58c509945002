import { databaseGauge, delivererSeries, EgressGuard, Keyring } from "@outreach/core";
import { countOutboxBacklog, SecretCache, WebhookHttpClient } from "@outreach/domain";
import type { WorkerDefinition } from "@outreach/runtime";
import { AttemptRecorder } from "./attempt-recorder.js";
import { DeliveryFeeder } from "./delivery-feeder.js";
import { OutboxRelay } from "./outbox-relay.js";
import { PgListener } from "./pg-listener.js";

interface DelivererResources {
  http: WebhookHttpClient;
  relay: OutboxRelay;
  feeder: DeliveryFeeder;
  listener: PgListener;
}

/**
 * The webhook deliverer works from PostgreSQL alone: the outbox relay turns
 * events into delivery rows, and the feeder delivers them (see
 * DeliveryFeeder). Both are woken by NOTIFY and poll as a fallback (the
 * triggers sending them: packages/db/sql/triggers/).
 */
export const webhookDelivererWorker: WorkerDefinition<DelivererResources> = {
  app: "webhook-deliverer",
  setup: (ctx) => {
    // receivers are tenant-chosen hosts: every connection goes through the egress guard
    const guard = new EgressGuard({ allowPrivate: ctx.config.webhookAllowPrivateUrls, dnsServers: ctx.config.dnsServers });
    const http = new WebhookHttpClient(guard, ctx.config.webhookTimeoutMs);
    const feeder = new DeliveryFeeder({
      db: ctx.db,
      http,
      recorder: new AttemptRecorder(ctx.db, ctx.config.webhookRetryBaseMs, ctx.logger, delivererSeries(ctx.metrics).deliveries),
      secrets: new SecretCache(Keyring.fromConfig(ctx.config)),
      logger: ctx.logger,
      drainMs: ctx.config.webhookTimeoutMs + 1_000,
    });
    databaseGauge(ctx.metrics, { name: "outreach_outbox_backlog", help: "Events not fanned out into deliveries yet, plus deliveries due for an attempt." }, async () => [
      { value: await countOutboxBacklog(ctx.db) },
    ]);
    const relay = new OutboxRelay(ctx.db, () => feeder.wake(), ctx.logger);
    const listener = new PgListener(ctx.config.databaseDirectUrl, { outbox_events: () => relay.wake(), webhook_deliveries: () => feeder.wake() }, ctx.logger);
    return { http, relay, feeder, listener };
  },
  processors: () => [],
  start: async (_ctx, resources) => {
    resources.relay.start();
    resources.feeder.start();
    await resources.listener.start();
  },
  stop: async (_ctx, resources) => {
    await resources.listener.stop();
    await resources.relay.stop();
    await resources.feeder.stop();
    await resources.http.close();
  },
};
