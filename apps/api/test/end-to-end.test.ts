import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { decryptSecret, secretAad } from "@outreach/core";
import { flushUsage, request, startTestApi, type TestApi } from "./helpers.js";

let api: TestApi;
before(async () => {
  api = await startTestApi();
});
after(() => api?.close());

test("a new user goes from signup to a campaign with a webhook through the real HTTP API", async () => {
  const call = (method: string, path: string, token?: string, body?: unknown, headers?: Record<string, string>) => request(api.baseUrl, method, path, { token, body, headers });

  // 1. sign up, then make a key for the SDK and continue with it
  const signup = await call("POST", "/signup", undefined, { email: "ops@acme.test", name: "Acme" });
  assert.equal(signup.status, 201);
  const sdkKey = await call("POST", "/api_keys", signup.body.api_key.plaintext, { label: "backend", client_kind: "sdk" });
  assert.equal(sdkKey.status, 201);
  const token = sdkKey.body.plaintext as string;

  // 2. contacts arrive through an import
  const imported = await call("POST", "/contact_imports", token, {
    contact_import: {
      name: "Q4 leads",
      contacts: [
        { email: "ada@lovelace.test", first_name: "Ada", company: "Engines Ltd" },
        { email: "grace@hopper.test", first_name: "Grace", last_name: "Hopper" },
        { email: "ADA@lovelace.test", last_name: "Lovelace" },
        { email: "not an email" },
      ],
    },
  });
  assert.equal(imported.status, 201);
  assert.equal(imported.body.imported_count, 2);
  assert.equal(imported.body.invalid_count, 1);
  const contacts = await call("GET", "/contacts", token);
  assert.deepEqual(contacts.body.map((c: any) => c.email).sort(), ["ada@lovelace.test", "grace@hopper.test"]);
  const ada = contacts.body.find((c: any) => c.email === "ada@lovelace.test");
  assert.equal(ada.last_name, "Lovelace", "the duplicate row was merged in");

  // 3. an outreach groups campaigns that must not email the same person twice
  const outreach = await call("POST", "/outreaches", token, { outreach: { name: "Q4", unique_contacts: true } }, { "idempotency-key": "outreach-q4" });
  assert.equal(outreach.status, 201);

  // 4. the campaign, with its inbox and a two-step sequence
  const campaign = await call(
    "POST",
    "/campaigns",
    token,
    {
      campaign: {
        name: "Q4 intro",
        outreach_id: outreach.body.id,
        smtp_credentials: [
          { label: "Sales inbox", from_email: "sales@acme.test", smtp_host: "smtp.acme.test", smtp_port: 587, smtp_username: "sales@acme.test", smtp_password: "s3cret!", daily_limit: 50 },
        ],
        sequence_steps: [
          { position: 1, subject: "Hello {{first_name}}", body_html: "<p>Hi {{first_name}} at {{company}}</p>", delay_minutes: 0 },
          { position: 2, subject: "Following up", body_html: "<p>Any thoughts, {{first_name}}?</p>", delay_minutes: 2880 },
        ],
      },
    },
    { "idempotency-key": "campaign-q4" },
  );
  assert.equal(campaign.status, 201);
  assert.equal(campaign.body.status, "pending");
  assert.ok(!campaign.text.includes("s3cret!"), "the password is never returned");
  const stored = await api.database.db.smtpCredential.findFirstOrThrow({ where: { campaignId: campaign.body.id } });
  assert.equal(decryptSecret(stored.smtpPasswordEnc!, api.config.encryptionKey, secretAad("smtp_credentials", "smtpPasswordEnc", stored.id)), "s3cret!");

  const listed = await call("GET", "/campaigns", token);
  assert.deepEqual(listed.body, [{ id: campaign.body.id, name: "Q4 intro", status: "pending", created_at: campaign.body.created_at }]);
  const detail = await call("GET", `/campaigns/${campaign.body.id}`, token);
  assert.deepEqual(detail.body.totals, { total: 0, pending: 0, sent: 0, opened: 0, replied: 0, bounced: 0, unsubscribed: 0, clicked: 0, stopped: 0, sent_unconfirmed: 0, sends_failed: 0 });
  const preview = await call("GET", `/campaigns/${campaign.body.id}/preview?contact_id=${ada.id}`, token);
  assert.equal(preview.body.subject, "Hello Ada");
  assert.equal(preview.body.body_html, "<p>Hi Ada at Engines Ltd</p>");

  // 5. a webhook receives the campaign's events
  const webhook = await call("POST", "/webhooks", token, { webhook: { url: "https://hooks.acme.test/outreach", event_filters: ["enrollment.replied", "campaign.paused"] } });
  assert.equal(webhook.status, 201);
  assert.match(webhook.body.secret, /^whsec_/);
  const hooks = await call("GET", "/webhooks", token);
  assert.equal(hooks.body.length, 1);
  assert.equal(hooks.body[0].secret, undefined);

  // 6. the traffic shows up per client kind, and the plan is untouched by setup
  await flushUsage(api, { accountId: signup.body.account_id, clientKind: "sdk" }, 9);
  const usage = await call("GET", "/usage", token);
  assert.equal(usage.body.by_client_kind.find((k: any) => k.client_kind === "sdk").requests, 9, "nine calls made with the sdk key so far");
  const billing = await call("GET", "/billing/usage", token);
  assert.equal(billing.body.current_period_sends, 0);
  assert.equal(billing.body.plan_slug, "free");
});
