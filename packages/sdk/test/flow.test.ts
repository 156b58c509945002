import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { startWebhookReceiver, waitFor, type WebhookReceiver } from "@outreach/testing";
import { createClient, isApiError, SIGNATURE_HEADER, verifyWebhookSignature, type WebhookEvent } from "../src/index.js";
import { startRealService, type RealService } from "../../../test/kit/real-service.js";

// The SDK against the real service: API, dispatcher, sender and webhook
// deliverer in-process, mail to a loopback SMTP server, events to a loopback receiver.
let service: RealService;
let receiver: WebhookReceiver;
before(async () => {
  service = await startRealService();
  receiver = await startWebhookReceiver({ path: "/outreach-events" });
});
after(async () => {
  await receiver?.close();
  await service?.stop();
});

test("a customer's backend goes from signup to delivered emails, stats, a signed webhook and its usage, all through the SDK", async () => {
  const { baseUrl, engine } = service;

  // 1. sign up without a key, then make a key for the backend: the SDK marks it as an sdk key
  const anonymous = createClient({ baseUrl });
  const { data: signup, response: signupResponse } = await anonymous.POST("/signup", { body: { email: "founder@acme.test", name: "Acme" } });
  assert.equal(signupResponse.status, 201);
  const bootstrap = createClient({ baseUrl, apiKey: signup.api_key.plaintext });
  const { data: key } = await bootstrap.POST("/api_keys", { body: { label: "backend" } });
  assert.equal(key.client_kind, "sdk");
  const client = createClient({ baseUrl, apiKey: key.plaintext, timeoutMs: 15_000 });
  let sdkRequests = 0;
  const counted = <T>(call: Promise<T>, requests = 1): Promise<T> => {
    sdkRequests += requests;
    return call;
  };

  // 2. contacts arrive through an import
  const { data: contactImport } = await counted(
    client.POST("/contact_imports", {
      body: {
        name: "Launch list",
        contacts: [
          { email: "ada@lovelace.test", first_name: "Ada" },
          { email: "grace@hopper.test", first_name: "Grace" },
          { email: "edsger@dijkstra.test", first_name: "Edsger" },
        ],
      },
    }),
  );
  assert.equal(contactImport.imported_count, 3);

  // 3. a campaign whose inbox is the loopback SMTP server
  const { data: campaign } = await counted(
    client.POST("/campaigns", {
      body: {
        campaign: {
          name: "Launch",
          min_wait_seconds: 0,
          max_wait_seconds: 0,
          smtp_credentials: [
            {
              label: "Sales",
              from_email: "sales@acme.test",
              smtp_host: engine.smtp.host,
              smtp_port: engine.smtp.port,
              smtp_secure: false,
              smtp_username: "sdk-flow-inbox",
              smtp_password: "pw",
              daily_limit: 50,
            },
          ],
          sequence_steps: [{ position: 1, subject: "Hello {{first_name}}", body_html: "<p>Hi {{first_name}}</p>", delay_minutes: 0 }],
        },
      },
    }),
  );
  assert.equal(campaign.status, "pending");

  // 4. a webhook to our receiver; its secret is shown once
  const { data: webhook } = await counted(client.POST("/webhooks", { body: { webhook: { url: receiver.url, event_filters: ["enrollment.sent"] } } }));

  // 5. enroll the import and dispatch
  await counted(client.POST("/campaigns/{id}/enroll", { params: { path: { id: campaign.id } }, body: { contact_import_id: contactImport.id } }));
  const { data: dispatched } = await counted(client.POST("/campaigns/{id}/dispatch", { params: { path: { id: campaign.id } }, body: {} }));
  assert.equal(dispatched.status, "active");

  // 6. the emails reach the SMTP server
  const emails = await waitFor(
    () => {
      const sent = engine.smtp.messages.filter((m) => m.username === "sdk-flow-inbox");
      return sent.length === 3 ? sent : undefined;
    },
    { timeoutMs: 60_000, what: "the three emails" },
  );
  assert.deepEqual(emails.map((m) => m.parsed.subject).sort(), ["Hello Ada", "Hello Edsger", "Hello Grace"]);

  // 7. the stats show them
  const stats = await waitFor(
    async () => {
      const { data } = await counted(client.GET("/campaigns/{id}", { params: { path: { id: campaign.id } } }));
      return data.totals.sent === 3 ? data : undefined;
    },
    { timeoutMs: 30_000, intervalMs: 200, what: "the stats to count three sends" },
  );
  assert.equal(stats.totals.sent, 3);
  assert.equal(stats.totals.pending, 0);

  // once the batch is out, a second dispatch finds nothing pending: a typed error the caller can branch on
  const again = await counted(client.POST("/campaigns/{id}/dispatch", { params: { path: { id: campaign.id } }, body: {} })).catch((err: unknown) => err);
  assert.ok(isApiError(again, "no_pending_enrollments"), `expected no_pending_enrollments, got ${String(again)}`);
  assert.equal(again.status, 422);
  assert.ok(again.requestId, "the error carries the request id");

  // 8. the contacts, two to a page
  const contacts = [];
  for await (const contact of client.paginate("/contacts", { params: { query: { limit: 2 } } })) contacts.push(contact.email);
  sdkRequests += 2;
  assert.deepEqual(contacts.sort(), ["ada@lovelace.test", "edsger@dijkstra.test", "grace@hopper.test"]);

  // 9. every enrollment.sent arrives signed, and the SDK's verifier accepts it
  await waitFor(() => receiver.requests.length >= 3, { timeoutMs: 60_000, what: "three enrollment.sent deliveries" });
  const events: WebhookEvent[] = receiver.requests.map((request) => verifyWebhookSignature({ payload: request.raw, header: request.headers[SIGNATURE_HEADER.toLowerCase()], secret: webhook.secret }));
  assert.deepEqual(
    events.map((event) => event.type),
    ["enrollment.sent", "enrollment.sent", "enrollment.sent"],
  );
  const sentTo = events.map((event) => (event.type === "enrollment.sent" ? event.data.contact_email : "")).sort();
  assert.deepEqual(sentTo, ["ada@lovelace.test", "edsger@dijkstra.test", "grace@hopper.test"]);
  assert.ok(events.every((event) => event.account_id === signup.account_id));
  assert.throws(() => verifyWebhookSignature({ payload: receiver.requests[0]!.raw, header: receiver.requests[0]!.headers[SIGNATURE_HEADER.toLowerCase()], secret: "whsec_not_ours" }));

  // 10. the usage report counts this traffic as the SDK's
  const accountId = signup.account_id;
  await waitFor(
    async () => {
      await service.api.usage.flush();
      return (await engine.db.requestLog.count({ where: { accountId, clientKind: "sdk" } })) >= sdkRequests;
    },
    { what: `${sdkRequests} sdk requests recorded` },
  );
  const { data: usage } = await client.GET("/usage");
  const sdk = usage.by_client_kind.find((row) => row.client_kind === "sdk");
  assert.equal(sdk?.requests, sdkRequests);
  assert.equal(sdk?.errors, 1, "the refused second dispatch");
  const direct = usage.by_client_kind.find((row) => row.client_kind === "direct");
  assert.equal(direct?.requests, 1, "only the key creation used the signup key");
});
