import assert from "node:assert/strict";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, test } from "node:test";
import { loadConfig, startMetricsServer } from "@outreach/core";
import { startWorker } from "@outreach/runtime";
import { apiRequest, findFreePort, LOOPBACK_MAIL_ENV, startWebhookReceiver, waitFor, type WebhookReceiver } from "@outreach/testing";
import { dispatcherWorker } from "../apps/dispatcher/src/worker.js";
import { startRealService, type RealService } from "./kit/real-service.js";

// Prometheus series of each app after a real flow: a send, a bounce, a webhook delivery.
let service: RealService;
let receiver: WebhookReceiver;
let apiMetrics: Server;

async function scrape(port: number): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${port}/metrics`);
  assert.equal(response.status, 200);
  assert.match(response.headers.get("content-type") ?? "", /^text\/plain; version=0\.0\.4/);
  return response.text();
}

/** The value of one sample (name and exact label set, as Prometheus prints it), or undefined. */
function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

function rest(method: string, path: string, token: string | undefined, body?: unknown) {
  return apiRequest(service.baseUrl, method, path, { token, body });
}

before(async () => {
  service = await startRealService();
  receiver = await startWebhookReceiver({ path: "/metrics-hook" });
  apiMetrics = await startMetricsServer(0, service.api.metrics, undefined, "127.0.0.1");
});
after(async () => {
  apiMetrics?.close();
  await receiver?.close();
  await service?.stop();
});

test("after a send, a bounce and a webhook delivery, each app's /metrics shows them; the api's only on its metrics port", async () => {
  const { engine } = service;
  const signup = await rest("POST", "/signup", undefined, { email: "ops@acme.test" });
  const token = signup.body.api_key.plaintext as string;
  await rest("POST", "/webhooks", token, { url: receiver.url, event_filters: ["enrollment.sent"] });
  const campaign = await rest("POST", "/campaigns", token, {
    name: "Metrics",
    min_wait_seconds: 0,
    max_wait_seconds: 0,
    smtp_credentials: [
      {
        label: "Inbox",
        from_email: "ops@acme.test",
        smtp_host: engine.smtp.host,
        smtp_port: engine.smtp.port,
        smtp_secure: false,
        smtp_username: "metrics-inbox",
        smtp_password: "pw",
        daily_limit: 50,
      },
    ],
    sequence_steps: [{ position: 1, subject: "Hi", body_html: "<p>Hi</p>", delay_minutes: 0 }],
  });
  assert.equal(campaign.status, 201);
  engine.smtp.rejectRecipient("gone@bounce.test", 550, "5.1.1 no such user");
  const contacts = await rest("POST", "/contact_imports", token, { contacts: [{ email: "kept@acme.test" }, { email: "gone@bounce.test" }] });
  await rest("POST", `/campaigns/${campaign.body.id}/enroll`, token, { contact_import_id: contacts.body.id });
  assert.equal((await rest("POST", `/campaigns/${campaign.body.id}/dispatch`, token, {})).status, 200);
  await rest("GET", `/campaigns/6f1c2a7e-0000-4000-8000-000000000000`, token);
  await rest("GET", "/no/such/path", token);

  // sender: one sent, one bounced
  const sender = await waitFor(
    async () => {
      const text = await scrape(engine.healthPorts.sender);
      return sample(text, 'outreach_sends_total{outcome="sent"}') === 1 && sample(text, 'outreach_sends_total{outcome="bounced"}') === 1 ? text : undefined;
    },
    { timeoutMs: 60_000, what: "the sender's counts" },
  );
  assert.equal(sample(sender, 'outreach_sends_total{outcome="failed"}'), 0, "every outcome is there from the start");
  assert.ok(sample(sender, "outreach_smtp_sessions_open")! >= 0);
  assert.ok(sample(sender, "process_resident_memory_bytes")! > 0, "the default process series");

  // dispatcher: the database gauges (it holds the lease alone)
  const dispatcher = await waitFor(
    async () => {
      const text = await scrape(engine.healthPorts.dispatcher);
      return text.includes("outreach_step_sends{") ? text : undefined;
    },
    { what: "the dispatcher's database gauges" },
  );
  for (const state of ["scheduled", "queued", "sending"]) assert.ok(sample(dispatcher, `outreach_step_sends{state="${state}"}`) !== undefined, state);
  assert.ok(sample(dispatcher, "outreach_schedule_lag_seconds")! >= 0);

  // webhook-deliverer: the enrollment.sent delivered
  const deliverer = await waitFor(
    async () => {
      const text = await scrape(service.deliverer.config.healthPort);
      return sample(text, 'outreach_webhook_deliveries_total{outcome="delivered"}')! >= 1 ? text : undefined;
    },
    { timeoutMs: 60_000, what: "a delivered webhook counted" },
  );
  assert.ok(sample(deliverer, "outreach_outbox_backlog")! >= 0);

  // api: by route pattern, never a raw path; an unknown path is one label
  const api = await scrape((apiMetrics.address() as AddressInfo).port);
  assert.equal(sample(api, 'outreach_http_requests_total{method="POST",route="/campaigns/:id/dispatch",status="200"}'), 1);
  assert.equal(sample(api, 'outreach_http_requests_total{method="GET",route="/campaigns/:id",status="404"}'), 1);
  assert.equal(sample(api, 'outreach_http_requests_total{method="GET",route="unmatched",status="404"}'), 1);
  assert.ok(!api.includes("6f1c2a7e"), "no id in a label");
  assert.ok(sample(api, 'outreach_http_request_duration_seconds_count{method="POST",route="/signup"}')! >= 1);
  assert.equal((await rest("GET", "/metrics", undefined)).status, 404, "not on the public port");
});

test("two dispatcher replicas: the database gauges come from one of them only", async () => {
  const { engine } = service;
  const second = await startWorker(
    dispatcherWorker,
    loadConfig("dispatcher", { DATABASE_URL: engine.config.databaseUrl, QUEUE_PREFIX: engine.config.queuePrefix, LOG_LEVEL: "error", ...LOOPBACK_MAIL_ENV, HEALTH_PORT: String(await findFreePort()) }),
  );
  try {
    const texts = await Promise.all([scrape(engine.healthPorts.dispatcher), scrape(second.ctx.config.healthPort)]);
    const exporting = texts.filter((text) => text.includes("outreach_step_sends{"));
    assert.equal(exporting.length, 1, "exactly one replica exports outreach_step_sends");
    assert.equal(texts.filter((text) => /^outreach_schedule_lag_seconds /m.test(text)).length, 1);
    for (const text of texts) assert.ok(sample(text, "process_cpu_user_seconds_total") !== undefined, "each exports its own process series");
  } finally {
    await second.close();
  }
});
